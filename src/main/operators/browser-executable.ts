/**
 * Which Chromium or Chrome the browser operator drives. Sightline downloads no browser of its own: it uses
 * the one installed on the system, named by SIGHTLINE_BROWSER_PATH or found in the usual places.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const BROWSER_PATH_VARIABLE = 'SIGHTLINE_BROWSER_PATH';

export interface BrowserSearch {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  exists?: (path: string) => boolean;
}

/** No usable browser; the message is fit to show a user as is, and says in one sentence what `problem` and `fix` say apart. */
export class BrowserNotFoundError extends Error {
  constructor(
    message: string,
    /** What is wrong: "no Chromium or Chrome found (looked for …)". */
    readonly problem: string,
    /** What the user can do about it. */
    readonly fix: string,
  ) {
    super(message);
    this.name = 'BrowserNotFoundError';
  }
}

/** The browser to launch: an explicit path (option, then environment) must exist; otherwise the first found. */
export function findBrowserExecutable(search: BrowserSearch, explicitPath?: string): string {
  const exists = search.exists ?? existsSync;
  const chosen = explicitPath ?? search.env[BROWSER_PATH_VARIABLE];
  if (chosen) {
    if (exists(chosen)) return chosen;
    const source = explicitPath ? 'the browser path given' : BROWSER_PATH_VARIABLE;
    const problem = `no browser at ${chosen} (${source})`;
    throw new BrowserNotFoundError(`${problem}: point it at a Chromium or Chrome executable`, problem, `point ${source} at a Chromium or Chrome executable`);
  }
  const candidates = candidatePaths(search.env, search.platform);
  const found = candidates.find((path) => exists(path));
  if (found) return found;
  const problem = `no Chromium or Chrome found (looked for ${candidates.join(', ')})`;
  const fix = `install one (e.g. apt-get install chromium) or set ${BROWSER_PATH_VARIABLE} to its executable`;
  throw new BrowserNotFoundError(`${problem}. ${capitalized(fix)}.`, problem, fix);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function candidatePaths(env: Record<string, string | undefined>, platform: NodeJS.Platform): string[] {
  switch (platform) {
    case 'darwin':
      return [
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        ...(env.HOME ? [join(env.HOME, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome')] : []),
      ];
    case 'win32': {
      const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => Boolean(root));
      // Edge is Chromium and present on every Windows 10/11, so it is the last resort there.
      return [
        ...roots.map((root) => `${root}\\Google\\Chrome\\Application\\chrome.exe`),
        ...roots.map((root) => `${root}\\Microsoft\\Edge\\Application\\msedge.exe`),
      ];
    }
    default:
      return [
        '/usr/bin/chromium',
        '/usr/bin/chromium-browser',
        '/usr/bin/google-chrome',
        '/usr/bin/google-chrome-stable',
        '/snap/bin/chromium',
      ];
  }
}
