/**
 * Hostile UI-TARS output, thousands of times (test/helpers/hostile-ui-tars-answers.ts: truncated grammar,
 * unknown actions, boxes off the screen, non-numeric coordinates, megabyte strings, many actions in one
 * answer, junk). Straight through the wire's decoding for volume: nothing throws, every answer becomes at
 * least one call, and every call is either valid for the tool it names or marked `invalid`. Then through
 * the real loop with a UI-TARS model: every turn ends with a valid status, the step limit holds, nothing
 * lands off the screen, the database stays consistent.
 *
 * Replay a failure with SIGHTLINE_FUZZ_SEED=<seed> npx vitest run <this file>.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentToolRegistry } from '../../src/main/agent/agent-tool-registry.js';
import { dialectNamed } from '../../src/main/agent/dialects/dialects.js';
import { answerFromFinishContent, checkAnswer } from '../../src/main/agent/tools/answer-tool.js';
import type { Storage } from '../../src/main/storage/index.js';
import { decodeUiTarsReply, UI_TARS_FINISH_TOOL } from '../../src/main/llm/dialects/ui-tars/ui-tars-wire.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { FakeOperator } from '../helpers/fake-operator.js';
import { HostileUiTarsAnswers } from '../helpers/hostile-ui-tars-answers.js';
import { offScreenPoints, runHostileTurns } from '../helpers/hostile-turns.js';
import { storageProblems } from '../helpers/storage-consistency.js';
import { uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';

const SEED = Number(process.env.SIGHTLINE_FUZZ_SEED ?? 20261313);
const SCREEN = { width: 96, height: 64 };
const DECODED_ANSWERS = 4000;
const MAX_STEPS = 6;
const LOOP_TURNS = 16;
const ENDLESS_TURNS = 3;
const JUDGED_ANSWERS = 2000;

describe(`hostile UI-TARS output (seed ${SEED})`, () => {
  it('decodes thousands of hostile answers: no throw, never zero calls, every call valid or invalid', { timeout: 120_000 }, () => {
    console.log(`UI-TARS fuzz seed: ${SEED} (replay with SIGHTLINE_FUZZ_SEED=${SEED})`);
    const registry = createAgentToolRegistry({
      operator: new FakeOperator({ screen: SCREEN }),
      screen: undefined as never,
      policy: 'risky',
      confirm: async () => false,
      askUser: async () => undefined,
      dialect: dialectNamed('ui-tars'),
    });
    const hostile = new HostileUiTarsAnswers(SEED, SCREEN);
    const failures: string[] = [];
    let invalid = 0;
    let valid = 0;
    for (let index = 0; index < DECODED_ANSWERS; index += 1) {
      const text = hostile.answer();
      const shown = JSON.stringify(text.slice(0, 120));
      let calls;
      try {
        calls = decodeUiTarsReply({ role: 'assistant', parts: [{ type: 'text', text }], toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop', model: 'ui-tars' }).toolCalls;
      } catch (error) {
        failures.push(`answer ${index} ${shown} threw: ${error instanceof Error ? error.stack : String(error)}`);
        continue;
      }
      if (calls.length === 0) failures.push(`answer ${index} ${shown} decoded to no call`);
      for (const call of calls) {
        if (call.inText !== true) failures.push(`answer ${index}: a call not marked inText`);
        if (call.invalid !== undefined) {
          invalid += 1;
          if (call.invalid === '') failures.push(`answer ${index}: an empty invalid message`);
          continue;
        }
        const tool = registry.get(call.name);
        const checked = tool?.arguments.safeParse(JSON.parse(call.argumentsText));
        if (checked?.success !== true) failures.push(`answer ${index} ${shown}: ${call.name} ${call.argumentsText.slice(0, 120)} is neither valid nor invalid`);
        else valid += 1;
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(valid).toBeGreaterThan(DECODED_ANSWERS / 4);
    expect(invalid).toBeGreaterThan(DECODED_ANSWERS / 4);
  });

  it('reads and judges thousands of hostile finished(content=…) answers: no throw, each taken or sent back with a reason', { timeout: 120_000 }, () => {
    const hostile = new HostileUiTarsAnswers(SEED ^ 0x414e, SCREEN);
    const scope = { storage: { images: { get: () => undefined } } as unknown as Storage, sessionId: 'ses_fuzz', shown: undefined };
    const failures: string[] = [];
    let taken = 0;
    for (let index = 0; index < JUDGED_ANSWERS; index += 1) {
      const text = hostile.finishedAnswer();
      const shown = JSON.stringify(text.slice(0, 120));
      try {
        const calls = decodeUiTarsReply({ role: 'assistant', parts: [{ type: 'text', text }], toolCalls: [], usage: { inputTokens: 0, outputTokens: 0 }, finishReason: 'stop', model: 'ui-tars' }).toolCalls;
        for (const call of calls.filter((candidate) => candidate.name === UI_TARS_FINISH_TOOL && candidate.invalid === undefined)) {
          const summary = (JSON.parse(call.argumentsText) as { summary: unknown }).summary;
          const kind = index % 2 === 0 ? 'verdict' : 'value';
          const checked = checkAnswer(answerFromFinishContent(summary), kind === 'value' ? { kind, schema: { type: 'object' } } : { kind }, scope);
          if (checked.ok) taken += 1;
          else if (checked.error.trim() === '') failures.push(`answer ${index} ${shown}: sent back without a reason`);
        }
      } catch (error) {
        failures.push(`answer ${index} ${shown} threw: ${error instanceof Error ? error.stack : String(error)}`);
      }
    }
    expect(failures, `seed ${SEED}`).toEqual([]);
    expect(taken).toBeGreaterThan(0);
  });

  describe('through the real loop', () => {
    let harness: AgentHarness;
    beforeAll(async () => {
      let actions = 0;
      harness = await startAgentHarness({
        operator: { screen: SCREEN, changesScreen: () => (actions += 1) % 5 === 0 },
        config: { model: { name: 'ui-tars-1.5-7b' }, agent: { maxSteps: MAX_STEPS }, perception: { maxImageEdge: 256 } },
      });
    });
    afterAll(async () => {
      await harness?.close();
    });

    it('ends every turn cleanly, within the step limit, on the screen', { timeout: 120_000 }, async () => {
      const hostile = new HostileUiTarsAnswers(SEED ^ 0x7a75, SCREEN, 0.002);
      const run = await runHostileTurns(harness, {
        // UI-TARS answers in text: each answer goes out as the text of a reply, as vLLM serves it.
        source: { reply: () => uiTarsAnswer(hostile.answer()), endlessReply: () => uiTarsAnswer(hostile.endlessAnswer()) },
        maxSteps: MAX_STEPS,
        randomTurns: LOOP_TURNS,
        endlessTurns: ENDLESS_TURNS,
        turnsPerSession: 4,
      });
      expect(run.failures, `seed ${SEED}`).toEqual([]);
      expect(harness.operator.executed.length).toBeGreaterThan(ENDLESS_TURNS * MAX_STEPS);
      expect(offScreenPoints(harness.operator, SCREEN), `seed ${SEED}`).toEqual([]);
      expect(await storageProblems(harness.storage), `seed ${SEED}`).toEqual([]);
      // UI-TARS is never declared a tool, whatever it answered.
      expect(harness.server.requests.every((request) => (request.body as { tools?: unknown }).tools === undefined)).toBe(true);
    });
  });
});
