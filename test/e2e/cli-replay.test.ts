/**
 * `sightline flow FILE --replay` as a user runs it: a real process, a real Chromium on the local shop page, the fake
 * OpenAI server as the model. A recorded flow replays with no model call and says so in --out, the JUnit
 * properties and `sessions show`; a secret is typed from the environment of the replay; `--no-heal` exits 1 naming
 * the step and the region that differs; a replay killed mid-step leaves the last passing recording the one found.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { replayKeyOf } from '../../src/shared/replay.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { FIRST_ADD, NAME_INPUT, startReplayPage, type ReplayPageServer } from '../helpers/replay-page.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { runSightlineProcess, startSightline } from './support/sightline-process.js';

let shop: ReplayPageServer;

beforeAll(async () => {
  shop = await startReplayPage();
});

afterAll(async () => {
  await shop.close();
});

let model: FakeOpenAiServer;
let home: TemporaryHome;
let folder: string;
let file: string;

const SHOP_FLOW = `name: Shop
target: { operator: browser, url: "\${env.PAGE_URL}" }
secrets: [SHOPPER]
steps:
  - do: Add apples to the cart
  - do: Type \${SHOPPER} into the name field
`;

beforeEach(async () => {
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-replay-cli');
  folder = mkdtempSync(join(tmpdir(), 'sightline-replay-files-'));
  file = join(folder, 'shop.flow.yaml');
  writeFileSync(file, SHOP_FLOW);
  shop.setVariant('same');
  shop.reports.length = 0;
});

afterEach(async () => {
  await model.close();
  home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function flowArgs(extra: readonly string[]): string[] {
  return ['--home', home.root, 'flow', file, '--base-url', model.baseUrl, ...extra];
}

function runFlow(extra: readonly string[], shopper: string) {
  return runSightlineProcess(flowArgs(extra), { PAGE_URL: shop.url, SHOPPER: shopper });
}

const RECORDING = [
  { action: { action: 'click' as const, ...FIRST_ADD } },
  { finish: 'Added apples.' },
  { action: { action: 'click' as const, ...NAME_INPUT } },
  { action: { action: 'type' as const, text: '{{SHOPPER}}' } },
  { finish: 'Typed the name.' },
];

/** Records the flow with the scripted model; returns the recorded session. */
async function record(): Promise<string> {
  model.script(scriptedMoves(RECORDING));
  const out = join(folder, 'recorded.json');
  const run = await runFlow(['--out', out], 'Ada Lovelace');
  expect(run.code, run.stderr).toBe(0);
  shop.reports.length = 0;
  return (JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ sessionId: string }> }).flows[0]!.sessionId;
}

function typedName(): string | undefined {
  return shop.reports.filter((report) => report.kind === 'name').at(-1)?.value;
}

