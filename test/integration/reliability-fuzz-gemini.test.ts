/**
 * Hostile Gemini replies (the gemini-computer-use dialect): seeded GenerateContentResponse chunks with valid and
 * broken function calls of Google's predefined functions (both sets), unknown functions, missing or odd
 * arguments, points far off the grid, junk safety decisions, parts that are not objects, candidates that are not
 * lists, odd finish reasons and usage. Thousands go straight through the adapter's reading of a reply
 * (GeminiReplyAssembler), the tool dispatch on a fake browser and the history's way back (toGeminiConversation);
 * a few hundred go through the real @google/genai client and adapter against the fake Gemini API. Nothing throws
 * but a model error, no action lands off the screen, the database stays consistent.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import type { GenerateContentResponse } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { Message } from '../../src/shared/messages.js';
import { createAgentToolRegistry } from '../../src/main/agent/index.js';
import { GEMINI_COMPUTER_USE_DIALECT } from '../../src/main/agent/dialects/gemini-computer-use-dialect.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { GEMINI_25_FUNCTIONS, GEMINI_35_FUNCTIONS } from '../../src/main/agent/tools/gemini-computer-translation.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { toGeminiConversation } from '../../src/main/llm/gemini-contents.js';
import { GeminiReplyAssembler } from '../../src/main/llm/gemini-reply.js';
import { ModelError } from '../../src/main/llm/model-errors.js';
import { startFakeGeminiServer, type FakeGeminiServer } from '../helpers/fake-gemini-server.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { seededRandom, type Random } from '../helpers/hostile-model-replies.js';
import { offScreenPoints, startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261127);
const SCREEN = { width: 96, height: 64 };
const REPLIES = 3000;
const CLIENT_REPLIES = 300;
const PIXELS = Buffer.from('fuzz png').toString('base64');

const FUNCTIONS = [...new Set([...GEMINI_25_FUNCTIONS, ...GEMINI_35_FUNCTIONS, 'get_history_image', 'crop_image', 'ask_user', 'launch_missiles', '', 'click_at '])];
const ODD: unknown[] = [null, true, 0, -1, 1e9, -1e9, 1e308, '', '500', [], {}, [1, 2], 'click', 1.5, '💥', 'x'.repeat(5000)];
const FINISH = ['STOP', 'MAX_TOKENS', 'SAFETY', 'MALFORMED_FUNCTION_CALL', 'OTHER', 'UNEXPECTED_TOOL_CALL', 'BOGUS', 7, null];

function value(random: Random, good: () => unknown): unknown {
  return random.chance(0.7) ? good() : random.pick(ODD);
}

function hostileArgs(random: Random): unknown {
  if (random.chance(0.05)) return random.pick(ODD);
  const point = () => random.integer(-50, 1100);
  const args: Record<string, unknown> = {};
  for (const field of ['x', 'y', 'destination_x', 'destination_y', 'start_x', 'start_y', 'end_x', 'end_y']) if (random.chance(0.5)) args[field] = value(random, point);
  if (random.chance(0.4)) args.text = value(random, () => random.pick(['Platform', 'hunter2\n', 'a\nb\nc', '']));
  if (random.chance(0.3)) args.keys = value(random, () => random.pick(['Control+W', 'ctrl+a', 'Alt+F4', 'Enter', ['Control', 'c'], '++']));
  if (random.chance(0.2)) args.key = value(random, () => random.pick(['Enter', 'Escape', 'F13']));
  if (random.chance(0.3)) args.direction = value(random, () => random.pick(['up', 'down', 'left', 'right', 'sideways']));
  if (random.chance(0.2)) args.magnitude = value(random, () => random.integer(-10, 5000));
  if (random.chance(0.2)) args.seconds = value(random, () => random.integer(-1, 100));
  if (random.chance(0.2)) args.press_enter = value(random, () => random.chance(0.5));
  if (random.chance(0.2)) args.intent = value(random, () => 'Because.');
  if (random.chance(0.15)) args.safety_decision = value(random, () => ({ decision: random.pick(['require_confirmation', 'regular', 'blocked']), explanation: 'Risky.' }));
  if (random.chance(0.1)) args.image_id = value(random, () => 'img_000000000000');
  return args;
}

/** One reply as chunks, some of them not what the API would ever send. */
function hostileChunks(random: Random): unknown[] {
  const chunks: unknown[] = [];
  const count = random.integer(1, 4);
  for (let index = 0; index < count; index += 1) {
    if (random.chance(0.05)) {
      chunks.push(random.pick(ODD));
      continue;
    }
    const parts: unknown[] = [];
    for (let part = random.integer(0, 4); part > 0; part -= 1) {
      if (random.chance(0.05)) parts.push(random.pick(ODD));
      else if (random.chance(0.5)) {
        const call: Record<string, unknown> = { name: value(random, () => random.pick(FUNCTIONS)), args: hostileArgs(random) };
        if (random.chance(0.3)) call.id = value(random, () => `fc_${random.integer(0, 99)}`);
        parts.push({ functionCall: random.chance(0.03) ? random.pick(ODD) : call, ...(random.chance(0.3) ? { thoughtSignature: value(random, () => 'c2ln') } : {}) });
      } else {
        parts.push({ text: value(random, () => 'I act.'), ...(random.chance(0.2) ? { thought: true } : {}), ...(random.chance(0.2) ? { thoughtSignature: 'c2ln' } : {}) });
      }
    }
    const candidate = random.chance(0.05) ? random.pick(ODD) : { content: random.chance(0.05) ? random.pick(ODD) : { role: 'model', parts }, finishReason: random.pick(FINISH) };
    chunks.push({
      candidates: random.chance(0.05) ? random.pick(ODD) : [candidate],
      ...(random.chance(0.5) ? { usageMetadata: { promptTokenCount: value(random, () => 900), candidatesTokenCount: value(random, () => 20), cachedContentTokenCount: value(random, () => 300) } } : {}),
      ...(random.chance(0.05) ? { promptFeedback: { blockReason: 'SAFETY' } } : {}),
    });
  }
  return chunks;
}

