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
 *
 * Three more things are masked here, since every way out already passes through here:
 * - a URL's credentials (`https://user:password@host`), whoever wrote the URL (a flow's `goto:`, `--url`, a page
 *   that navigates): the password is a secret wherever it appears, and no list could name it in advance;
 * - the beginning of a secret that something cut before it was redacted (`sk-test-01234…`), and its end after a
 *   cut from the left: text is shortened in many places (a line, a title, an error), not all of which hold the
 *   redactor, and a cut key is still most of a key;
 * - the short secrets a flow or a script declares (4 or 5 characters: a PIN), whole and where they stand alone.
 */
import { SECRET_FIELD_PATHS, mcpSecretValues, type Config } from './config.js';
import { PUNCTUATION_KEY_NAMES } from './key-names.js';

export const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

/** Shorter strings could match ordinary text; no real key is this short. Spelled key by key from this length. */
const MIN_SECRET_LENGTH = 6;

/**
 * The shortest secret a flow or a script may declare (a 4-digit PIN is a real secret). Secrets from here up to
 * MIN_SECRET_LENGTH are masked only whole and standing alone (not inside a longer word or number, not spelled
 * key by key), so that `1234` does not mangle `12345` or `12:34`; shorter ones would mangle any text and are
 * refused where they are declared (declaredSecretProblem).
 */
export const MIN_DECLARED_SECRET_LENGTH = 4;

/**
 * Why a declared secret cannot be kept, or undefined when it can. Names the secret and the rule, never the
 * value: the message is printed.
 */
export function declaredSecretProblem(name: string, value: string): string | undefined {
  if (value.length >= MIN_DECLARED_SECRET_LENGTH) return undefined;
  return (
    `secret ${name} is shorter than ${MIN_DECLARED_SECRET_LENGTH} characters: a secret that short cannot be masked ` +
    `wherever it is echoed without mangling ordinary text; give it a value of at least ${MIN_DECLARED_SECRET_LENGTH} characters`
  );
}

/** How much of a cut secret must be left before (or after) the cut for it to be masked: less tells little. */
const MIN_CUT_PART = MIN_SECRET_LENGTH;

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

/**
 * Replaces every occurrence of each secret in a text, written whole or spelled key by key (in any case), and
 * what a cut left of one; secrets of 4 or 5 characters only whole and standing alone, shorter ones not at all.
 * Every URL's password is masked too, with or without secrets.
 */
export function redactorOf(secrets: readonly (string | undefined)[]): Redact {
  const known = [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_DECLARED_SECRET_LENGTH)
    .sort((first, second) => second.length - first.length);
  if (known.length === 0) return maskUrlCredentials;
  const occurrences = compiledOccurrences(known);
  return (text) => maskUrlCredentials(text).replace(occurrences, REDACTED);
}

/**
 * A text cut to at most `most` characters (an ellipsis marks the cut), redacted first: a secret is masked whole
 * before any cut could leave a part of it, and the mask counts for its own length, not the secret's.
 */
export function redactedCut(text: string, most: number, redact: Redact): string {
  const redacted = redact(text);
  return redacted.length > most ? `${redacted.slice(0, Math.max(0, most - 1))}…` : redacted;
}

/**
 * `scheme://user:password@host` → `scheme://user:[redacted]@host`, the user and the host left readable. A
 * userinfo without a password is a user's name, kept, unless it is as long as a token (`https://TOKEN@github.com`
 * is how tokens are often given). The userinfo runs to the authority's last `@`, as URL parsers read it, so a
 * password holding a raw `@` is masked whole. A password already masked (`***`, `[redacted]`) is left. Found from
 * each `://`, so a long text without URLs costs one scan.
 */
const URL_USERINFO = /:\/\/([^\s/?#"<>]*)@/g;
/** A URL cut inside its password (`https://user:pass…`): what is left after the colon is masked, a port too. */
const CUT_URL_USERINFO = /:\/\/([^\s/?#"<>@]*:[^\s/?#"<>@]*)(?=…|\.\.\.)/g;
const LONGEST_USER_NAME = 24;
const ALREADY_MASKED = /^(?:\*+|\[redacted\])$/;

export function maskUrlCredentials(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_USERINFO, maskedUserinfo).replace(CUT_URL_USERINFO, maskedUserinfo);
}

function maskedUserinfo(whole: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  if (colon === -1) return userinfo.length <= LONGEST_USER_NAME || ALREADY_MASKED.test(userinfo) ? whole : `://${REDACTED}@`;
  const password = userinfo.slice(colon + 1);
  const end = whole.endsWith('@') ? '@' : '';
  return password === '' || ALREADY_MASKED.test(password) ? whole : `://${userinfo.slice(0, colon)}:${REDACTED}${end}`;
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
  if (lastCompiled?.key !== key) {
    const long = secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH);
    const short = secrets.filter((secret) => secret.length < MIN_SECRET_LENGTH);
    // Whole secrets first, so that one followed by an ellipsis is masked whole, not taken for a cut one.
    const patterns = [...long.map(spelledPattern), ...short.map(standingAlonePattern), ...long.flatMap(cutPatterns)];
    lastCompiled = { key, pattern: new RegExp(patterns.join('|'), 'gi') };
  }
  return lastCompiled.pattern;
}

/** A short secret written whole, not part of a longer word or number. */
function standingAlonePattern(secret: string): string {
  return `(?<![A-Za-z0-9])${escapedForPattern(secret)}(?![A-Za-z0-9])`;
}

/** What an ellipsis-marked cut leaves of a secret: a beginning of it right before the mark, an end right after. */
const CUT_MARK = '(?:…|\\.\\.\\.)';

function cutPatterns(secret: string): string[] {
  const characters = [...secret].map(escapedForPattern);
  const last = characters.length - 1;
  // s0 … s5 (?:s6 (?:s7 …)?)?: at least MIN_CUT_PART characters of the beginning, the whole secret less one at most.
  let beginning = '';
  for (let index = last - 1; index >= MIN_CUT_PART; index -= 1) beginning = `(?:${characters[index]}${beginning})?`;
  beginning = `${characters.slice(0, MIN_CUT_PART).join('')}${beginning}(?=${CUT_MARK})`;
  // (?:(?:s1)? s2)? … and the last MIN_CUT_PART characters: an end of the secret, the whole less one at most.
  let end = '';
  for (let index = 1; index <= last - MIN_CUT_PART; index += 1) end = `(?:${end}${characters[index]})?`;
  end = `(?<=${CUT_MARK})${end}${characters.slice(characters.length - MIN_CUT_PART).join('')}`;
  return [beginning, end];
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
