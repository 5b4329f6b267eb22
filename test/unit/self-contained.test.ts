/**
 * A clone of this repository must work on its own: nothing it tracks may reach a folder beside it (the
 * workspace's `shared/` once held the frame fixtures and ARCHITECTURE.md), and every relative link of the
 * docs must land on a tracked file. A path that climbs out of the repository works only on the machine
 * where the sibling folder happens to exist.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
/** Names that exist only in the workspace's sibling folder, never in src/shared. */
const SIBLING_ONLY_NAMES = ['fixtures', 'ARCHITECTURE', 'hooks'];

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '' && !file.startsWith('node_modules/'));
}

function isOutsideRoot(path: string): boolean {
  const fromRoot = relative(ROOT, path);
  return fromRoot.startsWith('..') || isAbsolute(fromRoot);
}

/** Each `../…/shared` of a file's text that resolves outside the repository, or names the sibling's contents. */
function referencesOutside(file: string, text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/((?:\.\.\/)+)shared(?:\/([\w.-]+))?/g)) {
    const [reference, climb, firstName] = match;
    const target = resolve(ROOT, dirname(file), climb!, 'shared');
    const namesSibling = firstName !== undefined && SIBLING_ONLY_NAMES.some((name) => firstName.startsWith(name));
    if (isOutsideRoot(target) || namesSibling) found.push(reference);
  }
  return found;
}

/** Each relative Markdown link of a file that does not land on a tracked file. */
function brokenLinks(file: string, text: string, tracked: ReadonlySet<string>): string[] {
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    const path = relative(ROOT, resolve(ROOT, dirname(file), target.split('#')[0]!));
    const isTrackedFolder = [...tracked].some((candidate) => candidate.startsWith(`${path}/`));
    if (!tracked.has(path) && !isTrackedFolder) broken.push(target);
  }
  return broken;
}

function textOf(file: string): string | undefined {
  const bytes = readFileSync(join(ROOT, file));
  return bytes.includes(0) ? undefined : bytes.toString('utf8');
}

describe('the repository is self-contained', () => {
  const files = trackedFiles();

  it('has no tracked file that reads or links a folder beside the repository', () => {
    const offenders = files.flatMap((file) => {
      const text = textOf(file);
      return text === undefined ? [] : referencesOutside(file, text).map((reference) => `${file}: ${reference}`);
    });
    expect(offenders).toEqual([]);
  });

  it('has no relative Markdown link to a file it does not track', () => {
    const tracked = new Set(files);
    const offenders = files
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => brokenLinks(file, readFileSync(join(ROOT, file), 'utf8'), tracked).map((link) => `${file}: ${link}`));
    expect(offenders).toEqual([]);
  });

  it('would catch a sibling folder, yet accepts src/shared (the checks can fail)', () => {
    const climbOut = '../'.repeat(3);
    expect(referencesOutside('test/unit/example.test.ts', `resolve(dir, '${climbOut}shared/fixtures/frames')`)).toHaveLength(1);
    expect(referencesOutside('README.md', `[design](..${'/'}shared/ARCHITECTURE.md)`)).toHaveLength(1);
    expect(referencesOutside('docs/notes.md', `see ..${'/'}shared/ARCHITECTURE.md`)).toHaveLength(1);
    expect(referencesOutside('src/main/config/load.ts', `import type { Config } from '../../shared/config.js';`)).toEqual([]);
    expect(brokenLinks('README.md', '[gone](docs/nowhere.md) [ok](docs/decisions.md) [web](https://example.com)', new Set(files))).toEqual([
      'docs/nowhere.md',
    ]);
  });
});
