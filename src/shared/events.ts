/**
 * The event stream of a run: what `sightline run --json` prints one per line, what the timeline receives
 * live (IPC or server-sent events), and what the MCP server records. Events carry ids, text and numbers,
 * never pixels: an image is named by its id and fetched on demand (ARCHITECTURE.md: keep images out of
 * reports and events). Secrets never appear in events.
 */
import { z } from 'zod';
import { ComputerActionSchema, StepActionSchema } from './actions.js';
import { ScreenshotViewSchema } from './model-view.js';
import { CostTotalsSchema } from './cost.js';
import { GENERATED_MEDIA_KINDS } from './generated-media.js';
import { TurnReplaySchema } from './replay.js';
import { TURN_END_REASONS, TURN_STATUSES } from './statuses.js';
import { TokenUsageSchema } from './token-usage.js';

/** Who answered a confirmation: a person, a rule (headless without a terminal), or a flag (`--yes`). */
export const CONFIRMATION_ANSWERERS = ['user', 'policy', 'flag'] as const;
export type ConfirmationAnswerer = (typeof CONFIRMATION_ANSWERERS)[number];

/** What a request cost, against what it would have cost to keep every image whole. */
export const TokenReportSchema = z.object({
  sentTokens: z.number().int().min(0),
  keepEverythingTokens: z.number().int().min(0),
  imagesSent: z.number().int().min(0),
  imagesFolded: z.number().int().min(0),
});
export type TokenReport = z.infer<typeof TokenReportSchema>;

const base = {
  sessionId: z.string(),
  /** Milliseconds since the epoch. */
  at: z.number(),
};
const inTurn = { ...base, turnId: z.string() };

export const AgentEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('turn-started'), ...inTurn, request: z.string(), sequence: z.number().int() }),
  /** A piece of the model's text as it streams (the live timeline shows it; `--json` omits it unless asked). */
  z.object({ type: z.literal('model-text-delta'), ...inTurn, text: z.string() }),
  z.object({
    type: z.literal('screenshot'),
    ...inTurn,
    /** The stored image, or, when the screen had not changed, the earlier image it equals. */
    imageId: z.string(),
    unchangedFrom: z.string().optional(),
    width: z.number().int(),
    height: z.number().int(),
  }),
  /**
   * An image or audio the model generated, once stored: named by its id (`med_<sha256>`), fetched with
   * getMedia. The assistant message that produced it holds the same id.
   */
  z.object({
    type: z.literal('media'),
    ...inTurn,
    mediaId: z.string(),
    kind: z.enum(GENERATED_MEDIA_KINDS),
    mime: z.string(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
    byteSize: z.number().int().min(0),
  }),
  z.object({
    type: z.literal('step'),
    ...inTurn,
    stepId: z.string(),
    sequence: z.number().int(),
    tool: z.string(),
    action: ComputerActionSchema.optional(),
    thought: z.string().optional(),
    /** The reason the model gave for this call, where its protocol carries one (Gemini 3.5's `intent`). */
    intent: z.string().optional(),
    /** The screenshot the model was looking at when it chose this step. */
    screenshotImageId: z.string().optional(),
    /** How that screenshot was shown to the model: the space the action's coordinates are in. */
    screenshotView: ScreenshotViewSchema.optional(),
    ok: z.boolean(),
    error: z.string().optional(),
    latencyMs: z.number().int().min(0),
    usage: TokenUsageSchema.optional(),
    /** With `usage`: what the model call cost in dollars, when the model's price is known. */
    costDollars: z.number().min(0).optional(),
    tokenReport: TokenReportSchema.optional(),
  }),
  z.object({
    type: z.literal('confirmation-requested'),
    ...inTurn,
    requestId: z.string(),
    /** A computer action, or the call of another tool with side effects (an MCP server's). */
    action: StepActionSchema,
    reason: z.string(),
  }),
  z.object({
    type: z.literal('confirmation-answered'),
    ...inTurn,
    requestId: z.string(),
    approved: z.boolean(),
    by: z.enum(CONFIRMATION_ANSWERERS),
  }),
  z.object({ type: z.literal('ask-user'), ...inTurn, requestId: z.string(), question: z.string() }),
  z.object({ type: z.literal('ask-user-answered'), ...inTurn, requestId: z.string(), answer: z.string() }),
  z.object({
    type: z.literal('search-report'),
    ...inTurn,
    reportId: z.string(),
    question: z.string(),
    answer: z.string(),
    confidence: z.number(),
    sources: z.array(z.object({ title: z.string(), url: z.string() })),
  }),
  z.object({
    type: z.literal('turn-ended'),
    ...inTurn,
    status: z.enum(TURN_STATUSES),
    reason: z.enum(TURN_END_REASONS),
    summary: z.string().optional(),
    steps: z.number().int().min(0),
    usage: TokenUsageSchema,
    /** What the turn's model calls cost: dollars where the price is known, the tokens of the others. */
    cost: CostTotalsSchema.optional(),
    /** A flow step's replay: replayed, healed (and why), diverged or run by the model, with what it saved. */
    replay: TurnReplaySchema.optional(),
  }),
  /** A problem worth showing that did not end the turn by itself (a retried model call, a tool error). */
  z.object({ type: z.literal('warning'), ...base, turnId: z.string().optional(), message: z.string() }),
]);

export type AgentEvent = z.infer<typeof AgentEventSchema>;
export type AgentEventType = AgentEvent['type'];
