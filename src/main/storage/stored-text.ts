/**
 * What every text a repository writes passes through first: the configured secrets' redactor (shared/
 * secret-redaction.ts), handed in by whoever opens storage, which knows the configuration. Here, not at
 * each caller, because text reaches the rows from many places (the model's thoughts and summaries, typed
 * actions, tool results, MCP clients' titles, compaction captions) and one of them forgotten is a leak.
 */
import { redactStrings } from '../../shared/secret-redaction.js';

export type RedactStoredText = (text: string) => string;

/** For storage opened without a configuration (tests, read-only commands). */
export const keepText: RedactStoredText = (text) => text;

/** A JSON column's value with every string in it redacted. */
export function redactedValue<T>(value: T, redact: RedactStoredText): T {
  return redact === keepText ? value : redactStrings(value, redact);
}

export function redactedText<T extends string | null | undefined>(text: T, redact: RedactStoredText): T {
  return (typeof text === 'string' ? redact(text) : text) as T;
}
