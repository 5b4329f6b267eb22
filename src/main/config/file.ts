/** Reads `config.json`: a missing file means "all defaults"; unreadable or malformed text is a ConfigError. */
import { readFileSync } from 'node:fs';
import { ConfigError } from './errors.js';
import { parseJsonText } from './json-text.js';

/** The parsed JSON of the config file, or undefined when there is none. */
export function readConfigFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the home path is a file; there is no config in it, and doctor reports the home itself.
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new ConfigError(`cannot read ${file}: ${readFailure(code, error)}`, { file });
  }
  // Editors on Windows may save a byte-order mark, which JSON.parse rejects.
  const parsed = parseJsonText(text.replace(/^\uFEFF/, ''));
  if (!parsed.ok) {
    throw new ConfigError(
      `invalid JSON in ${file} at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}`,
      { file },
    );
  }
  return parsed.value;
}

function readFailure(code: string | undefined, error: unknown): string {
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  return error instanceof Error ? error.message : String(error);
}
