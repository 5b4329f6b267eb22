/**
 * The agent's one way out to listeners. Every event passes through here, so this is where secrets are
 * taken out: an API key that slipped into an error message (a provider echoing it, a tool's exception)
 * never reaches `--json` output, the timeline or a log.
 */
import type { AgentEvent } from '../../shared/events.js';

export type Emit = (event: AgentEvent) => void;

export const REDACTED = '[redacted]';
/** Shorter strings could match ordinary text; no real key is this short. */
const MIN_SECRET_LENGTH = 6;

/** Replaces every occurrence of each secret in a text. */
export function createSecretRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const known = secrets.filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH);
  if (known.length === 0) return (text) => text;
  return (text) => known.reduce((result, secret) => result.split(secret).join(REDACTED), text);
}

/**
 * An emitter that redacts and never lets a listener's exception into the loop: a broken listener must
 * not end a turn half-recorded.
 */
export function createEventEmitter(listener: ((event: AgentEvent) => void) | undefined, redact: (text: string) => string): Emit {
  return (event) => {
    if (listener === undefined) return;
    try {
      listener(redactStrings(event, redact));
    } catch (error) {
      console.error(`An agent event listener failed: ${redact(error instanceof Error ? error.message : String(error))}`);
    }
  };
}

function redactStrings<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)])) as T;
  }
  return value;
}