let server: FakeGeminiServer;

beforeAll(async () => {
  console.log(`gemini fuzz seed: ${SEED} (replay with SIGHTLINE_FUZZ_SEED=${SEED})`);
  server = await startFakeGeminiServer();
});
afterAll(async () => {
  await server.close();
});

describe(`hostile Gemini replies (seed ${SEED})`, () => {
  it('reads, dispatches and sends back thousands of hostile replies without a throw', { timeout: 180_000 }, async () => {
    const home = createTemporaryHome('sightline-fuzz-gemini');
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
        dialect: GEMINI_COMPUTER_USE_DIALECT,
        coordinateSpace: 'normalized-1000',
        modelFamily: 'gemini-computer-use',
      });
      const scope = await startDispatchTurn(storage, screen, emit, { operator: 'browser', model: 'gemini-2.5-computer-use-preview-10-2025', size: SCREEN });
      const shown = scope.shown === undefined ? undefined : { ...scope.shown, view: { ...scope.shown.view, coordinateSpace: 'normalized-1000' as const } };
      const geminiScope = { ...scope, shown };

      const random = seededRandom(SEED);
      const failures: string[] = [];
      let calls = 0;
      for (let index = 0; index < REPLIES; index += 1) {
        const chunks = hostileChunks(random);
        try {
          const assembler = new GeminiReplyAssembler('gemini-2.5-computer-use-preview-10-2025');
          for (const chunk of chunks) if (typeof chunk === 'object' && chunk !== null && !Array.isArray(chunk)) assembler.add(chunk as GenerateContentResponse);
          const { message } = assembler.finish();
          const history: Message[] = [{ role: 'assistant', parts: message.parts, toolCalls: message.toolCalls }];
          for (const call of message.toolCalls) {
            calls += 1;
            const outcome = await dispatchToolCall(registry, call, geminiScope);
            if (outcome.result.parts.length === 0) failures.push(`reply ${index}: ${call.name} came back with no parts`);
            history.push({
              role: 'tool',
              toolCallId: call.id,
              name: call.name,
              parts: outcome.result.parts.map((part) => (part.type === 'image' ? { ...part, mime: 'image/png', data: PIXELS } : part)),
              ...(outcome.result.isError === true ? { isError: true } : {}),
              ...(outcome.result.providerData === undefined ? {} : { providerData: outcome.result.providerData }),
            });
          }
          const { contents } = toGeminiConversation(history, { mediaInFunctionResponses: true });
          // Sendable: JSON, with every call and response named.
          JSON.stringify(contents);
        } catch (error) {
          failures.push(`reply ${index} (${JSON.stringify(chunks).slice(0, 120)}) threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(failures, `seed ${SEED}`).toEqual([]);
      expect(calls).toBeGreaterThan(REPLIES);
      expect(operator.executed.length).toBeGreaterThan(REPLIES / 20);
      expect(offScreenPoints(operator, SCREEN), `seed ${SEED}`).toEqual([]);
      storage.turns.end(scope.turnId, 'finished');
      expect(await storageProblems(storage), `seed ${SEED}`).toEqual([]);
    } finally {
      storage.close();
      home.remove();
    }
  });

  it('the real client and adapter read hundreds of hostile streams, failing only with model errors', { timeout: 120_000 }, async () => {
    const adapter = createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'gemini-3-flash-preview', googleApiKey: 'AIza-fuzz', baseUrl: server.baseUrl, maxRetries: 0 });
    const random = seededRandom(SEED ^ 0x6e6d);
    const failures: string[] = [];
    let answered = 0;
    for (let index = 0; index < CLIENT_REPLIES; index += 1) {
      const chunks = hostileChunks(random);
      // A MALFORMED_FUNCTION_CALL reply is asked for again: the same chunks answer the retry.
      server.script([{ type: 'chunks', chunks }, { type: 'chunks', chunks }]);
      try {
        const reply = await adapter.complete({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'Go.' }] }] });
        answered += 1;
        for (const call of reply.toolCalls) if (call.name === '') failures.push(`reply ${index}: a call without a name`);
      } catch (error) {
        if (!(error instanceof ModelError)) failures.push(`reply ${index} threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(answered).toBeGreaterThan(CLIENT_REPLIES / 2);
  });
});
