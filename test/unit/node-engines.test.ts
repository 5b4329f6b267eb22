/**
 * The supported Node versions (docs/decisions/0091-node-floor-and-ci-nodes.md, issue 37 part 2): package.json's
 * `engines.node` is the floor, chosen from what the installed packages declare. Read from package-lock.json, which
 * records each package's `engines`, so a dependency that raises its own floor fails here rather than as an npm
 * warning at a consumer's install. CI runs on Node 24 and 26 (.ci/run), so every package, the tools included, must
 * accept both.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(resolve(root, 'package.json'));
// semver comes with npm's own tooling in node_modules; it has no types of its own, so this is the part used.
const semver = require('semver') as {
  minVersion: (range: string) => { version: string } | null;
  satisfies: (version: string, range: string) => boolean;
};

interface LockedPackage {
  dev?: boolean;
  cpu?: string[];
  engines?: { node?: string } | string[];
}
const packageJson = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };

/** Every locked package's `engines.node`, with whether it ships to a consumer (not a dev dependency). */
function declaredRanges(): { name: string; range: string; shipped: boolean }[] {
  return Object.entries(lock.packages).flatMap(([path, locked]) => {
    // Builds for 32-bit x86 only (sharp's win32-ia32, `^20.9.0`) never install on a supported Node: Node 23
    // dropped its 32-bit Windows build.
    const x86Only = locked.cpu?.length === 1 && locked.cpu[0] === 'ia32';
    const range = !path || x86Only || Array.isArray(locked.engines) ? undefined : locked.engines?.node;
    return range ? [{ name: path.replace(/^.*node_modules\//, ''), range, shipped: locked.dev !== true }] : [];
  });
}

function refusing(version: string, shippedOnly: boolean): string[] {
  return declaredRanges()
    .filter(({ shipped }) => shipped || !shippedOnly)
    .filter(({ range }) => !semver.satisfies(version, range))
    .map(({ name, range }) => `${name} (${range})`);
}

describe('engines.node', () => {
  const floor = semver.minVersion(packageJson.engines.node)?.version ?? '';

  it('is 22.12 or later: Node 20 is past its end of life and @google/genai needs 22', () => {
    expect(semver.satisfies('20.19.0', packageJson.engines.node)).toBe(false);
    expect(semver.satisfies(floor, '>=22.12.0')).toBe(true);
  });

  it('is a floor every package a consumer installs accepts, at each supported LTS line', () => {
    for (const version of [floor, '24.0.0', '26.0.0']) {
      expect(semver.satisfies(version, packageJson.engines.node), version).toBe(true);
      expect(refusing(version, true), `packages refusing Node ${version}`).toEqual([]);
    }
  });

  it("admits the Nodes CI runs on, which every package, the tools' too, accepts", () => {
    const ci = readFileSync(resolve(root, '.ci/run'), 'utf8');
    const versions = [...ci.matchAll(/^node_(?:suite|unit)=(\d+\.\d+\.\d+)$/gm)].map((match) => match[1] ?? '');
    expect(versions.map((version) => semver.minVersion(`^${version}`)?.version.split('.')[0])).toEqual(['24', '26']);
    for (const version of versions) {
      expect(semver.satisfies(version, packageJson.engines.node), version).toBe(true);
      expect(refusing(version, false), `packages refusing Node ${version}`).toEqual([]);
    }
  });

  it('is the range the README states', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    expect(readme).toContain(`Node.js ${floor.replace(/\.0$/, '')} or later`);
  });
});
