/**
 * The one redactor of configured secrets: the model's keys, Tavily's, and the MCP servers' secret env
 * values, header values and URL credentials (shared/config.ts says which). Every way out uses it: what is
 * stored (storage runs every text it writes through it), events, the app's and the timeline's errors,
 * `config show` and what `sightline run` and `sightline mcp` print. A model that echoes a key into its
 * thought, a typed action or its summary gets `[redacted]` stored and shown instead.
 */
import { SECRET_FIELD_PATHS, mcpSecretValues, type Config } from './config.js';

export const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

/** Shorter strings could match ordinary text; no real key is this short. */
const MIN_SECRET_LENGTH = 6;

/**
 * The secret values of a configuration, longest first so that a key containing another is masked whole.
 * An `Authorization: Bearer …` header counts twice: whole, and its credential alone, which is what a
 * model or a server would echo.
 */
export function configuredSecrets(config: Config): string[] {
  const keys = SECRET_FIELD_PATHS.map((path) => {
    const [section, key] = path.split('.') as [keyof Config, string];
    return (config[section] as Record<string, unknown>)[key];
  }).filter((value): value is string => typeof value === 'string');
  const values = [...keys, ...mcpSecretValues(config)].flatMap((value) => [value, credentialOf(value)]);
  return [...new Set(values)].filter((value) => value.length >= MIN_SECRET_LENGTH).sort((first, second) => second.length - first.length);
}

/** Replaces every occurrence of each secret in a text. */
export function redactorOf(secrets: readonly (string | undefined)[]): Redact {
  const known = [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
    .sort((first, second) => second.length - first.length);
  if (known.length === 0) return (text) => text;
  return (text) => known.reduce((result, secret) => result.split(secret).join(REDACTED), text);
}

export function secretRedactor(config: Config): Redact {
  return redactorOf(configuredSecrets(config));
}

/** A copy of a JSON-like value with every string in it (keys kept) redacted. */
export function redactStrings<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactStrings(item, redact)) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item, redact)])) as T;
  }
  return value;
}

/** "Bearer abc…" → "abc…"; a value without a scheme is its own credential. */
function credentialOf(value: string): string {
  const words = value.trim().split(/\s+/);
  return words[words.length - 1] ?? value;
}
