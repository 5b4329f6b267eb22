/**
 * The syntax of UI-TARS actions: Python-like calls with keyword arguments, `click(start_box='(10,20)')`,
 * several separated by blank lines. Read by hand, one character at a time, so a megabyte of junk costs a
 * linear scan and never a backtracking regular expression.
 *
 * Strings are read as UI-TARS's own parser (bytedance/UI-TARS codes/ui_tars/action_parser.py) lets the model
 * write them: `\'`, `\"`, `\n` and `\\` are escapes, and a quote is taken as the end of the string only when
 * the call can go on after it (`)` or `, name=`), because the model often leaves apostrophes in typed text
 * unescaped (`type(content='it's done')`).
 */

/** One action as written: its name, its keyword arguments (unescaped), and its text. */
export interface WrittenCall {
  name: string;
  arguments: ReadonlyMap<string, string>;
  text: string;
}

/** A call, or why the text at that point is not one; `end` is where reading goes on. */
export type CallRead = { ok: true; call: WrittenCall; end: number } | { ok: false; error: string; end: number };

/** Longest argument name looked at when deciding whether a quote ends a string. */
const LONGEST_ARGUMENT_NAME = 40;
/** How much of the text an error message quotes. */
const EXCERPT_LENGTH = 80;

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"' };

/** Reads the call that starts at `start`; on an error, reading goes on at the next blank line. */
export function readCall(source: string, start: number): CallRead {
  const failure = (error: string): CallRead => ({ ok: false, error, end: nextBlock(source, start) });
  const name = identifierAt(source, start);
  let position = skipSpaces(source, start + name.length);
  if (name === '' || source[position] !== '(') return failure(`expected an action such as click(...), found "${excerpt(source, start)}"`);
  position += 1;
  const values = new Map<string, string>();
  for (;;) {
    position = skipWhitespace(source, position);
    if (position >= source.length) return failure(`${name}(...) is cut off: it has no closing ")"`);
    if (source[position] === ')') break;
    const key = identifierAt(source, position);
    if (key === '') return failure(`${name}(...) holds "${excerpt(source, position)}" where an argument such as start_box='(x,y)' belongs`);
    position = skipWhitespace(source, position + key.length);
    if (source[position] !== '=') return failure(`the argument ${excerpt(key, 0)} of ${name}(...) has no "=": write ${excerpt(key, 0)}='...'`);
    position = skipWhitespace(source, position + 1);
    const value = source[position] === "'" || source[position] === '"' ? readQuoted(source, position) : readBare(source, position);
    if (value === undefined) return failure(`the ${key} of ${name}(...) is cut off: its closing quote is missing`);
    if (!values.has(key)) values.set(key, value.text);
    position = skipWhitespace(source, value.end);
    if (source[position] === ',') {
      position += 1;
      continue;
    }
    if (source[position] === ')') break;
    if (position >= source.length) return failure(`${name}(...) is cut off: it has no closing ")"`);
    return failure(`${name}(...) has "${excerpt(source, position)}" after ${key}=...: separate arguments with ","`);
  }
  const end = position + 1;
  return { ok: true, call: { name, arguments: values, text: source.slice(start, end) }, end };
}

/** A quoted string from its opening quote: its text unescaped and where it ends, or undefined when it never closes. */
function readQuoted(source: string, opening: number): { text: string; end: number } | undefined {
  const quote = source[opening];
  const pieces: string[] = [];
  let segment = opening + 1;
  for (let index = segment; index < source.length; index += 1) {
    const character = source[index]!;
    if (character === '\\' && index + 1 < source.length) {
      pieces.push(source.slice(segment, index));
      const escaped = source[index + 1]!;
      pieces.push(ESCAPES[escaped] ?? `\\${escaped}`);
      index += 1;
      segment = index + 1;
      continue;
    }
    if (character === quote && closesString(source, index + 1)) {
      pieces.push(source.slice(segment, index));
      return { text: pieces.join(''), end: index + 1 };
    }
  }
  return undefined;
}

/** An unquoted value (`direction=down`): up to the next `,`, `)` or line end. */
function readBare(source: string, start: number): { text: string; end: number } | undefined {
  let index = start;
  while (index < source.length && source[index] !== ',' && source[index] !== ')' && source[index] !== '\n') index += 1;
  if (index >= source.length) return undefined;
  return { text: source.slice(start, index).trim(), end: index };
}

/** Whether a quote just before `after` ends the string: the call goes on with `)` or `, name=` (or the text ends). */
function closesString(source: string, after: number): boolean {
  const next = skipWhitespace(source, after);
  if (next >= source.length || source[next] === ')') return true;
  if (source[next] !== ',') return false;
  const argument = skipWhitespace(source, next + 1);
  if (source[argument] === ')') return true;
  const name = identifierAt(source, argument, LONGEST_ARGUMENT_NAME);
  return name !== '' && source[skipWhitespace(source, argument + name.length)] === '=';
}

/** The identifier (letters, digits, `_`, not starting with a digit) at `start`, or ''. */
export function identifierAt(source: string, start: number, longest = Number.POSITIVE_INFINITY): string {
  let index = start;
  while (index < source.length && index - start < longest && isIdentifierCharacter(source.charCodeAt(index), index === start)) index += 1;
  return source.slice(start, index);
}

function isIdentifierCharacter(code: number, first: boolean): boolean {
  const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
  return letter || (!first && code >= 48 && code <= 57);
}

export function skipWhitespace(source: string, start: number): number {
  let index = start;
  while (index < source.length && /\s/.test(source[index]!)) index += 1;
  return index;
}

function skipSpaces(source: string, start: number): number {
  let index = start;
  while (source[index] === ' ' || source[index] === '\t') index += 1;
  return index;
}

/** Where the next block starts: after the next blank line, or the end of the text. */
function nextBlock(source: string, start: number): number {
  const blank = source.indexOf('\n\n', start + 1);
  return blank === -1 ? source.length : blank + 2;
}

/** A short piece of the text for a message, on one line. */
export function excerpt(source: string, start: number): string {
  const piece = source.slice(start, start + EXCERPT_LENGTH).replace(/\s+/g, ' ');
  return source.length - start > EXCERPT_LENGTH ? `${piece}…` : piece;
}
