/**
 * The layering check must fail on every kind of violation ARCHITECTURE.md forbids; a check that never
 * fails proves nothing. Each case builds a tiny tree in a temp folder and runs the real depcruise CLI with
 * the project's own rules, exactly as `npm run layers` does.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repositoryRoot = resolve(import.meta.dirname, '../..');
const depcruise = join(repositoryRoot, 'node_modules/.bin/depcruise');
const temporaryTrees: string[] = [];

function treeWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'sightline-layers-'));
  temporaryTrees.push(root);
  for (const name of ['.dependency-cruiser.cjs', '.dependency-cruiser-startup.cjs', 'tsconfig.base.json', 'tsconfig.node.json']) {
    copyFileSync(join(repositoryRoot, name), join(root, name));
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

function runLayerCheck(root: string): { exitCode: number | null; output: string } {
  const result = spawnSync(depcruise, ['src', '--config', '.dependency-cruiser.cjs'], { cwd: root, encoding: 'utf8' });
  return { exitCode: result.status, output: result.stdout + result.stderr };
}

/** The second half of `npm run layers`: what the CLI loads before a command's action runs. */
function runStartupCheck(root: string): { exitCode: number | null; output: string } {
  const result = spawnSync(depcruise, ['src/main/cli', '--config', '.dependency-cruiser-startup.cjs'], { cwd: root, encoding: 'utf8' });
  return { exitCode: result.status, output: result.stdout + result.stderr };
}

