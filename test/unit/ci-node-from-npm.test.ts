/**
 * `.ci/node-from-npm`, which gives CI its Node 24 and 26 where the machine's Node is older: only the npm
 * registry's binary package for the platform is asked for, with no install script, into the cache folder; a
 * second call reuses it; a package without headers (node-gyp would then fetch them from nodejs.org) is refused.
 * npm and the machine's node are played by scripts on PATH, so no registry is reached.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const script = resolve(import.meta.dirname, '../../.ci/node-from-npm');
const expectedPackage = `node-${platform()}-${arch()}`;

let folder: string;
let fakeBin: string;
let cache: string;

/** A fake npm: records its arguments and lays out what the platform package holds (bin/node, include/node). */
function writeFakeNpm(options: { headers: boolean }): void {
  const headers = options.headers ? 'mkdir -p "$pkg/include/node" && touch "$pkg/include/node/node.h"' : ':';
  writeFileSync(
    join(fakeBin, 'npm'),
    `#!/usr/bin/env bash
echo "$*" >> "${join(folder, 'npm-calls')}"
prefix="" ; spec=""
while [ $# -gt 0 ]; do case "$1" in --prefix) prefix="$2"; shift 2 ;; --*) shift ;; *) spec="$1"; shift ;; esac; done
name="\${spec%@*}" ; version="\${spec##*@}"
pkg="$prefix/node_modules/$name"
mkdir -p "$pkg/bin"
printf '#!/bin/sh\\necho v%s\\n' "$version" > "$pkg/bin/node" && chmod +x "$pkg/bin/node"
${headers}
`,
  );
  chmodSync(join(fakeBin, 'npm'), 0o755);
}

function runScript(...args: string[]): ReturnType<typeof spawnSync> {
  return spawnSync('bash', [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${fakeBin}:/usr/bin:/bin`, SIGHTLINE_NODE_CACHE: cache },
  });
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'node-from-npm-'));
  fakeBin = join(folder, 'bin');
  cache = join(folder, 'cache');
  execFileSync('mkdir', ['-p', fakeBin]);
  // The machine's own Node is older, as on the CI machine (Debian's Node 20).
  writeFileSync(join(fakeBin, 'node'), '#!/bin/sh\necho v20.20.2\n');
  chmodSync(join(fakeBin, 'node'), 0o755);
});

afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe.runIf(platform() === 'linux')('.ci/node-from-npm', () => {
  it('installs the platform package alone, without install scripts, into the cache, and prints its folder', () => {
    writeFakeNpm({ headers: true });
    const result = runScript('24.22.3');
    expect(result.status, String(result.stderr)).toBe(0);
    const printed = String(result.stdout).trim();
    expect(printed).toBe(join(cache, `${expectedPackage}-24.22.3`, 'node_modules', expectedPackage));
    expect(execFileSync(join(printed, 'bin', 'node'), { encoding: 'utf8' }).trim()).toBe('v24.22.3');
    const calls = readFileSync(join(folder, 'npm-calls'), 'utf8').trim().split('\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain('--ignore-scripts');
    expect(calls[0]).toMatch(new RegExp(`(^| )install .* ${expectedPackage}@24\\.22\\.3$`));
  });

  it('reuses the cached install: npm is not asked a second time', () => {
    writeFakeNpm({ headers: true });
    const first = runScript('26.12.1');
    const second = runScript('26.12.1');
    expect(second.status).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(join(folder, 'npm-calls'), 'utf8').trim().split('\n')).toHaveLength(1);
  });

  it('refuses a package without headers and leaves nothing in the cache to be taken for an install', () => {
    writeFakeNpm({ headers: false });
    const result = runScript('24.22.3');
    expect(result.status).toBe(1);
    expect(String(result.stderr)).toContain('did not install a node 24.22.3 with its headers');
    expect(existsSync(join(cache, `${expectedPackage}-24.22.3`))).toBe(false);
  });

  it('takes no version it cannot pin', () => {
    writeFakeNpm({ headers: true });
    const result = runScript('24');
    expect(result.status).toBe(2);
    expect(String(result.stderr)).toContain('usage: .ci/node-from-npm <major.minor.patch>');
    expect(existsSync(join(folder, 'npm-calls'))).toBe(false);
  });
});
