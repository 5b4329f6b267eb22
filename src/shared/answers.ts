/**
 * Answers: a turn that does not act but answers a question about the screen (a flow's assert, extract,
 * if and wait_for; the SDK's assert, extract and waitFor). The model answers through one tool whose
 * parameters are the answer's schema (or, in UI-TARS's text grammar, `finished(content=…)` holding JSON);
 * the answer is validated, stored with its turn, and names the frames it relied on.
 */
import { z } from 'zod';

/**
 * - `verdict`: true or false, with a reason (assert, if);
 * - `value`: a value of a JSON Schema (extract);
 * - `until`: true or false, asked again each time the screen changes until true or the time is up (wait_for);
 * - `box`: where an element is, a box the model draws on the latest screenshot, stored as mapped to the page's
 *   own coordinates ({ rect, center, dpr }, Midscene's aiLocate: see LocatedElement).
 */
export const ANSWER_KINDS = ['verdict', 'value', 'until', 'box'] as const;
export type AnswerKind = (typeof ANSWER_KINDS)[number];

/** A model's answer, once validated: what it said, why, and the ids of the frames it relied on (its evidence). */
export interface TurnAnswer {
  kind: AnswerKind;
  value: unknown;
  reason: string;
  evidence: string[];
}

export const TurnAnswerSchema: z.ZodType<TurnAnswer> = z.object({
  kind: z.enum(ANSWER_KINDS),
  value: z.unknown(),
  reason: z.string(),
  evidence: z.array(z.string()),
}) as z.ZodType<TurnAnswer>;

/** What a flow step (or an SDK call) a turn ran for, stored with the turn so the timeline can show it. */
export const STEP_KINDS = ['do', 'assert', 'extract', 'if', 'wait_for', 'locate'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * Where an element is, in the page's own coordinates (CSS pixels of the viewport; on the desktop, pixels of the
 * display divided by its scale): Midscene's aiLocate result, `rect` its box, `center` its middle as [x, y], `dpr`
 * the device pixels per unit of the frame it was read from.
 */
export interface LocatedElement {
  rect: { left: number; top: number; width: number; height: number };
  center: [number, number];
  dpr: number;
}
