/**
 * The one check of a system package a test needs (Xvfb, Chromium, Redis, PostgreSQL, …). Missing on a
 * developer's machine: the test is skipped, with one line naming the package to install. Missing under
 * `CI=true`: the test file fails, since CI installs every package (.ci/run) and a skip there would hide a gap.
 *
 *   describe.skipIf(!hasSystemPackage('redis-server', existsSync(REDIS_SERVER)))('…', () => …)
 *
 * docs/development.md lists the packages and what needs each.
 */
import { spawnSync } from 'node:child_process';

const announced = new Set<string>();

/** Whether `present` holds for the Debian package `name`; says so once per test file when it does not. */
export function hasSystemPackage(name: string, present: boolean): boolean {
  if (present) return true;
  if (process.env['CI'] === 'true') {
    throw new Error(`this test needs the system package ${name}, which is not installed; CI must install it (.ci/run, docs/development.md)`);
  }
  if (!announced.has(name)) {
    announced.add(name);
    console.warn(`skipped: needs the system package ${name} (not installed; see docs/development.md)`);
  }
  return false;
}

/** Whether a command is on the PATH. */
export function commandExists(command: string): boolean {
  return spawnSync('which', [command], { stdio: 'ignore' }).status === 0;
}