describe('sightline flow --replay', () => {
  it('replays the recorded flow with no model call, types the secret from the environment, and says so in every report', { timeout: 120_000 }, async () => {
    await record();
    const before = model.requests.length;
    const out = join(folder, 'out.json');
    const junit = join(folder, 'junit.xml');
    const run = await runFlow(['--replay', '--out', out, '--junit', junit], 'Grace Hopper');
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests.length - before).toBe(0);
    expect(shop.reports.filter((report) => report.kind === 'added').map((report) => report.value)).toEqual(['Apples']);
    expect(typedName()).toBe('Grace Hopper');
    expect(run.stderr).toContain('[replayed, 2 model calls saved]');
    expect(run.stderr).not.toContain('Grace');

    const report = JSON.parse(readFileSync(out, 'utf8')) as { flows: Array<{ sessionId: string; steps: Array<{ replay?: { mode: string; modelCalls: number; saved: { modelCalls: number } } }> }> };
    expect(report.flows[0]!.steps.map((step) => step.replay)).toEqual([
      expect.objectContaining({ mode: 'replayed', modelCalls: 0, saved: expect.objectContaining({ modelCalls: 2 }) }),
      expect.objectContaining({ mode: 'replayed', modelCalls: 0, saved: expect.objectContaining({ modelCalls: 3 }) }),
    ]);
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('replay: replayed');
    expect(xml).toContain('<property name="replay.saved.modelCalls" value="5"/>');
    expect(xml).not.toMatch(/Grace|Ada/);

    const shown = await runSightlineProcess(['--home', home.root, 'sessions', 'show', report.flows[0]!.sessionId]);
    expect(shown.stdout).toMatch(/replay: replayed from turn_[0-9a-f]+, 1 action replayed, 0 model calls \(2 saved against the recorded run\)/);

    // What was typed is stored as the placeholder, in the recording and in the replay alike.
    const storage = openHomeStorage(home);
    try {
      const actions = storage.turns.listBySession(report.flows[0]!.sessionId).flatMap((turn) => storage.steps.listByTurn(turn.id).map((step) => step.action));
      expect(actions).toContainEqual({ action: 'type', text: '{{SHOPPER}}' });
      expect(JSON.stringify(actions)).not.toMatch(/Grace|Ada/);
    } finally {
      storage.close();
    }
  });

  it('--no-heal exits 1 at the first step whose screen changed, naming the step and the region, and clicks nothing', { timeout: 120_000 }, async () => {
    await record();
    shop.setVariant('swapped');
    const before = model.requests.length;
    const run = await runFlow(['--replay', '--no-heal'], 'Ada Lovelace');
    expect(run.code, run.stderr).toBe(1);
    expect(model.requests.length - before).toBe(0);
    expect(run.stderr).toContain('step 1 (do, line 5) failed');
    expect(run.stderr).toContain('the region at 100,140 74×20 changed near the target');
    expect(shop.reports).toEqual([]);
  });

  it('--no-heal without --replay is a usage error', { timeout: 60_000 }, async () => {
    const run = await runFlow(['--no-heal'], 'Ada Lovelace');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--no-heal goes with --replay');
  });

  it('a replay killed while it heals leaves the last passing recording the one a replay finds', { timeout: 120_000 }, async () => {
    await record();
    const key = replayKeyOf('Shop', 'do', 'Add apples to the cart');
    const storage = openHomeStorage(home);
    const recorded = storage.turns.latestRecording(key)!.id;
    storage.close();

    shop.setVariant('swapped');
    // The healing model call never answers: the process is killed while the replay is under way.
    model.script(scriptedMoves([{ hang: true }]));
    const before = model.requests.length;
    const replay = startSightline(flowArgs(['--replay']), { PAGE_URL: shop.url, SHOPPER: 'Ada Lovelace' });
    await waitFor(() => model.requests.length > before, { description: 'the healing model call', timeoutMs: 60_000 });
    replay.child.kill('SIGKILL');
    expect((await replay.exited).signal).toBe('SIGKILL');

    const after = openHomeStorage(home);
    try {
      expect(after.turns.latestRecording(key)?.id).toBe(recorded);
    } finally {
      after.close();
    }
    // And a replay on the page as recorded still replays it, with no model.
    shop.setVariant('same');
    shop.reports.length = 0;
    const calls = model.requests.length;
    const again = await runFlow(['--replay'], 'Ada Lovelace');
    expect(again.code, again.stderr).toBe(0);
    expect(model.requests.length).toBe(calls);
  });
});

describe('sightline replay SESSION', () => {
  it("replays a recorded session's turns on the present page with no model call", { timeout: 120_000 }, async () => {
    const session = await record();
    const before = model.requests.length;
    const run = await runSightlineProcess(['--home', home.root, 'replay', session, '--url', shop.url, '--base-url', model.baseUrl], { SHOPPER: 'Grace Hopper' });
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests.length - before).toBe(0);
    expect(run.stderr).toContain('✓ turn 1 do: Add apples to the cart [replayed, 2 model calls saved]');
    expect(run.stderr).toContain('✓ turn 2 do: Type {{SHOPPER}} into the name field [replayed, 3 model calls saved]');
    expect(typedName()).toBe('Grace Hopper');
  });

  it('--no-heal stops at the first turn whose screen changed: exit 1, naming the turn and the region', { timeout: 120_000 }, async () => {
    const session = await record();
    shop.setVariant('swapped');
    const run = await runSightlineProcess(['--home', home.root, 'replay', session, '--url', shop.url, '--base-url', model.baseUrl, '--no-heal'], { SHOPPER: 'Ada Lovelace' });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('✗ turn 1 do: Add apples to the cart [diverged: before action 1 (click (330, 150)): the region at 100,140 74×20 changed near the target]');
    expect(run.stderr).not.toContain('turn 2');
    expect(shop.reports).toEqual([]);
  });

  it('a browser session without --url is a usage error naming the flag', { timeout: 120_000 }, async () => {
    const session = await record();
    const run = await runSightlineProcess(['--home', home.root, 'replay', session, '--base-url', model.baseUrl]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('give the page to replay it on with --url');
  });
});
