/**
 * A Midscene batch index run as one suite (issue 35), as a Midscene user runs theirs: `sightline flow batch.yaml`, a
 * real process, Chromium on a local page, the fake model. The index and scripts are written for this test from
 * Midscene's documented config file (https://midscenejs.com/command-line-tools, "Write command-line arguments in a
 * file"; keys and defaults as @midscene/cli config-factory.ts reads them). With `concurrent: 2` both scripts' model
 * calls are in flight at once (a latch, not timing); with `continueOnError: true` the second runs although the
 * first fails; without it the second is not started. `sightline flow --check` reads the same files and runs nothing.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type RecordedRequest, type ScriptedReply } from '../helpers/fake-openai-server.js';
import { scriptedMoves, summarizeRequest } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { runSightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

let page: CartPageServer;
let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;

beforeAll(async () => {
  page = await startCartPage();
});

afterAll(async () => {
  await page?.close();
});

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-batch');
  folder = mkdtempSync(join(tmpdir(), 'sightline-batch-files-'));
  for (const name of ['first', 'second']) {
    writeFileSync(join(folder, `${name}.yaml`), `web:\n  url: "\${PAGE_URL}"\ntasks:\n  - name: check the ${name} cart\n    flow:\n      - aiAssert: The page shows a cart (${name})\n`);
  }
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function runFlow(args: readonly string[]) {
  return runSightlineProcess(['--home', home.root, 'flow', ...args, '--base-url', model.baseUrl], { PAGE_URL: page.url });
}

/** The assertion holds for every script but `failing`. */
function verdictFor(request: RecordedRequest, failing: string): FakeReplyOf {
  const verdict = !summarizeRequest(request).text.includes(`(${failing})`);
  return scriptedMoves([{ tool: 'answer', arguments: { verdict, reason: verdict ? 'The cart is shown.' : 'No cart is shown.', evidence: [] } }])[0]!(request);
}
type FakeReplyOf = ReturnType<ScriptedReply>;

interface Summary {
  status: string;
  flows: Array<{ name: string; status: string; error?: string; steps: Array<{ label: string; status: string }> }>;
}

describe('a Midscene batch index', () => {
  it('runs its two scripts as one suite: side by side with concurrent: 2, the second to the end though the first fails (continueOnError)', { timeout: scaledLimit(240_000) }, async () => {
    writeFileSync(join(folder, 'batch.yaml'), 'files:\n  - ./first.yaml\n  - ./second.yaml\nconcurrent: 2\ncontinueOnError: true\nsummary: summary.json\nshareBrowserContext: true\n');
    // Each script's first model call waits until the other's has arrived: only concurrency lets both through.
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => (bothArrived = resolve));
    let sawBoth = false;
    model.script(
      Array.from({ length: 6 }, () => async (request: RecordedRequest) => {
        arrived += 1;
        if (arrived === 2) bothArrived();
        sawBoth = await Promise.race([both.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 90_000))]);
        return verdictFor(request, 'first');
      }),
    );

    const run = await runFlow([join(folder, 'batch.yaml')]);
    expect(run.code, run.stderr).toBe(1);
    expect(sawBoth, 'both scripts asked the model at once').toBe(true);
    expect(run.stderr).toContain('note: ');
    expect(run.stderr).toContain('batch.yaml:7:1: shareBrowserContext: ignored');
    expect(run.stderr).toMatch(/^✗ first failed in /m);
    expect(run.stderr).toMatch(/^✓ second passed in /m);
    expect(run.stderr).toContain('2 flows: 1 passed, 1 failed');

    const summary = JSON.parse(readFileSync(join(folder, 'summary.json'), 'utf8')) as Summary;
    expect(summary.status).toBe('failed');
    expect(summary.flows.map((flow) => [flow.name, flow.status])).toEqual([
      ['first', 'failed'],
      ['second', 'passed'],
    ]);
    expect(summary.flows[1]!.steps.map((step) => [step.label, step.status])).toEqual([
      ['check the second cart', 'passed'],
      ['aiAssert', 'passed'],
    ]);
  });

  it('without continueOnError starts no script after one fails, and says which failed', { timeout: scaledLimit(240_000) }, async () => {
    writeFileSync(join(folder, 'batch.yaml'), 'files: [first.yaml, second.yaml]\n');
    model.script(Array.from({ length: 4 }, () => (request: RecordedRequest) => verdictFor(request, 'first')));
    const run = await runFlow([join(folder, 'batch.yaml'), '--junit', join(folder, 'junit.xml')]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toMatch(/^✗ first failed in /m);
    expect(run.stderr).toContain('- second skipped in 0.0 s: not started: first failed, and the batch index does not say continueOnError: true');
    expect(run.stderr).toContain('2 flows: 0 passed, 1 failed, 1 not started');
    expect(run.stderr).not.toContain('▶ second');
    expect(model.requests).toHaveLength(1);
  });
});

describe('sightline flow --check', () => {
  it('passes good files of both formats, a sub-flow and an index, without a browser or a model: exit 0', { timeout: scaledLimit(120_000) }, async () => {
    writeFileSync(join(folder, 'batch.yaml'), 'files: [first.yaml, second.yaml]\nconcurrent: 2\n');
    writeFileSync(join(folder, 'login.flow.yml'), 'name: Login\nparams: [user]\nsteps:\n  - do: Sign in as ${user}\n');
    writeFileSync(join(folder, 'checkout.flow.yml'), 'name: Checkout\ntarget: { operator: browser, url: "${env.PAGE_URL}" }\nsteps:\n  - use: login.flow.yml\n    with: { user: ada }\n  - assert: The cart is shown\n');
    const run = await runSightlineProcess(['--home', home.root, 'flow', '--check', join(folder, 'batch.yaml'), join(folder, 'checkout.flow.yml')], { PAGE_URL: page.url });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('checked 2 files: 3 flows, no problems');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses bad files with the same file:line:column messages as a run, exit 2', { timeout: scaledLimit(120_000) }, async () => {
    writeFileSync(join(folder, 'batch.yaml'), 'files: [first.yaml, broken.yaml]\nconcurent: 2\n');
    writeFileSync(join(folder, 'broken.yaml'), 'web:\n  url: "${PAGE_URL}"\ntasks:\n  - name: broken\n    flow:\n      - aiTapp: the button\n');
    writeFileSync(join(folder, 'cases.yaml'), 'cases:\n  - name: Search\n    steps:\n      - aiAct: Search for mugs\n');
    const files = [join(folder, 'batch.yaml'), join(folder, 'cases.yaml')];
    const checked = await runSightlineProcess(['--home', home.root, 'flow', '--check', ...files], { PAGE_URL: page.url });
    const ran = await runFlow(files);
    expect(checked.code, checked.stderr).toBe(2);
    expect(ran.code, ran.stderr).toBe(2);
    const problems = (stderr: string) => stderr.split('\n').filter((line) => line.startsWith(folder));
    expect(problems(checked.stderr)).toEqual(problems(ran.stderr));
    expect(problems(checked.stderr)).toEqual([
      expect.stringMatching(/batch\.yaml:2:1: unknown key concurent in a Midscene batch index; did you mean concurrent\?/),
      expect.stringMatching(/broken\.yaml:6:9: .*aiTapp/),
      expect.stringMatching(/cases\.yaml:1:1: is a Midscene Test file \(cases:\)/),
    ]);
    expect(model.requests).toHaveLength(0);
  });
});
