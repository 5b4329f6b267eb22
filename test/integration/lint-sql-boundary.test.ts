/**
 * All SQL lives in src/main/storage. depcruise sees imports (see layering.test.ts), not calls, so ESLint
 * reports a `.prepare(` anywhere else in src. A check that never fails proves nothing: this builds a tiny
 * tree in a temp folder with the project's own ESLint and TypeScript configuration and lints it with the
 * real ESLint, as `npm run lint` does.
 */
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';
import { scaledLimit } from '../helpers/time-limits.js';

const repositoryRoot = resolve(import.meta.dirname, '../..');
const temporaryTrees: string[] = [];

const CONFIGURATION = ['eslint.config.js', 'package.json', 'tsconfig.json', 'tsconfig.base.json', 'tsconfig.node.json', 'tsconfig.web.json'];

function treeWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sightline-lint-'));
  temporaryTrees.push(root);
  for (const name of CONFIGURATION) copyFileSync(join(repositoryRoot, name), join(root, name));
  // The configuration imports its plugins, and the TypeScript projects name @types/node.
  symlinkSync(realpathSync(join(repositoryRoot, 'node_modules')), join(root, 'node_modules'), 'dir');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** The rules each file broke, by path relative to the tree. */
async function lint(root: string): Promise<Record<string, (string | null)[]>> {
  const results = await new ESLint({ cwd: root }).lintFiles(['src']);
  return Object.fromEntries(results.map((result) => [relative(root, result.filePath), result.messages.map((message) => message.ruleId)]));
}

afterEach(() => {
  for (const root of temporaryTrees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const PREPARING = (name: string) =>
  `interface Connection {\n  prepare: (sql: string) => { all: () => unknown[] };\n}\n` +
  `export function ${name}(connection: Connection): unknown[] {\n  return connection.prepare('SELECT 1').all();\n}\n`;

describe('the SQL boundary lint rule', () => {
  it('reports a statement prepared outside src/main/storage, and not one inside it', { timeout: scaledLimit(60_000) }, async () => {
    const root = treeWith({
      'src/main/storage/reads.ts': PREPARING('readInStorage'),
      'src/main/api/reads.ts': PREPARING('readInApi'),
      'src/main/agent/steps.ts': `export const steps = { prepare: () => 1 };\nexport const body = steps.prepare();\n`,
    });
    const broken = await lint(root);
    expect(broken['src/main/storage/reads.ts']).toEqual([]);
    expect(broken['src/main/api/reads.ts']).toEqual(['no-restricted-syntax']);
    // Any method named prepare outside storage counts, which is why model-call's step is named buildBody.
    expect(broken['src/main/agent/steps.ts']).toEqual(['no-restricted-syntax']);
  });
});
