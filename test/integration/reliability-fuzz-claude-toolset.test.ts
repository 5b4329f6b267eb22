/**
 * Hostile Claude replies with the computer toolset (the anthropic-computer dialect on computer_toolset_20260801):
 * seeded streams of Anthropic's events with member tool_use blocks (right and wrong members, odd or missing
 * toolset_name, broken or odd input JSON, points far off the screen), thinking and redacted_thinking blocks (with and
 * without signatures, odd deltas), blocks and deltas of unknown types. Thousands go through the adapter's reading of
 * a stream (AnthropicStreamAssembler), the registry's dispatch on a fake browser, batch by batch with the loop's halt
 * rule, and the history's way back (toAnthropicConversation). Nothing throws, no action lands off the screen, every
 * call of a batch is answered, member results carry toolset_name, thinking goes back as it was read, and the
 * database stays consistent.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import type { BetaRawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { Message } from '../../src/shared/messages.js';
import { createAgentToolRegistry } from '../../src/main/agent/index.js';
import { ANTHROPIC_COMPUTER_DIALECT } from '../../src/main/agent/dialects/anthropic-computer-dialect.js';
import { createEventEmitter } from '../../src/main/agent/event-emitter.js';
import { ScreenRecorder } from '../../src/main/agent/screen-recorder.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { COMPUTER_TOOLSET_HALT_TEXT, COMPUTER_TOOLSET_MEMBERS } from '../../src/main/llm/anthropic-computer-toolset.js';
import { toAnthropicConversation } from '../../src/main/llm/anthropic-messages.js';
import { AnthropicStreamAssembler } from '../../src/main/llm/anthropic-stream-assembler.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { seededRandom, type Random } from '../helpers/hostile-model-replies.js';
import { offScreenPoints, startDispatchTurn } from '../helpers/hostile-turns.js';
import { createTemporaryHome, openHomeStorage } from '../helpers/seed.js';
import { storageProblems } from '../helpers/storage-consistency.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261128);
const SCREEN = { width: 96, height: 64 };
const REPLIES = 2000;
const PIXELS = Buffer.from('fuzz png').toString('base64');

const NAMES = [...COMPUTER_TOOLSET_MEMBERS, 'computer', 'finish', 'get_history_image', 'launch_missiles', '', 'left_click '];
const ODD: unknown[] = [null, true, 0, -1, 1e9, -1e9, 1e308, '', '500', [], {}, [1, 2], 'click', 1.5, '💥', 'x'.repeat(5000)];

function value(random: Random, good: () => unknown): unknown {
  return random.chance(0.7) ? good() : random.pick(ODD);
}

function hostileInput(random: Random): string {
  if (random.chance(0.05)) return random.pick(['{"coordinate": [1, ', 'not json', '[]', 'null', '"x"']);
  const point = () => [random.integer(-50, 200), random.integer(-50, 150)];
  const input: Record<string, unknown> = {};
  if (random.chance(0.5)) input.coordinate = value(random, point);
  if (random.chance(0.2)) input.start_coordinate = value(random, point);
  if (random.chance(0.3)) input.text = value(random, () => random.pick(['Platform', 'ctrl+w', 'shift', 'Return', 'alt+F4', 'hunter2\n', '']));
  if (random.chance(0.2)) input.repeat = value(random, () => random.integer(-2, 120));
  if (random.chance(0.2)) input.scroll_direction = value(random, () => random.pick(['up', 'down', 'left', 'right', 'sideways']));
  if (random.chance(0.2)) input.scroll_amount = value(random, () => random.integer(-5, 500));
  if (random.chance(0.2)) input.duration = value(random, () => random.integer(-1, 400));
  if (random.chance(0.2)) input.region = value(random, () => [...point(), ...point()]);
  if (random.chance(0.05)) input.action = 'left_click';
  return JSON.stringify(input);
}

/** One reply as Anthropic's stream events, some of them not what the API would ever send. */
function hostileEvents(random: Random): Array<Record<string, unknown>> {
  const events: Array<Record<string, unknown>> = [{ type: 'message_start', message: { model: 'claude-opus-5-5', usage: { input_tokens: value(random, () => 900), output_tokens: 1 } } }];
  const blocks = random.integer(0, 6);
  for (let index = 0; index < blocks; index += 1) {
    const kind = random.integer(0, 9);
    if (kind <= 1) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      if (random.chance(0.8)) events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: value(random, () => 'Hmm.') } });
      if (random.chance(0.8)) events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: value(random, () => `sig_${random.integer(0, 999)}`) } });
    } else if (kind === 2) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data: value(random, () => 'b3BhcXVl') } });
    } else if (kind === 3) {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: value(random, () => 'I act.') } });
    } else if (kind === 4 && random.chance(0.3)) {
      events.push({ type: 'content_block_start', index, content_block: random.pick(ODD) });
      events.push({ type: 'content_block_delta', index, delta: { type: 'mystery_delta' } });
    } else {
      const toolsetName = random.chance(0.85) ? 'computer' : random.pick<unknown>(['browser', '', null, 7]);
      events.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: value(random, () => `toolu_${random.integer(0, 1e6)}`), name: value(random, () => random.pick(NAMES)), input: {}, toolset_name: toolsetName } });
      const text = hostileInput(random);
      const cut = random.integer(0, text.length);
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: text.slice(0, cut) } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: text.slice(cut) } });
    }
    events.push({ type: 'content_block_stop', index });
  }
  events.push({ type: 'message_delta', delta: { stop_reason: random.pick(['tool_use', 'end_turn', 'max_tokens', 'refusal', 'bogus']) }, usage: { output_tokens: value(random, () => 40) } });
  return events;
}

