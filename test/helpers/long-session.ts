/**
 * A long scripted session through the real loop, for the long-session benchmark (bench/long-session.ts)
 * and its structural test: the real agent with compaction at each turn end, the real model adapter
 * against the fake model server, a fake operator whose screen changes at every click. Every `sampleEvery`
 * steps it records heap and RSS (after a full garbage collection), how long the loop took to build the
 * latest requests, and how many encoded images are alive: in the caches still reachable, and in total.
 *
 *   const samples = await runLongSession({ steps: 500, stepsPerTurn: 50, sampleEvery: 50 });
 */
import { setImmediate as nextTick } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { userText } from '../../src/shared/messages.js';
import { createAgent } from '../../src/main/agent/agent.js';
import { CompactionQueue, createCompactionHook } from '../../src/main/context/index.js';
import { EncodedImageCache } from '../../src/main/context/encoded-image-cache.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelAdapter } from '../../src/main/llm/model-adapter.js';
import { startFakeOpenAiServer, type FakeReply } from './fake-openai-server.js';
import { FakeOperator } from './fake-operator.js';
import { createTemporaryHome, openHomeStorage } from './seed.js';

export interface LongSessionOptions {
  /** Model calls in all (each one step). */
  steps: number;
  stepsPerTurn: number;
  sampleEvery: number;
  screen?: { width: number; height: number };
}

export interface LongSessionSample {
  step: number;
  turn: number;
  heapUsedMb: number;
  rssMb: number;
  /** Median time from a step's end to the next model call: building the request from the database. */
  buildMedianMs: number;
  /** Encoded-image caches not yet collected (one per turn while it runs; earlier turns' are garbage). */
  liveCaches: number;
  /** Encoded images held by those caches. */
  liveCachedImages: number;
  /** Encoded images held by the current turn's cache. */
  currentTurnCachedImages: number;
}

let collectGarbage: (() => void) | undefined;

/** A full, synchronous garbage collection, without starting node with --expose-gc. */
export function fullGarbageCollection(): void {
  if (collectGarbage === undefined) {
    v8.setFlagsFromString('--expose_gc');
    collectGarbage = vm.runInNewContext('gc') as () => void;
  }
  collectGarbage();
}

/** Every cache the agent made, held weakly: what the collector has not freed is still reachable. */
const caches: WeakRef<EncodedImageCache>[] = [];
let latestCache: WeakRef<EncodedImageCache> | undefined;
const originalResolve = EncodedImageCache.prototype.resolve;
/**
 * Encodings under way. The loop prepares the next request's reduced view while the model call runs, and a sample is
 * taken inside that call: it waits for them, so what it counts does not depend on which finished first.
 */
const resolving = new Set<Promise<unknown>>();
EncodedImageCache.prototype.resolve = function trackedResolve(this: EncodedImageCache, ...parameters) {
  if (latestCache?.deref() !== this) {
    latestCache = new WeakRef(this);
    caches.push(latestCache);
  }
  const result = originalResolve.apply(this, parameters);
  const settled: Promise<unknown> = result.then(
    (): boolean => resolving.delete(settled),
    (): boolean => resolving.delete(settled),
  );
  resolving.add(settled);
  return result;
};

export async function runLongSession(options: LongSessionOptions): Promise<LongSessionSample[]> {
  const server = await startFakeOpenAiServer();
  const home = createTemporaryHome('sightline-long-session');
  const storage = openHomeStorage(home);
  caches.length = 0;
  latestCache = undefined;
  try {
    let stepInTurn = 0;
    server.script(
      Array.from({ length: options.steps + 10 }, (_, index) => (): FakeReply => {
        stepInTurn += 1;
        const call =
          stepInTurn >= options.stepsPerTurn
            ? { name: 'finish', arguments: JSON.stringify({ summary: 'Done.', success: true }) }
            : { name: 'computer', arguments: JSON.stringify({ action: 'click', x: 10 + (index % 200), y: 10 + (index % 100) }) };
        return { type: 'answer', toolCalls: [call], usage: { inputTokens: 1000, outputTokens: 20 } };
      }),
    );
    const config: Config = {
      ...DEFAULT_CONFIG,
      model: { ...DEFAULT_CONFIG.model, name: 'gpt-4.1', baseUrl: server.baseUrl, apiKey: 'sk-long-session', maxRetries: 0 },
      agent: { ...DEFAULT_CONFIG.agent, maxSteps: options.stepsPerTurn },
    };
    const adapter = createModelAdapter(config.model);
    let stepEndedAt = performance.now();
    const buildTimes: number[] = [];
    let steps = 0;
    let turn = 0;
    const samples: LongSessionSample[] = [];
    const takeSample = async () => {
      while (resolving.size > 0) await Promise.all([...resolving]);
      for (let round = 0; round < 3; round += 1) {
        await nextTick();
        fullGarbageCollection();
      }
      const alive = caches.map((reference) => reference.deref()).filter((cache) => cache !== undefined);
      const memory = process.memoryUsage();
      samples.push({
        step: steps,
        turn,
        heapUsedMb: memory.heapUsed / 2 ** 20,
        rssMb: memory.rss / 2 ** 20,
        buildMedianMs: median(buildTimes.splice(0)),
        liveCaches: alive.length,
        liveCachedImages: alive.reduce((sum, cache) => sum + cache.size, 0),
        currentTurnCachedImages: latestCache?.deref()?.size ?? 0,
      });
    };
    const model: ModelAdapter = {
      profile: adapter.profile,
      complete: async (request, callOptions) => {
        buildTimes.push(performance.now() - stepEndedAt);
        const reply = await adapter.complete(request, callOptions);
        // The fake server keeps every request it served; that is the test's memory, not Sightline's.
        server.requests.length = 0;
        steps += 1;
        if (steps % options.sampleEvery === 0) await takeSample();
        return reply;
      },
    };
    const queue = new CompactionQueue({ storage });
    const agent = createAgent({
      storage,
      config,
      model,
      operator: new FakeOperator({ screen: options.screen ?? { width: 1280, height: 800 } }),
      confirm: async () => false,
      askUser: async () => undefined,
      onEvent: (event) => {
        if (event.type === 'step' || event.type === 'turn-started') stepEndedAt = performance.now();
      },
      turnEndHooks: [createCompactionHook(queue)],
      watchSettling: false,
    });
    let sessionId: string | undefined;
    while (steps < options.steps) {
      turn += 1;
      stepInTurn = 0;
      const outcome = await agent.runTurn({ request: userText(`Long session turn ${turn}`), ...(sessionId ? { sessionId } : {}) });
      if (outcome.status !== 'finished') throw new Error(`Turn ${turn} ended ${outcome.status}: ${outcome.summary ?? ''}`);
      sessionId = outcome.sessionId;
    }
    await queue.idle();
    return samples;
  } finally {
    await server.close();
    storage.close();
    home.remove();
  }
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((first, second) => first - second);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 0 ? (sorted[middle - 1]! + sorted[middle]!) / 2 : sorted[middle]!;
}
