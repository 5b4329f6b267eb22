/**
 * A newcomer's path to the SDK (issue 25): `npm pack` a checkout, install the tarball into an empty TypeScript
 * project, use the SDK with its types, and run it.
 *
 * The checkout is a copy of the working tree's files (what git tracks or would track), so the tarball is built
 * by `npm pack` itself (its prepack runs `npm run build`) into the copy's out/, never into this repository's out/,
 * which the timeline tests rebuild while other files run.
 *
 * The install unpacks the tarball into the consumer's node_modules/sightline, which is what npm does with it, and
 * links the package's declared `dependencies` (and the consumer's own @types/node) from this repository's
 * install, where npm would have hoisted them. Installing them afresh would rebuild better-sqlite3 and fetch
 * half the registry for nothing the test checks. Only the declared dependencies are linked: a declaration or a
 * module of the package that imports anything else fails to resolve, as it would for a real consumer.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/child-process.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONSUMER_FIXTURE = join(ROOT, 'test/fixtures/sdk-consumer');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const PAGE = `<!doctype html><html><head><title>Cart</title></head>
<body style="font: 24px sans-serif"><h1>Cart</h1><p id="total">Total: $12.50</p></body></html>`;

let work: string;
let tarball: string;
let consumer: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'sightline-sdk-package-'));
  const checkout = join(work, 'checkout');
  await copyCheckout(checkout);

  const packed = join(work, 'packed');
  mkdirSync(packed);
  const pack = await runProcess('npm', ['pack', '--pack-destination', packed], { cwd: checkout });
  expect(pack.code, pack.output).toBe(0);
  const tarballs = readdirSync(packed).filter((name) => name.endsWith('.tgz'));
  expect(tarballs, pack.output).toHaveLength(1);
  tarball = join(packed, tarballs[0]!);

  consumer = join(work, 'consumer');
  cpSync(CONSUMER_FIXTURE, consumer, { recursive: true });
  writeFileSync(join(consumer, 'src/readme-example.ts'), readmeSdkExample());
  copyFileSync(tarball, join(consumer, 'sightline.tgz'));
  await installTarball(consumer, 'sightline.tgz');
}, 240_000);

afterAll(() => {
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

/** The working tree's files as a fresh clone would have them (plus files not yet committed), with node_modules linked. */
async function copyCheckout(target: string): Promise<void> {
  const listed = await runProcess('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT });
  expect(listed.code, listed.output).toBe(0);
  for (const file of listed.stdout.split('\0')) {
    if (file === '' || file === 'node_modules') continue;
    const source = join(ROOT, file);
    // A deleted file git still tracks is not in the working tree.
    if (!statSync(source, { throwIfNoEntry: false })?.isFile()) continue;
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(source, join(target, file));
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(target, 'node_modules'));
}

/** Unpacks the tarball as npm does and links what npm would have installed beside it (see the header). */
async function installTarball(project: string, file: string): Promise<void> {
  const installed = join(project, 'node_modules/sightline');
  mkdirSync(installed, { recursive: true });
  const unpack = await runProcess('tar', ['-xzf', file, '--strip-components=1', '-C', installed], { cwd: project });
  expect(unpack.code, unpack.output).toBe(0);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const shared = realpathSync(join(ROOT, 'node_modules'));
  for (const name of [...Object.keys(manifest.dependencies), '@types/node']) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(shared, name), link);
  }
}

/** README's SDK example, word for word: the consumer typechecks it, so the README cannot drift from the API. */
function readmeSdkExample(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### The SDK'));
  const example = /```ts\n([\s\S]*?)```/.exec(section);
  if (example === null) throw new Error('README.md has no ```ts example under "### The SDK"');
  return example[1]!;
}

describe('the packed SDK', () => {
  it('holds the SDK, its declarations, the CLI and the timeline UI, and no sources or tests', async () => {
    const listing = await runProcess('tar', ['-tzf', tarball], { cwd: work });
    expect(listing.code, listing.output).toBe(0);
    const files = listing.stdout.split('\n').filter((line) => line !== '').map((line) => line.replace(/^package\//, ''));
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'bin/sightline.js',
        'out/main/sdk.js',
        'out/main/cli.js',
        'out/types/main/automation/index.d.ts',
        'out/renderer/index.html',
        'resources/focus/atspi-focus.py',
      ]),
    );
    const unwanted = files.filter((file) => /^(src|test|docs|bench|demo|scripts|node_modules|resources\/(build|sandbox))\//.test(file));
    expect(unwanted).toEqual([]);
    // A guard against shipping a folder by mistake (sources, node_modules): today's tarball is about 0.5 MB.
    const size = statSync(tarball).size;
    console.log(`sdk-package: ${tarball.split('/').at(-1)} is ${(size / 1024).toFixed(0)} kB, ${files.length} files`);
    expect(size).toBeLessThan(1024 * 1024);
  });

  it('typechecks a strict nodenext project that uses it, refusing each wrong use', { timeout: 120_000 }, async () => {
    const check = await runProcess(process.execPath, [TSC, '-p', consumer], { cwd: consumer });
    expect(check.code, check.output).toBe(0);
  });

  it('runs from a plain ESM script that imports it by name: launches a browser and asserts', { timeout: 120_000 }, async () => {
    const model: FakeOpenAiServer = await startFakeOpenAiServer();
    const home: TemporaryHome = createTemporaryHome('sightline-sdk-package');
    const pageServer: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    });
    await new Promise<void>((done) => pageServer.listen(0, '127.0.0.1', done));
    try {
      model.script(
        scriptedMoves([
          { tool: 'answer', arguments: { verdict: true, reason: 'The total reads $12.50.', evidence: [] } },
          { tool: 'answer', arguments: { verdict: false, reason: 'The cart holds items worth $12.50.', evidence: [] } },
        ]),
      );
      const pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
      const run = await runProcess(process.execPath, ['run.mjs', model.baseUrl, pageUrl, home.root], { cwd: consumer });
      expect(run.code, run.output).toBe(0);
      expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
        passed: { status: 'passed', verdict: true },
        failed: { isAssertionFailedError: true, reason: 'The cart holds items worth $12.50.' },
        steps: ['passed', 'failed'],
      });
      // Both answers were given on a screenshot of the page the package's browser opened.
      expect(model.requests).toHaveLength(2);
    } finally {
      await new Promise<void>((done) => pageServer.close(() => done()));
      await model.close();
      home.remove();
    }
  });

  it('installs the CLI beside it', async () => {
    const version = await runProcess(process.execPath, ['node_modules/sightline/bin/sightline.js', '--version'], { cwd: consumer });
    expect(version.code, version.output).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });
});
