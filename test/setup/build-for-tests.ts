/**
 * Vitest's global setup for the integration and end-to-end projects: everything a test would otherwise build or
 * start cold under its own time limit happens here once, before any limit starts.
 *
 * - The CLI as ES modules (esbuild, about a second; test/helpers/cli-bundle.ts), so a test spawns `node <bundle>`
 *   instead of a cold `tsx src/main/cli/main.ts`, which transpiles the whole program on every start (3x slower
 *   idle, 30 s and more at load 20). Packages stay external: native modules load from node_modules as in the built
 *   app. Each command's lazily loaded work is a chunk of its own, loaded when the command runs, as in the app.
 * - The renderer (the timeline UI), from electron.vite.config.ts's renderer section only (under a second), for
 *   the tests that open the timeline in a browser.
 * - How long the built CLI takes to print its version here and now: test/helpers/time-limits.ts scales every
 *   limit of a test that starts processes by it.
 *
 * Both builds go to a folder of this run (test-artifacts/build/run-*), removed at the end: a stale build from
 * an earlier run, or from `npm run build`, can never be the one under test.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { UserConfig } from 'vite';
import type { TestProject } from 'vitest/node';
import { bundleCli } from '../helpers/cli-bundle.js';

const ROOT = resolve(import.meta.dirname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    /** The CLI bundle of this run: `node <sightlineCli> <args>`. */
    sightlineCli: string;
    /** The renderer built for this run (index.html and assets/). */
    rendererDirectory: string;
    /** How long `node <sightlineCli> --version` took in global setup, in milliseconds. */
    cliStartupMs: number;
  }
}

export default async function buildForTests(project: TestProject): Promise<() => void> {
  const buildRoot = join(ROOT, 'test-artifacts', 'build');
  mkdirSync(buildRoot, { recursive: true });
  // Inside the repository, so the bundle's bare imports resolve to its node_modules.
  const folder = mkdtempSync(join(buildRoot, 'run-'));
  const started = Date.now();
  const sightlineCli = await bundleCli({ sourceRoot: ROOT, outDir: join(folder, 'cli') });
  const cliBuiltMs = Date.now() - started;
  const rendererDirectory = await buildRenderer(join(folder, 'renderer'));
  const rendererBuiltMs = Date.now() - started - cliBuiltMs;
  const cliStartupMs = measureStartup(sightlineCli);
  project.provide('sightlineCli', sightlineCli);
  project.provide('rendererDirectory', rendererDirectory);
  project.provide('cliStartupMs', cliStartupMs);
  console.log(
    `[${project.name}] built the CLI in ${cliBuiltMs} ms and the renderer in ${rendererBuiltMs} ms; the CLI starts in ${cliStartupMs} ms here`,
  );
  return () => rmSync(folder, { recursive: true, force: true });
}

async function buildRenderer(outDir: string): Promise<string> {
  const [{ build }, { default: config }] = await Promise.all([import('vite'), import('../../electron.vite.config.js')]);
  const renderer = (config as { renderer: UserConfig }).renderer;
  await build({ ...renderer, configFile: false, logLevel: 'warn', build: { ...renderer.build, outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 } });
  if (!existsSync(join(outDir, 'index.html'))) throw new Error(`the renderer build wrote no index.html in ${outDir}`);
  return outDir;
}

function measureStartup(cli: string): number {
  const started = Date.now();
  const run = spawnSync(process.execPath, [cli, '--version'], { cwd: ROOT, encoding: 'utf8', timeout: 300_000 });
  if (run.status !== 0) throw new Error(`the CLI built for the tests does not start:\n${run.stdout}\n${run.stderr}`);
  return Date.now() - started;
}