describe(`hostile Claude toolset replies (seed ${SEED})`, () => {
  it('reads, dispatches batch by batch and sends back thousands of hostile replies without a throw', { timeout: 240_000 }, async () => {
    console.log(`claude toolset fuzz seed: ${SEED} (replay with SIGHTLINE_FUZZ_SEED=${SEED})`);
    const home = createTemporaryHome('sightline-fuzz-claude-toolset');
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
        dialect: ANTHROPIC_COMPUTER_DIALECT,
        anthropicComputerTool: 'computer_toolset_20260801',
      });
      const scope = await startDispatchTurn(storage, screen, emit, { operator: 'browser', model: 'claude-opus-5-5', size: SCREEN });

      const random = seededRandom(SEED);
      const failures: string[] = [];
      let calls = 0;
      let halted = 0;
      for (let index = 0; index < REPLIES; index += 1) {
        const events = hostileEvents(random);
        try {
          const assembler = new AnthropicStreamAssembler('claude-opus-5-5', undefined);
          for (const event of events) assembler.add(event as unknown as BetaRawMessageStreamEvent);
          const message = assembler.finish();
          const history: Message[] = [{ role: 'user', parts: [{ type: 'text', text: 'Go.' }] }, { role: 'assistant', parts: message.parts, toolCalls: message.toolCalls }];
          let stop = false;
          for (const call of message.toolCalls) {
            calls += 1;
            // The loop's rule: after a failed call of a halting tool, the rest are answered without running.
            const outcome = stop
              ? { result: { parts: [{ type: 'text' as const, text: registry.get(call.name)?.haltsBatch ?? 'Not run.' }], isError: true } }
              : await dispatchToolCall(registry, call, scope);
            if (stop) halted += 1;
            if (outcome.result.isError === true && registry.get(call.name)?.haltsBatch !== undefined) stop = true;
            if (outcome.result.parts.length === 0) failures.push(`reply ${index}: ${call.name} came back with no parts`);
            history.push({
              role: 'tool',
              toolCallId: call.id,
              name: call.name,
              parts: outcome.result.parts.map((part) => (part.type === 'image' ? { ...part, mime: 'image/png', data: PIXELS } : part)),
              ...(outcome.result.isError === true ? { isError: true } : {}),
            });
          }
          const { messages } = toAnthropicConversation(history, { systemPrompt: false, messageIndexes: [] });
          JSON.stringify(messages);
          const sentCalls = messages.flatMap((turn) => (Array.isArray(turn.content) ? turn.content : [])).filter((block) => block.type === 'tool_use');
          const results = messages.flatMap((turn) => (Array.isArray(turn.content) ? turn.content : [])).filter((block) => block.type === 'tool_result');
          if (results.length !== sentCalls.length) failures.push(`reply ${index}: ${sentCalls.length} calls, ${results.length} results`);
          // Results come in the calls' order (ids may repeat in a hostile reply, never in the API's).
          for (const [position, call] of sentCalls.entries()) {
            const result = results[position] as { toolset_name?: string } | undefined;
            const wanted = 'toolset_name' in call ? call.toolset_name : undefined;
            if ((wanted ?? undefined) !== (result?.toolset_name ?? undefined)) failures.push(`reply ${index}: result ${position} does not echo its call's toolset_name`);
          }
          // Thinking goes back as it was read: the kept blocks, in order, before their calls.
          const kept = message.toolCalls.flatMap((call) => call.providerData?.anthropicThinking ?? []);
          const sentThinking = messages[1]?.content;
          const back = Array.isArray(sentThinking) ? sentThinking.filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking') : [];
          if (JSON.stringify(back) !== JSON.stringify(kept)) failures.push(`reply ${index}: thinking went back changed`);
        } catch (error) {
          failures.push(`reply ${index} (${JSON.stringify(events).slice(0, 120)}) threw: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      expect(failures.slice(0, 10), `seed ${SEED}`).toEqual([]);
      expect(calls).toBeGreaterThan(REPLIES);
      expect(halted).toBeGreaterThan(0);
      expect(operator.executed.length).toBeGreaterThan(REPLIES / 20);
      expect(offScreenPoints(operator, SCREEN), `seed ${SEED}`).toEqual([]);
      expect(COMPUTER_TOOLSET_HALT_TEXT).toMatch(/^Not executed/);
      storage.turns.end(scope.turnId, 'finished');
      expect(await storageProblems(storage), `seed ${SEED}`).toEqual([]);
    } finally {
      storage.close();
      home.remove();
    }
  });
});
