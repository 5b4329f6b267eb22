/**
 * An existing home that other local users can read: Sightline does not change a folder the user made
 * (they may share it on purpose), it says so, in `doctor` and at the start of `run`, with the command
 * that closes it.
 */
import { modeOpenToOthers } from '../storage/index.js';

export interface HomePrivacyProblem {
  detail: string;
  fix: string;
}

export function homePrivacyProblem(root: string): HomePrivacyProblem | undefined {
  const mode = modeOpenToOthers(root);
  if (mode === undefined) return undefined;
  return {
    detail: `${root} is open to other users (mode ${mode.toString(8)}): they can read its screenshots and typed text`,
    fix: `chmod 700 ${shellQuoted(root)}`,
  };
}

/** The one-line form `run` prints on stderr. */
export function homePrivacyWarning(root: string): string | undefined {
  const problem = homePrivacyProblem(root);
  return problem === undefined ? undefined : `warning: ${problem.detail}; fix: ${problem.fix}`;
}

function shellQuoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
