/**
 * One flow file read and parsed, with what every later check needs to point at a place in it. Reading is
 * where hostile files are stopped: a directory, a FIFO (reading one would hang), a file too big to be a flow,
 * bytes that are not UTF-8, nesting deep enough to exhaust the YAML parser's stack (it crashes the process
 * rather than failing), and anchors and aliases that expand without bound ("billion laughs"). Each becomes a
 * problem with a line and a column; nothing here throws for a bad file.
 */
import { readFileSync, statSync } from 'node:fs';
import { LineCounter, parseDocument, type Document, type Node, type YAMLError } from 'yaml';
import { terminalLine } from '../../shared/terminal-text.js';
import type { SourceAt } from './flow-model.js';

export interface FlowFileProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

/** A flow is a page of steps; a megabyte is thousands of them, and anything bigger is not a flow. */
export const MAX_FLOW_FILE_BYTES = 1024 * 1024;
/** Deeper nesting than this is not a flow anyone wrote; the YAML parser's recursion fails at a few hundred. */
const MAX_BRACKET_DEPTH = 100;
const MAX_INDENT = 200;
/** The yaml package's own guard against alias expansion, at its default. */
const MAX_ALIAS_COUNT = 100;
/**
 * The YAML parser's errors after the first often follow from it (one missing bracket gives one per line that
 * follows), so a few on distinct lines are shown and the rest counted.
 */
const MAX_SYNTAX_PROBLEMS = 5;

export class FlowSource {
  readonly problems: FlowFileProblem[] = [];

  constructor(
    readonly file: string,
    readonly text: string,
    readonly lineCounter: LineCounter,
    /** Undefined when the file could not be read or parsed: there is nothing more to check. */
    public document: Document.Parsed | undefined,
  ) {}

  /** Where an offset of the text stands, 1-based. */
  atOffset(offset: number): SourceAt {
    const { line, col } = this.lineCounter.linePos(Math.max(0, Math.min(offset, this.text.length)));
    return { file: this.file, line, column: col };
  }

  at(node: Node | undefined | null): SourceAt {
    return this.atOffset(node?.range?.[0] ?? 0);
  }

  problemAt(at: SourceAt, message: string): void {
    this.problems.push({ file: this.file, line: at.line, column: at.column, message: terminalLine(message) });
  }

  problem(node: Node | undefined | null, message: string): void {
    this.problemAt(this.at(node), message);
  }
}

/** Reads and parses a flow file; its problems so far are on the result (the document is undefined if it cannot be read). */
export function readFlowSource(file: string): FlowSource {
  const failed = (message: string, offset = 0, text = '') => {
    const source = new FlowSource(file, text, lineCounterOf(text), undefined);
    source.problemAt(source.atOffset(offset), message);
    return source;
  };
  let bytes: Buffer;
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) return failed('is a directory; expected a flow file (.yaml)');
    if (!stats.isFile()) return failed('is not a regular file; expected a flow file (.yaml)');
    if (stats.size > MAX_FLOW_FILE_BYTES) return failed(`is ${megabytes(stats.size)}; a flow file may be at most ${megabytes(MAX_FLOW_FILE_BYTES)}`);
    bytes = readFileSync(file);
  } catch (error) {
    return failed(readError(error));
  }
  if (bytes.length > MAX_FLOW_FILE_BYTES) return failed(`is ${megabytes(bytes.length)}; a flow file may be at most ${megabytes(MAX_FLOW_FILE_BYTES)}`);
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok) return failed(decoded.message, decoded.offset, decoded.prefix);
  const text = decoded.text;
  const tooDeep = nestingProblem(text);
  if (tooDeep !== undefined) return failed(tooDeep.message, tooDeep.offset, text);

  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: true, uniqueKeys: true });
  const source = new FlowSource(file, text, lineCounter, document);
  reportSyntax(source, [...document.errors, ...document.warnings]);
  if (document.errors.length > 0) {
    source.document = undefined;
    return source;
  }
  try {
    document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    source.problemAt(source.atOffset(0), `YAML: its anchors and aliases expand too far (${firstLine(error instanceof Error ? error.message : String(error))})`);
    source.document = undefined;
  }
  return source;
}

