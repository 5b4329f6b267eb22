/**
 * JSON parsing that reports where a syntax error is, as line and column, without quoting the text.
 * V8's own messages either give an offset ("… in JSON at position 17") or quote the whole input
 * ("Unexpected token 'x', "{…}" is not valid JSON"); the quoted form would leak secrets from config.json
 * into an error message and gives no position, so both are reduced to a short reason plus a location.
 */

export type JsonParseResult =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; line: number; column: number };

export function parseJsonText(text: string): JsonParseResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const { reason, offset } = describeSyntaxError(text, message);
    return { ok: false, reason, ...lineAndColumn(text, offset) };
  }
}

function describeSyntaxError(text: string, message: string): { reason: string; offset: number } {
  const positioned = /^(.*) in JSON at position (\d+)/.exec(message);
  if (positioned?.[1] !== undefined && positioned[2] !== undefined) {
    return { reason: lowerFirst(positioned[1]), offset: Number(positioned[2]) };
  }
  const unexpectedToken = /^Unexpected token '(.+?)', /s.exec(message);
  if (unexpectedToken?.[1] !== undefined) {
    const reason = `unexpected token '${unexpectedToken[1]}'`;
    return { reason, offset: offsetOfFirstFailure(text, (prefixMessage) => prefixMessage.startsWith(message.slice(0, unexpectedToken[0].length))) };
  }
  if (message.startsWith('Unexpected end of JSON input')) {
    return { reason: 'unexpected end of input', offset: text.length };
  }
  return { reason: 'invalid JSON', offset: 0 };
}

/**
 * The offset of the character V8 rejected, for messages that do not say. The parser reads left to
 * right, so a prefix of the text fails with the same message exactly when it includes that character:
 * the shortest such prefix is found by bisection.
 */
function offsetOfFirstFailure(text: string, sameFailure: (prefixMessage: string) => boolean): number {
  let low = 1;
  let high = text.length;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (sameFailure(parseMessage(text.slice(0, middle)))) high = middle;
    else low = middle + 1;
  }
  return high - 1;
}

function parseMessage(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Lines and columns count from 1, as editors show them. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 };
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
