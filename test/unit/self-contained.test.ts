/**
 * A clone of this repository must work on its own: nothing it tracks may reach a folder beside it (the
 * workspace's `shared/` once held the frame fixtures and ARCHITECTURE.md), and every relative link of the
 * docs must land on a tracked file, at a heading that exists when it names one (`cli.md#commands`). A path
 * that climbs out of the repository works only on the machine where the sibling folder happens to exist;
 * an anchor whose heading was renamed or moved to another page lands a reader at the top of the wrong page.
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

/** Markdown without its fenced code blocks: a `# comment` there is no heading, a `[i](x)` no link. */
function withoutCodeBlocks(markdown: string): string {
  return markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[^\n]*$|(?![\s\S]))/gm, '');
}

/**
 * The anchor GitHub gives a heading (github-slugger): the rendered text lower-cased, punctuation removed
 * (letters, digits, `_`, `-` and spaces stay), each space a `-`.
 */
function headingSlug(heading: string): string {
  const rendered = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown file's headings give, a repeated slug numbered as GitHub numbers it (`-1`, `-2`). */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutCodeBlocks(markdown).matchAll(/^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/gm)) {
    const slug = headingSlug(match[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * Each relative Markdown link of a file that does not land on a tracked file, or names an anchor its
 * Markdown target has no heading for (`#x` alone points into the file itself). Links in code are not links.
 */
function brokenLinks(file: string, text: string, tracked: ReadonlySet<string>, read: (file: string) => string): string[] {
  const broken: string[] = [];
  const prose = withoutCodeBlocks(text).replace(/`[^`\n]*`/g, '');
  for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    const path = pathPart === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), decodeURIComponent(pathPart)));
    const isTrackedFolder = [...tracked].some((candidate) => candidate.startsWith(`${path}/`));
    if (!tracked.has(path) && !isTrackedFolder) {
      broken.push(target);
      continue;
    }
    const landsOnHeading = anchor === undefined || !path.endsWith('.md') || headingAnchors(read(path)).has(decodeURIComponent(anchor));
    if (!landsOnHeading) broken.push(target);
  }
  return broken;
}

function readDoc(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
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

  it('has no relative Markdown link to a file it does not track, or to a heading its target lacks', () => {
    const tracked = new Set(files);
    const offenders = files
      .filter((file) => file.endsWith('.md'))
      .flatMap((file) => brokenLinks(file, readDoc(file), tracked, readDoc).map((link) => `${file}: ${link}`));
    expect(offenders).toEqual([]);
  });

  it('would catch a sibling folder, yet accepts src/shared (the checks can fail)', () => {
    const climbOut = '../'.repeat(3);
    expect(referencesOutside('test/unit/example.test.ts', `resolve(dir, '${climbOut}shared/fixtures/frames')`)).toHaveLength(1);
    expect(referencesOutside('README.md', `[design](..${'/'}shared/ARCHITECTURE.md)`)).toHaveLength(1);
    expect(referencesOutside('docs/notes.md', `see ..${'/'}shared/ARCHITECTURE.md`)).toHaveLength(1);
    expect(referencesOutside('src/main/config/load.ts', `import type { Config } from '../../shared/config.js';`)).toEqual([]);
    expect(brokenLinks('README.md', '[gone](docs/nowhere.md) [ok](docs/decisions/README.md) [web](https://example.com)', new Set(files), readDoc)).toEqual([
      'docs/nowhere.md',
    ]);
  });

  it('reads anchors as GitHub makes them from headings, and catches one no heading gives', () => {
    const pages: Record<string, string> = {
      'docs/page.md': [
        '# The page',
        "## The browser's URL scope",
        '## Using Sightline from another agent (MCP)',
        '### `sightline run`',
        '## Notes',
        '## Notes',
        '```sh',
        '# not a heading',
        '```',
      ].join('\n'),
      'README.md': '## Quick start',
    };
    const tracked = new Set(Object.keys(pages));
    const read = (file: string): string => pages[file]!;
    const links = [
      "[scope](docs/page.md#the-browsers-url-scope)",
      '[mcp](docs/page.md#using-sightline-from-another-agent-mcp)',
      '[run](docs/page.md#sightline-run)',
      '[again](docs/page.md#notes-1)',
      '[here](#quick-start)',
      '[renamed](docs/page.md#url-scope)',
      '[code](docs/page.md#not-a-heading)',
      '[third](docs/page.md#notes-2)',
      '[missing here](#stopping-the-agent)',
      '`[in code](docs/page.md#nowhere)`',
    ].join(' ');
    expect(brokenLinks('README.md', links, tracked, read)).toEqual([
      'docs/page.md#url-scope',
      'docs/page.md#not-a-heading',
      'docs/page.md#notes-2',
      '#stopping-the-agent',
    ]);
  });
});