function reportSyntax(source: FlowSource, errors: readonly YAMLError[]): void {
  const lines = new Set<number>();
  let hinted = false;
  let hidden = 0;
  const explained = new Set<number>();
  // The end of the last line that has text: after the final newline is a line the file does not have.
  const lastLine = source.atOffset(source.text.trimEnd().length);
  for (const error of errors) {
    // The parser reports a key indented too far as a fault of the line above it, in its own terms, and twice:
    // said once, in words, at the line that causes it.
    const cause = INDENTATION_CODES.has(error.code) ? indentationCause(source.text, error.pos[0]) : error.code === 'MISSING_CHAR' ? unclosedQuote(source.text, error) : undefined;
    if (cause !== undefined && explained.has(cause.offset)) continue;
    const position = error.linePos?.[0];
    const reported =
      cause !== undefined ? source.atOffset(cause.offset) : position === undefined ? source.atOffset(error.pos[0]) : { file: source.file, line: position.line, column: position.col };
    // An error found at the end of the text (a bracket never closed) is said on the last line that has text.
    const at = reported.line > lastLine.line ? lastLine : reported;
    if (lines.has(at.line) || lines.size >= MAX_SYNTAX_PROBLEMS) {
      hidden += 1;
      continue;
    }
    lines.add(at.line);
    if (cause !== undefined) {
      explained.add(cause.offset);
      source.problemAt(at, cause.message);
      continue;
    }
    let message = `YAML: ${firstLine(error.message)}`;
    // `[ { do: Open ${item.name} } ]`: inside brackets or braces, the braces of ${…} are YAML's own.
    const lineText = source.text.split('\n')[at.line - 1] ?? '';
    const reference = lineText.indexOf('${');
    if (!hinted && reference > 0 && /[[{]/.test(lineText.slice(0, reference))) {
      message += ' (a text with ${…} inside [ … ] or { … } must be quoted: "Open ${item.name}")';
      hinted = true;
    }
    source.problemAt(at, message);
  }
  if (hidden > 0) source.problemAt(lastLine, `YAML: ${hidden} more ${hidden === 1 ? 'error' : 'errors'}, which may follow from those above`);
}

/** A quote never closed is found at the end of the text; its cause is where it opened. */
function unclosedQuote(text: string, error: YAMLError): { offset: number; message: string } | undefined {
  const quote = /Missing closing (["'])quote/.exec(error.message)?.[1];
  if (quote === undefined) return undefined;
  const opened = text.lastIndexOf(quote, error.pos[0] - 1);
  if (opened === -1) return undefined;
  return { offset: opened, message: `YAML: this ${quote} opens a text that is never closed; end the text with ${quote}` };
}

/** The parser's codes for a key that sits deeper than the value-bearing key above it. */
const INDENTATION_CODES = new Set(['BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'BAD_INDENT']);
const KEY_LINE = /^(\s*(?:-\s+)*)([^\s#:'"{[-][^#:]*?):(?:\s|$)/;

/**
 * `- extract: the total` followed by `    as: total` indented deeper: the first line below the error's line that
 * holds a key indented more than that line's key, and the words for it. Undefined when no such line explains it.
 */
function indentationCause(text: string, offset: number): { offset: number; message: string } | undefined {
  const lineStart = text.lastIndexOf('\n', Math.max(0, offset - 1)) + 1;
  const lines = text.slice(lineStart).split('\n');
  const above = KEY_LINE.exec(lines[0] ?? '');
  if (above === null) return undefined;
  const keyColumn = above[1]!.length;
  let start = lineStart + (lines[0]?.length ?? 0) + 1;
  for (const line of lines.slice(1)) {
    const content = line.trim();
    if (content !== '' && !content.startsWith('#')) {
      const key = KEY_LINE.exec(line);
      const indent = line.length - line.trimStart().length;
      if (key === null || indent <= keyColumn) return undefined;
      const lineNumber = text.slice(0, lineStart).split('\n').length;
      return {
        offset: start + key[1]!.length,
        message: `indentation: \`${key[2]}:\` is indented more than the key above it (\`${above[2]}:\` on line ${lineNumber}); line it up with \`${above[2]}:\``,
      };
    }
    start += line.length + 1;
  }
  return undefined;
}

function lineCounterOf(text: string): LineCounter {
  const counter = new LineCounter();
  counter.addNewLine(0);
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) counter.addNewLine(index + 1);
  return counter;
}

/** The yaml package appends "at line L, column C:" and a code frame; the position is reported on its own. */
function firstLine(message: string): string {
  return (message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function readError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read: permission denied';
  if (code === 'EISDIR') return 'is a directory; expected a flow file (.yaml)';
  return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

type Decoded = { ok: true; text: string } | { ok: false; message: string; offset: number; prefix: string };

function decodeUtf8(bytes: Buffer): Decoded {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, message: 'is UTF-16 text; save it as UTF-8', offset: 0, prefix: '' };
  }
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(body) };
  } catch {
    const bad = firstInvalidUtf8(body);
    // The text before the bad byte is valid, so its characters give the line and column.
    const prefix = new TextDecoder('utf-8').decode(body.subarray(0, bad));
    return { ok: false, message: `is not UTF-8 text (byte 0x${(body[bad] ?? 0).toString(16).padStart(2, '0')}); save it as UTF-8`, offset: prefix.length, prefix };
  }
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] ?? 0;
    const length = lead < 0x80 ? 1 : lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0) return index;
    for (let next = 1; next < length; next++) {
      const byte = bytes[index + next];
      if (byte === undefined || (byte & 0xc0) !== 0x80) return index;
    }
    const second = bytes[index + 1] ?? 0;
    // Overlong forms, surrogates and code points above U+10FFFF, as the decoder refuses them.
    if ((lead === 0xe0 && second < 0xa0) || (lead === 0xed && second > 0x9f) || (lead === 0xf0 && second < 0x90) || (lead === 0xf4 && second > 0x8f)) return index;
    index += length;
  }
  return bytes.length;
}

/**
 * Flow brackets counted without regard to quotes (a flow file has no reason for a hundred unclosed brackets,
 * quoted or not), and indentation including compact `- - -` sequences, which nest on one line.
 */
function nestingProblem(text: string): { message: string; offset: number } | undefined {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '[' || character === '{') {
      depth += 1;
      if (depth > MAX_BRACKET_DEPTH) return { message: `is nested more than ${MAX_BRACKET_DEPTH} brackets deep`, offset: index };
    } else if ((character === ']' || character === '}') && depth > 0) {
      depth -= 1;
    }
  }
  let lineStart = 0;
  while (lineStart < text.length) {
    const indent = /^(?: |-(?= ))*/.exec(text.slice(lineStart, lineStart + MAX_INDENT + 2))?.[0].length ?? 0;
    if (indent > MAX_INDENT) return { message: `is indented or nested more than ${MAX_INDENT} columns deep`, offset: lineStart };
    const next = text.indexOf('\n', lineStart);
    if (next === -1) break;
    lineStart = next + 1;
  }
  return undefined;
}
