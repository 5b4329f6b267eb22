/**
 * The one redactor of configured secrets: the model's keys, Tavily's, and the MCP servers' secret env
 * values, header values and URL credentials (shared/config.ts says which). Every way out uses it: what is
 * stored (storage runs every text it writes through it), events, the app's and the timeline's errors,
 * `config show` and what `sightline run` and `sightline mcp` print. A model that echoes a key into its
 * thought, a typed action or its summary gets `[redacted]` stored and shown instead.
 *
 * A secret is found however a keyboard action spells it, too: `key "s k - t e s t"`, Qwen's and OpenAI's key
 * lists (`["s","k","-",…]`), UI-TARS's `hotkey(key='s k - t')` and `press(key='s')` one after another, the
 * operator's "pressed s k - t e s t" and the progress line's `key s+k+-+t`. Each shape is text wherever it
 * goes (a stored call, a step's action and result, an event, a printed line), so the text is where it is
 * recognized: the same one place as the secret written whole.
 */
import { SECRET_FIELD_PATHS, mcpSecretValues, type Config } from './config.js';
import { PUNCTUATION_KEY_NAMES } from './key-names.js';

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

/** Replaces every occurrence of each secret in a text, written whole or spelled key by key (in any case). */
export function redactorOf(secrets: readonly (string | undefined)[]): Redact {
  const known = [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
    .sort((first, second) => second.length - first.length);
  if (known.length === 0) return (text) => text;
  const occurrences = compiledOccurrences(known);
  return (text) => text.replace(occurrences, REDACTED);
}

/**
 * What may stand between two keys of a spelled secret: spaces and `+`; the quotes, commas and brackets of a
 * JSON list; and between one-key actions, the punctuation and the words of their calls (OpenAI's
 * `"]},{"type":"keypress","keys":["`, UI-TARS's `')\npress(key='`); `shift` before a letter it capitalizes.
 * Bounded, so that only keys pressed one right after the other count as one spelling.
 */
const SEPARATOR_WORDS = ['keypress', 'hotkey', 'action', 'press', 'shift', 'type', 'keys', 'key'];
const MAX_SEPARATORS = 24;

/** The last secrets compiled: the app builds its redactor from the configuration it holds for each text. */
let lastCompiled: { key: string; pattern: RegExp } | undefined;

function compiledOccurrences(secrets: readonly string[]): RegExp {
  const key = secrets.join('\0');
  if (lastCompiled?.key !== key) lastCompiled = { key, pattern: new RegExp(secrets.map(spelledPattern).join('|'), 'gi') };
  return lastCompiled.pattern;
}

/**
 * A secret written whole (nothing between its characters) or spelled: each character as itself or by its
 * key's name (`minus`), letters in either case (a key names a letter, `K` and `shift+k` alike). Between two
 * characters, separators other than the secret's own punctuation, so that a secret's `-` is never taken for
 * one and a match cannot try every split of a run of punctuation.
 */
function spelledPattern(secret: string): string {
  const characters = [...secret];
  const own = [...new Set(characters.filter((character) => !/[A-Za-z0-9]/.test(character)))].map(escapedInClass).join('');
  const separator = `(?:[^A-Za-z0-9${own}]|${SEPARATOR_WORDS.join('|')}){0,${MAX_SEPARATORS}}`;
  return characters.map(keyPattern).join(separator);
}

function keyPattern(character: string): string {
  const name = PUNCTUATION_KEY_NAMES.get(character);
  if (name !== undefined) return `(?:${escapedForPattern(character)}|${name})`;
  // Shift+minus types the underscore on a US layout.
  if (character === '_') return '(?:_|-|minus)';
  if (character === ' ') return '(?: |space)';
  return escapedForPattern(character);
}

function escapedForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function escapedInClass(character: string): string {
  return /[\\\][^-]/.test(character) ? `\\${character}` : character;
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

/**
 * Where a redactor finds secrets in a text: from the start of the first to the end of the last, in the
 * text's own positions; undefined when it finds none. The agent asks this of what several calls typed
 * together (agent/spelled-secrets.ts), to know which of them spelled a secret none of them holds whole.
 */
export function secretSpan(text: string, redact: Redact): { start: number; end: number } | undefined {
  const redacted = redact(text);
  if (redacted === text) return undefined;
  let same = 0;
  while (same < text.length && same < redacted.length && text[same] === redacted[same]) same += 1;
  // The first mask starts where the texts part, or a little before when the secret begins like the mask ("[").
  const found = redacted.lastIndexOf(REDACTED, same);
  const start = found === -1 ? same : found;
  let sameEnd = 0;
  while (sameEnd < text.length - start && sameEnd < redacted.length - start && text[text.length - 1 - sameEnd] === redacted[redacted.length - 1 - sameEnd]) sameEnd += 1;
  // Likewise the last mask ends where the texts part from the end, or a little after.
  const last = redacted.indexOf(REDACTED, Math.max(start, redacted.length - sameEnd - REDACTED.length));
  const after = last === -1 ? sameEnd : redacted.length - last - REDACTED.length;
  return { start, end: Math.max(start, text.length - after) };
}