afterEach(() => {
  for (const root of temporaryTrees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the layering check', () => {
  it('accepts imports that point down the layer list', () => {
    const root = treeWith({
      'src/shared/types.ts': 'export type Id = string;\n',
      'src/main/storage/store.ts': "import type { Id } from '../../shared/types.js';\nexport const store = (id: Id) => id;\n",
      'src/main/storage/database.ts': "import BetterSqlite3 from 'better-sqlite3';\nexport const open = (file: string) => new BetterSqlite3(file);\n",
      'src/main/perception/look.ts': "import { store } from '../storage/store.js';\nexport const look = () => store('x');\n",
      'src/main/agent/loop.ts': "import { look } from '../perception/look.js';\nexport const loop = () => look();\n",
      'src/main/agent/index.ts': "export { loop } from './loop.js';\n",
      'src/main/app/run.ts': "import { loop } from '../agent/index.js';\nexport const run = () => loop();\n",
      'src/main/mcp-server/host.ts': "import { run } from '../app/run.js';\nexport const host = () => run();\n",
      'src/main/cli/main.ts': "import { host } from '../mcp-server/host.js';\nhost();\n",
      'src/renderer/app.ts': "import type { Id } from '../shared/types.js';\nexport const id: Id = 'a';\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(output).toContain('no dependency violations');
    expect(exitCode).toBe(0);
  });

  it('fails on every kind of forbidden import, naming the rule', () => {
    const root = treeWith({
      'src/shared/types.ts': "import { loop } from '../main/agent/loop.js';\nexport const x = loop;\n",
      'src/main/agent/loop.ts': "export const loop = () => 1;\n",
      'src/main/storage/store.ts': "import { loop } from '../agent/loop.js';\nexport const store = loop;\n",
      'src/main/context/build.ts': "import OpenAI from 'openai';\nexport const client = OpenAI;\n",
      'src/main/api/serve.ts': "import { app } from 'electron';\nexport const a = app;\n",
      'src/renderer/app.ts': "import { loop } from '../main/agent/loop.js';\nexport const r = loop;\n",
      'src/main/llm/model.ts': "import { tavily } from '@tavily/core';\nexport const t = tavily;\n",
      'src/shared/paths.ts': "import { join } from 'node:path';\nexport const p = join;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    for (const rule of [
      'shared-depends-on-nothing-of-ours',
      'main-storage-imports-only-downward',
      'only-llm-imports-openai',
      'only-electron-folder-imports-electron',
      'renderer-imports-only-shared',
      'only-search-imports-tavily',
      'shared-has-no-node-builtins',
    ]) {
      expect(output, `rule ${rule} should fire`).toContain(rule);
    }
  });

  it("keeps Anthropic's client inside the model adapters, type-only and subpath imports too", () => {
    const root = treeWith({
      'src/main/llm/adapter.ts': "import Anthropic from '@anthropic-ai/sdk';\nexport const client = Anthropic;\n",
      'src/main/agent/loop.ts': "import Anthropic from '@anthropic-ai/sdk';\nexport const loop = Anthropic;\n",
      'src/main/context/build.ts':
        "import type { BetaMessageParam } from '@anthropic-ai/sdk/resources/beta/messages/messages';\nexport type Built = BetaMessageParam;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    const violations = output.split('\n').filter((line) => line.includes('only-llm-imports-anthropic'));
    expect(violations.some((line) => line.includes('src/main/agent/loop.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('src/main/context/build.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('src/main/llm/')), output).toBe(false);
  });

  it('keeps the database driver inside storage, type-only imports too', () => {
    const root = treeWith({
      'src/main/storage/database.ts': "import BetterSqlite3 from 'better-sqlite3';\nexport const open = (file: string) => new BetterSqlite3(file);\n",
      'src/main/api/reads.ts': "import BetterSqlite3 from 'better-sqlite3';\nexport const reads = (file: string) => new BetterSqlite3(file);\n",
      'src/main/context/rows.ts': "import type { Database } from 'better-sqlite3';\nexport type Rows = Database;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    const violations = output.split('\n').filter((line) => line.includes('only-storage-imports-better-sqlite3'));
    expect(violations.some((line) => line.includes('src/main/api/reads.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('src/main/context/rows.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('src/main/storage/')), output).toBe(false);
  });

  it('keeps installed clients in their folders: a package resolved under node_modules is caught as well as an unresolved name', () => {
    const root = treeWith({
      'src/main/queue/jobs.ts': "import { Queue } from 'bullmq';\nexport const jobs = Queue;\n",
      'src/main/team-store/rows.ts': "import pg from 'pg';\nimport { S3Client } from '@aws-sdk/client-s3';\nexport const clients = [pg, S3Client];\n",
      'src/main/perception/probe.ts':
        "import { Queue } from 'bullmq';\nimport pg from 'pg';\nimport { S3Client } from '@aws-sdk/client-s3';\nexport const probe = [Queue, pg, S3Client];\n",
    });
    // The packages as installed: depcruise then names each by the file it resolves to (node_modules/bullmq/dist/…).
    // With the package.json that lists them, as in the repository: depcruise calls them npm dependencies only then.
    symlinkSync(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'), 'dir');
    copyFileSync(join(repositoryRoot, 'package.json'), join(root, 'package.json'));
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    const lines = output.split('\n');
    for (const rule of ['only-queue-imports-bullmq', 'only-team-store-imports-its-clients']) {
      const violations = lines.filter((line) => line.includes(rule));
      expect(violations.some((line) => line.includes('src/main/perception/probe.ts') && line.includes('node_modules/')), `${rule}\n${output}`).toBe(true);
      expect(violations.some((line) => line.includes('src/main/queue/') || line.includes('src/main/team-store/')), output).toBe(false);
    }
  });

  it('keeps the faces above the run assembly, and the assembly above the agent', () => {
    const root = treeWith({
      'src/main/agent/index.ts': "export const agent = 1;\n",
      'src/main/api/serve.ts': "export const serve = 1;\n",
      'src/main/mcp-server/host.ts': "import { serve } from '../api/serve.js';\nexport const host = serve;\n",
      'src/main/app/run.ts': "import { host } from '../mcp-server/host.js';\nexport const run = host;\n",
      'src/main/agent/loop.ts': "import { run } from '../app/run.js';\nexport const loop = run;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    for (const rule of ['main-mcp-server-imports-only-downward', 'main-app-imports-only-downward', 'main-agent-imports-only-downward']) {
      expect(output, `rule ${rule} should fire`).toContain(rule);
    }
  });

  it('lets the faces reach the agent through its index only', () => {
    const root = treeWith({
      'src/main/agent/index.ts': "export { loop } from './loop.js';\n",
      'src/main/agent/loop.ts': "export const loop = () => 1;\n",
      'src/main/app/through-index.ts': "import { loop } from '../agent/index.js';\nexport const a = loop;\n",
      'src/main/mcp-server/inside.ts': "import { loop } from '../agent/loop.js';\nexport const b = loop;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    const violations = output.split('\n').filter((line) => line.includes('agent-is-entered-through-its-index'));
    expect(violations.some((line) => line.includes('src/main/mcp-server/inside.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('through-index.ts') || line.includes('src/main/agent/loop.ts →')), output).toBe(false);
  });

  it('forbids imports between siblings of one layer', () => {
    const root = treeWith({
      'src/main/llm/model.ts': "export const model = 1;\n",
      'src/main/operators/desktop.ts': "import { model } from '../llm/model.js';\nexport const d = model;\n",
    });
    const { exitCode, output } = runLayerCheck(root);
    expect(exitCode).not.toBe(0);
    expect(output).toContain('main-operators-imports-only-downward');
  });
});

describe('the start-up check', () => {
  // A command whose work needs sharp, declared the way every command is: registration at the top, work in the action.
  const work = "import sharp from 'sharp';\nexport type Size = { width: number };\nexport const decode = (file: string) => sharp(file);\n";

  it("fails when a command reaches a heavy package through static imports, naming the command and the path", () => {
    const root = treeWith({
      'src/main/cli/frames/decode.ts': work,
      'src/main/cli/frames/options.ts': "import { decode } from './decode.js';\nexport const MAX = 64;\nexport const d = decode;\n",
      'src/main/cli/commands/frames.ts': "import { MAX } from '../frames/options.js';\nexport const register = () => MAX;\n",
      'src/main/cli/main.ts': "import { register } from './commands/frames.js';\nregister();\n",
    });
    const { exitCode, output } = runStartupCheck(root);
    expect(exitCode).not.toBe(0);
    const violations = output.split('\n').filter((line) => line.includes('cli-starts-without-heavy-packages'));
    expect(violations.some((line) => line.includes('src/main/cli/commands/frames.ts')), output).toBe(true);
    expect(violations.some((line) => line.includes('src/main/cli/main.ts')), output).toBe(true);
    expect(output).toContain('src/main/cli/frames/options.ts');
  });

  it('accepts the same work imported inside the action, and types imported from it', () => {
    const root = treeWith({
      'src/main/cli/frames/decode.ts': work,
      'src/main/cli/commands/frames.ts':
        "import type { Size } from '../frames/decode.js';\n" +
        "export const register = () => async (file: string): Promise<Size> => {\n" +
        "  const { decode } = await import('../frames/decode.js');\n  await decode(file);\n  return { width: 1 };\n};\n",
      'src/main/cli/main.ts': "import { register } from './commands/frames.js';\nregister();\n",
    });
    const { exitCode, output } = runStartupCheck(root);
    expect(output).toContain('no dependency violations');
    expect(exitCode).toBe(0);
  });
});
