/**
 * Files a command writes (flow reports, session reports, animations): checked before any work starts (the
 * folder must exist, the path must not be a folder), and written whole or not at all.
 */
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EXIT, UserError } from './io.js';

/** Read and write for everyone, less what the umask takes away (the mode `touch` and shells give). */
const ASKED_FOR_FILE_MODE = 0o666;

/** The absolute path of an output file named by `flag`; refused (exit 2) when it cannot be written there. */
export function outputFile(flag: string, file: string | undefined, cwd: string): string | undefined {
  if (file === undefined) return undefined;
  const path = resolve(cwd, file);
  const folder = dirname(path);
  if (!isFolder(folder)) throw new UserError(`${flag}: the folder ${folder} does not exist.`, EXIT.usage);
  if (isFolder(path)) throw new UserError(`${flag}: ${path} is a folder; give a file name.`, EXIT.usage);
  return path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Written whole or not at all: a temporary file beside it, then renamed over it. A folder that refuses the
 * file (permissions, a full disk) is the user's to fix: exit 2 with the system's reason.
 *
 * The file is one the person asked for, in a folder they chose (a CI workspace, often read by an agent running
 * as another user), so its mode follows their umask like any file a tool writes: 0644 under the usual 022. What
 * Sightline keeps for itself stays private in the home (storage/private-files.ts).
 */
export function writeOutputFile(flag: string, path: string, content: string | Uint8Array): void {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, content, { mode: ASKED_FOR_FILE_MODE });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    const reason = error instanceof Error && 'code' in error ? `${String(error.code)}: ${error.message}` : String(error);
    throw new UserError(`${flag}: could not write ${path} (${reason}).`, EXIT.usage);
  }
}
