/**
 * `Sightline.attach(page)` inside a real @playwright/test run (issue 25): `npx playwright test` runs the spec in
 * test/fixtures/playwright-sdk/, whose one test mixes Playwright's deterministic steps with the model's. This test
 * serves the page and the fake model the spec reaches (their URLs go to it through the environment), and reads
 * the run's outcome from Playwright's exit code and its JSON report.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runProcess } from '../helpers/child-process.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves, type RequestSummary } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = 'test/fixtures/playwright-sdk/playwright.config.ts';

const PAGE = `<!doctype html><html><head><title>Basket</title><style>
  body { margin: 0; font: 20px sans-serif; }
  #name { position: absolute; left: 100px; top: 100px; width: 300px; height: 40px; font-size: 20px; }
  #add { position: absolute; left: 100px; top: 200px; width: 120px; height: 40px; font-size: 20px; }
  #items { position: absolute; left: 100px; top: 300px; }
</style></head><body>
  <input id="name" autocomplete="off">
  <button id="add">Add</button>
  <ul id="items"></ul>
  <script>
    document.querySelector('#add').addEventListener('click', () => {
      const name = document.querySelector('#name');
      const item = document.createElement('li');
      item.textContent = name.value;
      document.querySelector('#items').append(item);
      name.value = '';
    });
  </script>
</body></html>`;

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors: unknown[];
}

let pageServer: Server;
let pageUrl: string;
let model: FakeOpenAiServer;
let home: TemporaryHome;
let work: string;

beforeEach(async () => {
  pageServer = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(PAGE);
  });
  await new Promise<void>((done) => pageServer.listen(0, '127.0.0.1', done));
  pageUrl = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}/`;
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-playwright-sdk');
  work = mkdtempSync(join(tmpdir(), 'sightline-playwright-run-'));
});

afterEach(async () => {
  await new Promise<void>((done) => pageServer.close(() => done()));
  await model.close();
  home.remove();
  rmSync(work, { recursive: true, force: true });
});

function runPlaywright() {
  return runProcess('npx', ['playwright', 'test', '--config', CONFIG], {
    cwd: ROOT,
    env: {
      ...process.env,
      SIGHTLINE_TEST_PAGE_URL: pageUrl,
      SIGHTLINE_TEST_MODEL_URL: model.baseUrl,
      SIGHTLINE_TEST_HOME: home.root,
      SIGHTLINE_PLAYWRIGHT_REPORT: join(work, 'report.json'),
      SIGHTLINE_PLAYWRIGHT_OUTPUT: join(work, 'output'),
    },
  });
}

function report(): PlaywrightReport {
  return JSON.parse(readFileSync(join(work, 'report.json'), 'utf8')) as PlaywrightReport;
}

it('runs a @playwright/test test whose AI steps act on the page Playwright filled', { timeout: 120_000 }, async () => {
  const seen: RequestSummary[] = [];
  model.script(
    scriptedMoves(
      [
        // The assertion is asked of the screen Playwright's fill left.
        { tool: 'answer', arguments: { verdict: true, reason: 'The field shows apple.', evidence: [] } },
        { action: { action: 'click', x: 160, y: 220 } },
        { finish: 'Clicked Add.' },
      ],
      (summary) => seen.push(summary),
    ),
  );
  const run = await runPlaywright();
  expect(run.code, run.output).toBe(0);
  expect(report().stats).toMatchObject({ expected: 1, unexpected: 0, flaky: 0, skipped: 0 });
  expect(report().errors).toEqual([]);
  expect(seen.map((request) => request.toolNames.includes('answer'))).toEqual([true, false, false]);
});

it('fails the Playwright test when the model finds the assertion false', { timeout: 120_000 }, async () => {
  model.script(scriptedMoves([{ tool: 'answer', arguments: { verdict: false, reason: 'The field is empty.', evidence: [] } }]));
  const run = await runPlaywright();
  expect(run.code, run.output).toBe(1);
  expect(report().stats).toMatchObject({ expected: 0, unexpected: 1 });
  expect(run.stdout).toContain('AssertionFailedError');
  expect(run.stdout).toContain('The field is empty.');
  // The failing assertion stopped the test before its AI action: the model was asked once.
  expect(model.requests).toHaveLength(1);
});
