/**
 * Where the CLI's human output is made safe for a terminal (see shared/terminal-text.ts): stderr always,
 * stdout unless it carries JSON (`--json`, the MCP protocol), which must stay byte for byte what it is.
 */
import { terminalText } from '../../shared/terminal-text.js';

export type Writer = (text: string) => void;

export function terminalWriter(write: Writer): Writer {
  return (text) => write(terminalText(text));
}

/** stdout for a command with a `--json` flag: exact with it, made terminal-safe without. */
export function commandOutput(write: Writer, json: boolean | undefined): Writer {
  return json === true ? write : terminalWriter(write);
}
