/**
 * A step keeps its model call's prompt-cache reads and writes next to input and output (issue 14): the
 * row, the step event and the turn's sum all carry them, and a provider that reports no cache leaves them
 * unreported rather than zero.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/events.js';
import { AgentEventSchema } from '../../src/shared/events.js';
import { recordToolStep } from '../../src/main/agent/step-recording.js';
import { addUsage, emptyUsage } from '../../src/main/agent/token-usage-totals.js';
import type { Storage } from '../../src/main/storage/index.js';
import { seedStorage } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-step-cache-usage');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

describe('recording a step’s cache usage', () => {
  it('stores the cache reads and writes of the reply on its step and sends them with the step event', async () => {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 0 });
    const sessionId = seeded!.session.id;
    const turnId = seeded!.turns[0]!.turn.id;
    const events: AgentEvent[] = [];
    const usage = { inputTokens: 12_340, outputTokens: 210, cachedInputTokens: 11_900, cacheWriteInputTokens: 300 };
    const { step: record } = recordToolStep(storage, (event) => events.push(event), (text) => text, {
      sessionId,
      turnId,
      call: { id: 'call_1', name: 'computer', argumentsText: '{"action":"wait","seconds":1}' },
      arguments: { action: 'wait', seconds: 1 },
      result: { parts: [{ type: 'text', text: 'waited' }] },
      thought: undefined,
      shown: undefined,
      latencyMs: 10,
      usage,
    });
    expect(storage.steps.get(record.id)).toMatchObject({ inputTokens: 12_340, outputTokens: 210, cachedInputTokens: 11_900, cacheWriteInputTokens: 300 });
    expect(events).toHaveLength(1);
    expect(AgentEventSchema.parse(events[0])).toMatchObject({ type: 'step', usage });
    expect(storage.steps.tokenTotals(sessionId)).toMatchObject({ cachedInput: 11_900, cacheWriteInput: 300 });
  });
});

describe('summing usage over a turn', () => {
  it('adds cache reads and writes, keeping a count no call reported absent', () => {
    const plain = addUsage(emptyUsage(), { inputTokens: 100, outputTokens: 5 });
    expect(plain).toEqual({ inputTokens: 100, outputTokens: 5 });
    const written = addUsage(plain, { inputTokens: 2000, outputTokens: 10, cacheWriteInputTokens: 1800 });
    expect(written).toEqual({ inputTokens: 2100, outputTokens: 15, cacheWriteInputTokens: 1800 });
    const read = addUsage(written, { inputTokens: 2100, outputTokens: 12, cachedInputTokens: 1800, cacheWriteInputTokens: 250 });
    expect(read).toEqual({ inputTokens: 4200, outputTokens: 27, cachedInputTokens: 1800, cacheWriteInputTokens: 2050 });
  });
});
