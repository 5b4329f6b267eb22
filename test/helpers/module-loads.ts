/**
 * Which packages a Node process loads, seen from inside it: a module hook (Node's `module.register`) notes every
 * ES module the process resolves, and at exit the CommonJS cache adds what was required. The process is started
 * with `--import` of a preload that installs both; nothing of the program under test changes.
 *
 *   const run = await packagesLoaded(process.execPath, [builtCli(), '--help'], { cwd });
 *   expect(run.packages).not.toContain('sharp');
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProcess, type ProcessResult } from './child-process.js';

const LOG_VARIABLE = 'SIGHTLINE_TEST_MODULE_LOG';

// Runs on the loader's own thread: it sees each specifier resolved, from ES modules and the bundle's chunks alike.
const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, resolved.url + '\\n');
  return resolved;
}
`;

// Runs before the program: installs the hooks, and at exit writes the CommonJS modules the program required.
const PRELOAD = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const log = process.env.${LOG_VARIABLE};
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { log } });
// The CommonJS cache is one per process, whichever file's require reads it.
const cache = createRequire(process.cwd() + '/').cache;
process.on('exit', () => appendFileSync(log, Object.keys(cache).join('\\n') + '\\n'));
`;

export interface LoadedPackages extends ProcessResult {
  /** Every package loaded, by name (`@aws-sdk/client-s3`, `sharp`), sorted. */
  packages: string[];
}

export async function packagesLoaded(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string | undefined> },
): Promise<LoadedPackages> {
  const folder = mkdtempSync(join(tmpdir(), 'sightline-module-loads-'));
  const log = join(folder, 'loads.txt');
  try {
    const preload = `data:text/javascript,${encodeURIComponent(PRELOAD)}`;
    const result = await runProcess(command, ['--import', preload, ...args], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), [LOG_VARIABLE]: log },
    });
    const shown = result.output.replace(preload, '<module-load recorder>');
    if (!existsSync(log)) throw new Error(`the process wrote no record of its modules:\n${shown}`);
    return { ...result, output: shown, packages: packageNames(readFileSync(log, 'utf8')) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `…/node_modules/@scope/name/…` and `…/node_modules/name/…` as `@scope/name` and `name`; the innermost counts. */
function packageNames(log: string): string[] {
  const names = new Set<string>();
  for (const line of log.split('\n')) {
    const path = decodeURIComponent(line);
    const at = path.lastIndexOf('/node_modules/');
    if (at === -1) continue;
    const [first, second] = path.slice(at + '/node_modules/'.length).split('/');
    if (first === undefined || first === '') continue;
    names.add(first.startsWith('@') && second !== undefined ? `${first}/${second}` : first);
  }
  return [...names].sort();
}
