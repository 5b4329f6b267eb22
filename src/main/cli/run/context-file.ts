/**
 * `--context-file FILE --context-type TYPE`: a file's text sent to the model as ephemeral context with this
 * run's requests only (appended to the latest user message, never stored; see context/ephemeral-injection).
 * Everything about the file is checked before anything starts, and every problem names the flag.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  EPHEMERAL_CONTEXT_TYPES,
  MAX_EPHEMERAL_CONTEXT_LENGTH,
  type EphemeralContext,
  type EphemeralContextType,
} from '../../../shared/ephemeral.js';
import { EXIT, UserError } from '../io.js';

export const DEFAULT_CONTEXT_TYPE: EphemeralContextType = 'note';

/** The context the flags describe, or undefined when --context-file was not given. */
export function readContextFile(
  file: string | undefined,
  type: string | undefined,
  cwd: string,
): EphemeralContext | undefined {
  if (file === undefined) {
    if (type !== undefined) throw new UserError('--context-type: it describes --context-file; give the file too.', EXIT.usage);
    return undefined;
  }
  const contextType = checkContextType(type ?? DEFAULT_CONTEXT_TYPE);
  const path = resolve(cwd, file);
  const content = readText(path, file);
  if (content.trim() === '') throw new UserError(`--context-file: ${file} is empty.`, EXIT.usage);
  if (content.length > MAX_EPHEMERAL_CONTEXT_LENGTH) {
    throw new UserError(
      `--context-file: ${file} is too large (${content.length} characters; at most ${MAX_EPHEMERAL_CONTEXT_LENGTH}).`,
      EXIT.usage,
    );
  }
  return { type: contextType, content };
}

function checkContextType(type: string): EphemeralContextType {
  const known = EPHEMERAL_CONTEXT_TYPES.find((candidate) => candidate === type);
  if (known === undefined) {
    throw new UserError(`--context-type: expected one of ${EPHEMERAL_CONTEXT_TYPES.join(', ')}, got ${JSON.stringify(type)}.`, EXIT.usage);
  }
  return known;
}

function readText(path: string, typed: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a folder, not a file' : code === 'EACCES' ? 'permission denied' : 'cannot be read';
    throw new UserError(`--context-file: ${typed}: ${reason}.`, EXIT.usage);
  }
  // A byte size check first: a huge file is refused without decoding all of it.
  if (bytes.length > MAX_EPHEMERAL_CONTEXT_LENGTH * 4) {
    throw new UserError(`--context-file: ${typed} is too large (${bytes.length} bytes; at most ${MAX_EPHEMERAL_CONTEXT_LENGTH} characters).`, EXIT.usage);
  }
  if (bytes.includes(0)) throw new UserError(`--context-file: ${typed} is not a text file.`, EXIT.usage);
  return bytes.toString('utf8');
}
