/**
 * Hostile computer_call items of OpenAI's computer tool (the openai-computer dialect): seeded answers with
 * valid actions and batches, unknown action types, missing fields, points far off the screen, numbers that
 * are not numbers, megabyte strings, batches of hundreds, missing call ids and junk safety checks. Through
 * the real loop (fake server, Responses adapter, fake operator), and, for volume, straight through the
 * adapter's reading of the item, the tool dispatch and the history's way back to the model. Nothing throws,
 * every turn ends with a valid status, no action lands off the screen, the step limit holds, the database
 * stays consistent.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import type { ResponseComputerToolCall } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { Message } from '../../src/shared/messages.js';
import { createAgentToolRegistry } from '../../src/main/agent/index.js';
import { OPENAI_COMPUTER_DIALECT } from '../../src/main/agent/dialects/openai-computer-dialect.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { MAX_BATCHED_ACTIONS } from '../../src/main/agent/tools/openai-computer-actions.js';
import { computerToolCall } from '../../src/main/llm/responses-computer-output.js';
import { toResponsesInput } from '../../src/main/llm/responses-input.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { HostileComputerCalls } from '../helpers/hostile-model-replies.js';
import { offScreenPoints, runHostileTurns, startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261122);
const SCREEN = { width: 96, height: 64 };
const MAX_STEPS = 6;
const LOOP_TURNS = 20;
const TURNS_PER_SESSION = 3;
const ENDLESS_TURNS = 3;
const DISPATCHED_CALLS = 2000;
const PIXELS = Buffer.from('fuzz png').toString('base64');
const EXPECTED_ERRORS = [/fuzzed model error/, /^The turn failed: The request needs about \d+ tokens even with every foldable image/];

let harness: AgentHarness;
let answers = 0;

beforeAll(async () => {
  console.log(`openai-computer fuzz seed: ${SEED} (replay with SIGHTLINE_FUZZ_SEED=${SEED})`);
  let actions = 0;
  harness = await startAgentHarness({
    operator: { screen: SCREEN, kind: 'browser', changesScreen: () => (actions += 1) % 5 === 0 },
    config: { model: { name: 'computer-use-preview', api: 'responses' }, agent: { maxSteps: MAX_STEPS }, perception: { maxImageEdge: 256 } },
    // A person who says yes to every other question: both ways through the gate get fuzzed.
    confirm: async () => ({ approved: (answers += 1) % 2 === 0, by: 'user' }),
  });
});

afterAll(async () => {
  await harness?.close();
});

describe(`hostile computer_call items (seed ${SEED})`, () => {
  it('survives hundreds of random answers through the real loop', { timeout: 180_000 }, async () => {
    const run = await runHostileTurns(harness, {
      source: new HostileComputerCalls(SEED, { screen: SCREEN }),
      maxSteps: MAX_STEPS,
      randomTurns: LOOP_TURNS,
      endlessTurns: ENDLESS_TURNS,
      turnsPerSession: TURNS_PER_SESSION,
      // One computer call may batch several actions.
      maxActionsPerTurn: MAX_STEPS * MAX_BATCHED_ACTIONS,
      // A turn may end in error only for the scripted HTTP errors, or because megabytes of arguments outgrew the
      // model's 8k window (a clean end, by design); a request the adapter could not build would be a bug.
      check: (outcome, turn) =>
        outcome.reason === 'error' && !EXPECTED_ERRORS.some((pattern) => pattern.test(outcome.summary ?? '')) ? [`turn ${turn.index}: ${outcome.summary}`] : [],
    });
    expect(run.failures, `seed ${SEED}`).toEqual([]);
    expect(harness.operator.executed.length).toBeGreaterThan(0);
    expect(offScreenPoints(harness.operator, SCREEN), `seed ${SEED}`).toEqual([]);
    expect(await storageProblems(harness.storage), `seed ${SEED}`).toEqual([]);
  });

  it('reads, dispatches and sends back thousands of random computer calls without a throw', { timeout: 120_000 }, async () => {
    const home = createTemporaryHome('sightline-fuzz-openai-computer');
    const storage = openHomeStorage(home);
    try {
      let actions = 0;
      const operator = new FakeOperator({ screen: SCREEN, kind: 'browser', changesScreen: () => (actions += 1) % 100 === 0 });
      const emit = createEventEmitter(() => undefined, (text) => text);
      const screen = new ScreenRecorder({ operator, storage, dedup: DEFAULT_CONFIG.perception.dedup, emit });
      let confirmations = 0;
      const registry = createAgentToolRegistry({
        operator,
        screen,
        policy: 'risky',
        confirm: async () => ({ approved: (confirmations += 1) % 3 === 0, by: 'flag' }),
        askUser: async () => undefined,
        dialect: OPENAI_COMPUTER_DIALECT,
        modelFamily: 'computer-use-preview',
      });
      const scope = await startDispatchTurn(storage, screen, emit, { operator: 'browser', model: 'computer-use-preview', size: SCREEN });

      const hostile = new HostileComputerCalls(SEED ^ 0x5eed, { screen: SCREEN, hugeStringChance: 0.001 });
      const failures: string[] = [];
      let malformed = 0;
      for (let index = 0; index < DISPATCHED_CALLS; index += 1) {
        const item = hostile.item();
        try {
          const call = computerToolCall(item as unknown as ResponseComputerToolCall, 'computer', index);
          const outcome = await dispatchToolCall(registry, call, scope);
          if (outcome.malformed) malformed += 1;
          if (outcome.result.parts.length === 0) failures.push(`call ${index} came back with no parts`);
          // The history goes back to the model: stored images get their pixels first, as the request builder does.
          const history: Message[] = [
            { role: 'assistant', parts: [], toolCalls: [call] },
            {
              role: 'tool',
              toolCallId: call.id,
              name: call.name,
              parts: outcome.result.parts.map((part) => (part.type === 'image' ? { ...part, mime: 'image/png', data: PIXELS } : part)),
              ...(outcome.result.isError === true ? { isError: true } : {}),
              ...(outcome.result.providerData === undefined ? {} : { providerData: outcome.result.providerData }),
            },
          ];
          toResponsesInput(history, 'computer-use-preview', { computerTool: { name: 'computer', toolType: 'computer_use_preview' } });
        } catch (error) {
          failures.push(`call ${index} (${JSON.stringify(item).slice(0, 100)}) threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(failures, `seed ${SEED}`).toEqual([]);
      expect(malformed).toBeGreaterThan(DISPATCHED_CALLS / 5);
      expect(operator.executed.length).toBeGreaterThan(DISPATCHED_CALLS / 10);
      expect(offScreenPoints(operator, SCREEN), `seed ${SEED}`).toEqual([]);
      storage.turns.end(scope.turnId, 'finished');
      expect(await storageProblems(storage), `seed ${SEED}`).toEqual([]);
    } finally {
      storage.close();
      home.remove();
    }
  });
});
