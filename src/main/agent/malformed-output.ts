/**
 * What goes back to the model when its tool call cannot be run as written: arguments that are not JSON,
 * a tool that does not exist, arguments that do not fit the tool's schema. Each message says what was
 * wrong and what is expected, so the model can correct itself on the next step; the loop keeps count
 * and gives up after a few replies in a row that were all malformed.
 */
import type { z } from 'zod';

/** Replies in a row whose every tool call was malformed; one more ends the turn as failed. */
export const MAX_CONSECUTIVE_MALFORMED_REPLIES = 3;

export type ArgumentsParse = { ok: true; value: unknown } | { ok: false; error: string };

/** The model's arguments text as JSON. An empty text means "no arguments" (some models send "" for `{}`). */
export function parseToolArguments(toolName: string, text: string): ArgumentsParse {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error:
        `The arguments of ${toolName} are not valid JSON (${detail}). ` +
        `Write them as one JSON object, for example {"action": "click", "x": 100, "y": 200} for computer.`,
    };
  }
}

export function unknownToolMessage(name: string, known: readonly string[]): string {
  return `There is no tool named "${name}". The tools are: ${known.join(', ')}. Call one of them by its exact name.`;
}

/** The schema's complaints, one per line, with the path of each field and the value that was given. */
export function invalidArgumentsMessage(toolName: string, error: z.ZodError, value: unknown, expected: unknown): string {
  const lines = error.issues.map((issue) => `- ${describeIssue(issue, value)}`);
  return [
    `The arguments of ${toolName} do not fit its schema:`,
    ...lines,
    `Expected arguments (JSON schema): ${JSON.stringify(expected)}`,
  ].join('\n');
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  const path = issue.path.length === 0 ? 'arguments' : issue.path.map(String).join('.');
  if (issue.code === 'invalid_union' && 'discriminator' in issue && 'options' in issue) {
    const given = valueAt(value, issue.path);
    const options = (issue.options as unknown[]).map(String).join(', ');
    return given === undefined
      ? `${path} is missing: it must be one of ${options}`
      : `${path}: unknown value ${JSON.stringify(given)}; it must be one of ${options}`;
  }
  return `${path}: ${issue.message}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** Counts replies in a row that were all malformed. */
export class MalformedReplyCounter {
  private consecutive = 0;

  /** Records one reply; true when the limit is now exceeded. */
  record(allCallsMalformed: boolean): boolean {
    this.consecutive = allCallsMalformed ? this.consecutive + 1 : 0;
    return this.consecutive > MAX_CONSECUTIVE_MALFORMED_REPLIES;
  }

  get count(): number {
    return this.consecutive;
  }
}
