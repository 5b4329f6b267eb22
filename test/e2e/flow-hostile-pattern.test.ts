/**
 * Issue 33, finding 8: a flow's schema pattern that backtracks catastrophically (`^(a+)+$`) against a model's
 * answer made to trigger it (`aaaa…a!`). JavaScript's engine spun on it synchronously, past ten minutes, deaf to
 * Ctrl+C. Here `sightline flow` runs as a user runs it, with the fake model giving that answer: the answer is
 * checked and refused, the model answers again and the flow passes; and a Ctrl+C sent after it stops the run
 * with the stop code (on a backtracking engine neither happens: the process spins, and ignores Ctrl+C).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { startSightline, type SightlineProcess } from './support/sightline-process.js';

/** Forty a's and a character the pattern cannot end on: about 2^40 steps for a backtracking engine. */
const HOSTILE = `${'a'.repeat(40)}!`;
const FLOW = `name: Hostile pattern
target: { operator: browser, url: "\${env.PAGE_URL}" }
steps:
  - extract: the code on the page
    as: code
    schema: { type: string, pattern: "^(a+)+$" }
`;

let page: CartPageServer;
let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;
let running: SightlineProcess | undefined;

beforeAll(async () => {
  page = await startCartPage();
});

afterAll(async () => {
  await page?.close();
});

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-hostile-pattern');
  folder = mkdtempSync(join(tmpdir(), 'sightline-hostile-pattern-'));
});

afterEach(async () => {
  // On a backtracking engine the process spins: it is ended here, by its pid, whatever the test saw.
  if (running !== undefined && running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
  await running?.exited.catch(() => undefined);
  running = undefined;
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function startFlow(args: readonly string[]): SightlineProcess {
  const file = join(folder, 'hostile.flow.yaml');
  writeFileSync(file, FLOW);
  running = startSightline(['--home', home.root, 'flow', file, '--base-url', model.baseUrl, ...args], { PAGE_URL: page.url });
  return running;
}

describe('a schema pattern runs in linear time on the model\'s answer', () => {
  it('the hostile answer is checked and refused, the next one passes, and the flow ends', { timeout: 180_000 }, async () => {
    model.script(
      scriptedMoves([
        { tool: 'answer', arguments: { value: HOSTILE, reason: 'The page shows it.', evidence: [] } },
        { tool: 'answer', arguments: { value: 'aaaa', reason: 'Read again: the code is aaaa.', evidence: [] } },
      ]),
    );
    const out = join(folder, 'out.json');
    const flow = startFlow(['--out', out]);
    // Told by the fake model, not by a clock: the refusal reached the model, which was asked again.
    await waitFor(() => model.requests.length >= 2, { description: 'the model asked again after the hostile answer was refused', timeoutMs: 120_000 });
    expect(JSON.stringify(model.requests[1])).toContain('does not match its schema');
    const exit = await flow.exited;
    expect(exit.code, exit.stderr).toBe(0);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ steps: Array<{ status: string; value?: unknown }> }> };
    expect(report.flows[0]!.steps[0]).toMatchObject({ status: 'passed', value: 'aaaa' });
  });

  it('Ctrl+C after the hostile answer stops the run: exit 3, the step stopped', { timeout: 180_000 }, async () => {
    model.script(
      scriptedMoves([
        { tool: 'answer', arguments: { value: HOSTILE, reason: 'The page shows it.', evidence: [] } },
        // The refusal's answer never comes: only Ctrl+C ends the step.
        { hang: true },
      ]),
    );
    const out = join(folder, 'out.json');
    const flow = startFlow(['--out', out]);
    // The hostile answer was checked (a spinning check never asks again), and the run goes on: now Ctrl+C.
    await waitFor(() => model.requests.length >= 2, { description: 'the model asked again after the hostile answer was refused', timeoutMs: 120_000 });
    flow.child.kill('SIGINT');
    const exit = await flow.exited;
    expect(exit.code, exit.stderr).toBe(3);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { status: string; flows: Array<{ steps: Array<{ status: string }> }> };
    expect(report.status).toBe('stopped');
    expect(report.flows[0]!.steps[0]!.status).toBe('stopped');
  });
});
