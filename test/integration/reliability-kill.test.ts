/**
 * Kill -9 at many points of a session, and nothing is lost. A child process runs a scripted multi-turn
 * session (test/helpers/kill-session-child.ts) and SIGKILLs itself at one point: while capturing, with a
 * model call in flight, between an image's temp file and its rename, between an image's file and its row,
 * and at each stage of a compaction. After each kill, the home is opened the way every front end opens it
 * (openRuntime, which repairs), and then: integrity_check is ok, every image row's file is there (in blobs
 * or cold storage) with its sha256, no file lacks a row and no temp file is left, no turn is left running,
 * and the session continues with a new turn that finishes.
 *
 * One home carries on through every kill, so each recovery starts from what the earlier ones left.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { openRuntime } from '../../src/main/app/runtime.js';
import { createAgent } from '../../src/main/agent/agent.js';
import { CompactionQueue, createCompactionHook } from '../../src/main/context/index.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeReply } from '../helpers/fake-openai-server.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import type { ChildPlan, KillPoint } from '../helpers/kill-session-child.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';

const CHILD = resolve(import.meta.dirname, '../helpers/kill-session-child.ts');
/** Past every grace period of startup repair: a killed process's leftovers are old enough to clear. */
const LATER = () => new Date(Date.now() + 5 * 60_000);

const KILLS: { point: KillPoint; occurrence: number }[] = [
  { point: 'capture', occurrence: 1 },
  { point: 'model-call', occurrence: 2 },
  { point: 'image-write', occurrence: 3 },
  { point: 'image-row', occurrence: 2 },
  { point: 'capture', occurrence: 7 },
  { point: 'compaction-plan', occurrence: 1 },
  { point: 'compaction-move', occurrence: 2 },
  { point: 'compaction-rows', occurrence: 1 },
  { point: 'model-call', occurrence: 8 },
];

let model: FakeOpenAiServer;
let home: TemporaryHome;
let requestsServed = 0;

/** Four clicks then finish, over and over: turns of five screenshots, three of which compaction folds. */
function nextReply(): FakeReply {
  requestsServed += 1;
  const call =
    requestsServed % 5 === 0
      ? { name: 'finish', arguments: JSON.stringify({ summary: 'Done.', success: true }) }
      : { name: 'computer', arguments: JSON.stringify({ action: 'click', x: 10 + (requestsServed % 100), y: 20 }) };
  return { type: 'answer', toolCalls: [call] };
}

beforeAll(async () => {
  model = await startFakeOpenAiServer();
  model.script(Array.from({ length: 5000 }, () => nextReply));
  home = createTemporaryHome('sightline-kill');
});

afterAll(async () => {
  await model?.close();
  home?.remove();
});

function runChild(plan: ChildPlan): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(plan)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}

/** Opens the home as every front end does, checks it, and runs one more turn of the session in-process. */
async function recoverAndContinue(): Promise<{ sessionId: string; problems: string[]; abandoned: string[] }> {
  const runtime = await openRuntime({ home, config: ConfigSchema.parse({}), now: LATER() });
  try {
    const problems = await storageProblems(runtime.storage, { allowUnansweredToolCalls: true });
    const [latest] = runtime.storage.sessions.list({ limit: 1 });
    expect(latest).toBeDefined();
    const config = ConfigSchema.parse({ model: { name: 'gpt-4.1', baseUrl: model.baseUrl, apiKey: 'sk-kill-test', maxRetries: 0 } });
    const queue = new CompactionQueue({ storage: runtime.storage });
    const agent = createAgent({
      storage: runtime.storage,
      config,
      model: createModelAdapter(config.model),
      operator: new FakeOperator({ screen: { width: 160, height: 100 } }),
      confirm: async () => false,
      askUser: async () => undefined,
      turnEndHooks: [createCompactionHook(queue)],
      watchSettling: false,
    });
    // Start the next turn at a finish boundary so it has a known shape: four clicks and finish.
    while (requestsServed % 5 !== 0) nextReply();
    const outcome = await agent.runTurn({ request: userText('After the crash'), sessionId: latest!.id });
    await queue.idle();
    expect(outcome.status, outcome.summary).toBe('finished');
    problems.push(...(await storageProblems(runtime.storage, { allowUnansweredToolCalls: true, allowFilesWithoutRows: false })));
    return { sessionId: latest!.id, problems, abandoned: runtime.startup.abandonedTurnsEnded };
  } finally {
    runtime.close();
  }
}

describe('SIGKILL at any point of a session', () => {
  it.each(KILLS)('recovers from a kill at $point #$occurrence and the session continues', { timeout: 60_000 }, async (killAt) => {
    const sessions = await (async () => {
      const runtime = await openRuntime({ home, config: ConfigSchema.parse({}), now: LATER() });
      try {
        return runtime.storage.sessions.list({ limit: 1 });
      } finally {
        runtime.close();
      }
    })();
    const child = await runChild({ homeRoot: home.root, baseUrl: model.baseUrl, turns: 3, killAt, ...(sessions[0] ? { sessionId: sessions[0].id } : {}) });
    expect(child.signal, `the child was not killed at ${killAt.point}: exit ${child.code}\n${child.stderr}`).toBe('SIGKILL');

    const recovered = await recoverAndContinue();
    expect(recovered.problems).toEqual([]);
    if (['capture', 'model-call', 'image-write', 'image-row'].includes(killAt.point)) {
      // Killed mid-turn: that turn was left running, and startup ended it.
      expect(recovered.abandoned).toHaveLength(1);
    }
  });
});
