/**
 * Hostile output in Qwen's computer_use dialect, thousands of times (test/helpers/hostile-model-replies.ts,
 * HostileQwenReplies): truncated `<tool_call>` tags and JSON, unknown actions, points off the screen and
 * not numbers, megabyte strings, many calls in one answer, deep nesting; as text and as native calls.
 *
 * - The reader never throws, and every call it makes is valid JSON arguments or marked invalid.
 * - Every call, dispatched through the dialect's own registry, is run, refused or answered as malformed,
 *   without a throw or an action off the screen.
 * - Through the real loop: nothing throws out of runTurn, every turn ends with a valid status, the step
 *   limit holds, and the database stays consistent.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { createAgentToolRegistry } from '../../src/main/agent/index.js';
import { QWEN_COMPUTER_USE_DIALECT } from '../../src/main/agent/dialects/qwen-computer-use-dialect.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { QWEN_COMPUTER_USE_WIRE } from '../../src/main/llm/dialects/qwen-computer-use-wire.js';
import { MAX_TEXT_CALLS_PER_REPLY } from '../../src/main/llm/dialects/qwen-tool-call-text.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { HostileQwenReplies } from '../helpers/hostile-model-replies.js';
import { offScreenPoints, runHostileTurns, startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261122);
const SCREEN = { width: 96, height: 64 };
const MAX_STEPS = 6;
const LOOP_TURNS = 24;
const ENDLESS_TURNS = 3;
const READ_TEXTS = 2000;

let harness: AgentHarness;

beforeAll(async () => {
  console.log(`qwen reliability fuzz seed: ${SEED} (replay with SIGHTLINE_FUZZ_SEED=${SEED})`);
  let actions = 0;
  harness = await startAgentHarness({
    operator: { screen: SCREEN, changesScreen: () => (actions += 1) % 5 === 0 },
    config: { model: { name: 'qwen2.5-vl-7b-instruct' }, agent: { maxSteps: MAX_STEPS }, perception: { maxImageEdge: 256 } },
  });
});

afterAll(async () => {
  await harness?.close();
});

describe(`hostile Qwen output (seed ${SEED})`, () => {
  it('reads thousands of hostile answers; every call it makes is valid, invalid or malformed-answered', { timeout: 120_000 }, async () => {
    const home = createTemporaryHome('sightline-fuzz-qwen');
    const storage = openHomeStorage(home);
    try {
      let actions = 0;
      const operator = new FakeOperator({ screen: SCREEN, changesScreen: () => (actions += 1) % 100 === 0 });
      const emit = createEventEmitter(() => undefined, (text) => text);
      const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit });
      const registry = createAgentToolRegistry({
        operator,
        screen,
        policy: 'risky',
        confirm: async () => false,
        askUser: async () => undefined,
        dialect: QWEN_COMPUTER_USE_DIALECT,
        screenshotSize: SCREEN,
        coordinateSpace: 'pixels',
      });
      const scope = await startDispatchTurn(storage, screen, emit, { operator: 'desktop', model: 'qwen2.5-vl-7b-instruct', size: SCREEN });

      const hostile = new HostileQwenReplies(SEED, { screen: SCREEN, hugeStringChance: 0.002 });
      const failures: string[] = [];
      const outcomes = { valid: 0, invalid: 0, malformed: 0, ran: 0 };
      for (let index = 0; index < READ_TEXTS; index += 1) {
        const text = hostile.text();
        let calls;
        try {
          const decoded = QWEN_COMPUTER_USE_WIRE.decodeReply({
            role: 'assistant',
            parts: [{ type: 'text', text }],
            toolCalls: [],
            usage: { inputTokens: 1, outputTokens: 1 },
            finishReason: 'stop',
            model: 'qwen',
          });
          calls = decoded.toolCalls;
          QWEN_COMPUTER_USE_WIRE.encodeRequest({ messages: [{ role: 'assistant', parts: decoded.parts, toolCalls: calls }] });
        } catch (error) {
          failures.push(`text ${index} (${text.slice(0, 80)}) threw: ${error instanceof Error ? error.message : String(error)}`);
          continue;
        }
        if (calls.length > MAX_TEXT_CALLS_PER_REPLY + 1) failures.push(`text ${index}: ${calls.length} calls`);
        for (const call of calls) {
          if (call.inText !== true) failures.push(`text ${index}: a call not marked inText`);
          if (call.invalid === undefined) {
            const parsed = safeJson(call.argumentsText);
            if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) failures.push(`text ${index}: a valid call without an arguments object`);
            outcomes.valid += 1;
          } else {
            outcomes.invalid += 1;
          }
          try {
            const outcome = await dispatchToolCall(registry, call, scope);
            if (outcome.result.parts.length === 0) failures.push(`text ${index}: a call came back with no parts`);
            if (outcome.malformed) outcomes.malformed += 1;
            else outcomes.ran += 1;
          } catch (error) {
            failures.push(`text ${index} call ${call.argumentsText.slice(0, 80)} threw: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
      }
      expect(failures, `seed ${SEED}`).toEqual([]);
      // The mix is hostile but not hopeless: calls of every kind were made.
      expect(outcomes.valid).toBeGreaterThan(READ_TEXTS / 3);
      expect(outcomes.invalid).toBeGreaterThan(READ_TEXTS / 20);
      expect(outcomes.malformed).toBeGreaterThan(outcomes.invalid);
      expect(operator.executed.length).toBeGreaterThan(READ_TEXTS / 20);
      expect(offScreenPoints(operator, SCREEN), `seed ${SEED}`).toEqual([]);
      storage.turns.end(scope.turnId, 'finished');
      expect(await storageProblems(storage), `seed ${SEED}`).toEqual([]);
    } finally {
      storage.close();
      home.remove();
    }
  });

  it('survives hostile answers, text and native, through the real loop', { timeout: 120_000 }, async () => {
    const executedBefore = harness.operator.executed.length;
    const run = await runHostileTurns(harness, {
      source: new HostileQwenReplies(SEED ^ 0x5eed, { screen: SCREEN }),
      maxSteps: MAX_STEPS,
      randomTurns: LOOP_TURNS,
      endlessTurns: ENDLESS_TURNS,
      turnsPerSession: 3,
      // A turn that failed inside the loop (not a clean end) is a crash, whatever its status.
      check: (outcome, turn) => (outcome.summary?.startsWith('The turn failed') === true ? [`turn ${turn.index} crashed: ${outcome.summary.slice(0, 200)}`] : []),
    });
    expect(run.failures, `seed ${SEED}`).toEqual([]);
    expect(harness.operator.executed.length).toBeGreaterThan(executedBefore);
    expect(offScreenPoints(harness.operator, SCREEN), `seed ${SEED}`).toEqual([]);
    expect(await storageProblems(harness.storage), `seed ${SEED}`).toEqual([]);
  });
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
