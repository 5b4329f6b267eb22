/**
 * Whether Sightline can write its home folder, or create it, and whether other users can read it;
 * nothing is created or changed here.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { homePrivacyProblem } from '../home-privacy.js';
import type { DoctorCheckResult, DoctorEnvironment } from './check.js';
import { nearestExistingFolder } from './paths.js';

export function checkHomeFolder(environment: DoctorEnvironment): DoctorCheckResult {
  const root = environment.home.root;
  const name = 'home';
  const existing = nearestExistingFolder(root);
  if (existing === undefined) {
    return { name, status: 'problem', detail: `${root}: no part of this path exists`, fix: 'choose another folder with --home or SIGHTLINE_HOME' };
  }
  if (existing.path === root && !existing.isFolder) {
    return { name, status: 'problem', detail: `${root} exists but is not a folder`, fix: 'move that file aside, or choose another folder with --home' };
  }
  if (!existing.isFolder) {
    return { name, status: 'problem', detail: `${root} cannot be created: ${existing.path} is a file`, fix: 'choose another folder with --home or SIGHTLINE_HOME' };
  }
  if (!isWritable(existing.path)) {
    const fix = `make ${existing.path} writable (chmod u+w ${existing.path}), or choose another folder with --home`;
    const detail = existing.path === root ? `${root} is not writable` : `${root} cannot be created: ${existing.path} is not writable`;
    return { name, status: 'problem', detail, fix };
  }
  if (existing.path !== root) return { name, status: 'ok', detail: `${root} does not exist yet; will be created` };
  const privacy = homePrivacyProblem(root);
  if (privacy !== undefined) return { name, status: 'warning', ...privacy };
  return { name, status: 'ok', detail: `${root} is writable` };
}

function isWritable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
    return statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
