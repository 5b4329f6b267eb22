/**
 * A child process for the kill test: a scripted multi-turn session (the real agent, storage with its
 * compaction turn-end hook, the real model adapter against the parent's fake model server, a fake
 * operator) that SIGKILLs itself the n-th time it reaches a named point. The points are the existing
 * test seams, so nothing in src/ pays for them:
 *
 *   capture           the operator is taking a screenshot
 *   model-call        a model request is on the wire (killed while it is in flight)
 *   image-write       an image's temp file is written and fsynced, not yet renamed (blob store seam)
 *   image-row         an image's file is in place, its row not yet inserted
 *   compaction-plan   a compaction's plan is committed, no file moved yet (compaction seams)
 *   compaction-move   a folded image's file has moved to cold storage
 *   compaction-rows   every file moved, the rows not yet updated
 *
 * Usage: node --import tsx kill-session-child.ts '<json ChildPlan>'
 * Prints one JSON line per ended turn; exits 0 if it was never killed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { createAgent } from '../../src/main/agent/agent.js';
import { CompactionQueue, createCompactionHook } from '../../src/main/context/index.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelAdapter } from '../../src/main/llm/model-adapter.js';
import { homeAt } from '../../src/main/config/home.js';
import { openStorage } from '../../src/main/storage/index.js';
import { FakeOperator } from './fake-operator.js';

export const KILL_POINTS = ['capture', 'model-call', 'image-write', 'image-row', 'compaction-plan', 'compaction-move', 'compaction-rows'] as const;
export type KillPoint = (typeof KILL_POINTS)[number];

export interface ChildPlan {
  homeRoot: string;
  baseUrl: string;
  turns: number;
  sessionId?: string;
  killAt?: { point: KillPoint; occurrence: number };
}

const plan = JSON.parse(process.argv[2] ?? '{}') as ChildPlan;
const reached = new Map<KillPoint, number>();

/** Counts a visit to the point; true when this visit is the one to die at. */
function isKillVisit(point: KillPoint): boolean {
  const count = (reached.get(point) ?? 0) + 1;
  reached.set(point, count);
  return plan.killAt?.point === point && plan.killAt.occurrence === count;
}

function reach(point: KillPoint): void {
  if (isKillVisit(point)) process.kill(process.pid, 'SIGKILL');
}

const home = homeAt(plan.homeRoot);
const storage = openStorage({
  databaseFile: home.databaseFile,
  blobsDirectory: home.blobsDirectory,
  coldStorageDirectory: home.coldStorageDirectory,
  blobFaults: { beforeRename: () => reach('image-write') },
});
const writeBlob = storage.blobs.write.bind(storage.blobs);
storage.blobs.write = async (bytes, mime) => {
  const written = await writeBlob(bytes, mime);
  reach('image-row');
  return written;
};

const config: Config = {
  ...DEFAULT_CONFIG,
  model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: plan.baseUrl, apiKey: 'sk-kill-test', maxRetries: 0 },
};
const adapter = createModelAdapter(config.model);
const model: ModelAdapter = {
  profile: adapter.profile,
  complete: async (request, options) => {
    const killNow = isKillVisit('model-call');
    const pending = adapter.complete(request, options);
    if (killNow) {
      // Let the request reach the server first, so the process dies with a call in flight.
      await sleep(30);
      process.kill(process.pid, 'SIGKILL');
    }
    return pending;
  },
};

class KillableOperator extends FakeOperator {
  override async capture(): ReturnType<FakeOperator['capture']> {
    const frame = await super.capture();
    reach('capture');
    return frame;
  }
}

const queue = new CompactionQueue({
  storage,
  seams: {
    afterPlan: () => reach('compaction-plan'),
    afterFileMoved: () => reach('compaction-move'),
    beforeRowUpdates: () => reach('compaction-rows'),
  },
});
const agent = createAgent({
  storage,
  config,
  model,
  operator: new KillableOperator({ screen: { width: 160, height: 100 } }),
  confirm: async () => false,
  askUser: async () => undefined,
  turnEndHooks: [createCompactionHook(queue)],
  watchSettling: false,
});

let sessionId = plan.sessionId;
for (let index = 0; index < plan.turns; index += 1) {
  const outcome = await agent.runTurn({ request: userText(`Kill test turn ${index + 1}`), ...(sessionId ? { sessionId } : {}) });
  sessionId = outcome.sessionId;
  process.stdout.write(`${JSON.stringify({ sessionId, turnId: outcome.turnId, status: outcome.status })}\n`);
}
await queue.idle();
storage.close();
