/**
 * Text from a model, an MCP client, a web page or a file, made safe to print on a terminal. A session
 * title or a summary is the model's (or a client's) to choose: raw, `ESC ] 0;…` retitles the window,
 * `ESC [2J` clears the screen, OSC 52 writes the clipboard, and a carriage return overprints a line.
 * Every control character (C0 but line feed and tab, DEL, C1) and the bidirectional overrides that can
 * reorder what a line shows are shown escaped instead: the text stays readable and nothing it carries
 * reaches the terminal as a command. Escaped one character at a time, so a sequence split between two
 * writes is caught as surely as a whole one. JSON output never passes here: it must stay exact.
 */

// Matching control characters is the point of this pattern.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARACTER = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalText(text: string): string {
  return text.replace(UNSAFE_CHARACTER, escaped);
}

/**
 * One field of a line (a title in a listing, a queued job's flow name in a worker's log): line breaks and tabs are
 * shown escaped too, the Unicode line and paragraph separators with them, so the text cannot forge lines.
 */
export function terminalLine(text: string): string {
  return terminalText(text).replace(/[\n\t\u2028\u2029]/g, escaped);
}

function escaped(character: string): string {
  switch (character) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default: {
      const code = character.charCodeAt(0);
      return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    }
  }
}
