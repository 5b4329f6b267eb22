/**
 * The home holds screenshots of the desktop, typed text and search reports: on a shared machine other
 * local users must not read it. On Unix every folder Sightline creates there is owner-only (0700) and
 * every file it writes 0600, set explicitly rather than left to the umask, and the files it owns (the
 * database with its -wal and -shm) are tightened when found looser. Windows keeps the profile's ACLs:
 * its mode bits say nothing about other users.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Which permission bits say that someone other than the owner may read, write or enter. */
const OTHERS_BITS = 0o077;

const modesApply = process.platform !== 'win32';

/** Creates a folder (and missing parents) readable by its owner only. An existing folder is left as it is. */
export function createPrivateFolder(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_FOLDER_MODE });
}

/**
 * Narrows an existing file or folder of Sightline's to its owner. Absent is fine (a -wal that was never
 * created); so is a file another user owns, which only its owner may change: `doctor` reports the home.
 */
export function restrictToOwner(path: string, mode: number): void {
  if (!modesApply) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

/**
 * The mode of a folder that other users may read or enter, or undefined when only its owner can (or it
 * does not exist, or the platform has no such modes).
 */
export function modeOpenToOthers(path: string): number | undefined {
  if (!modesApply) return undefined;
  try {
    const mode = statSync(path).mode & 0o777;
    return (mode & OTHERS_BITS) === 0 ? undefined : mode;
  } catch {
    return undefined;
  }
}
