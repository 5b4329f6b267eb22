/**
 * Answer turns in the `ui-tars` dialect, through the real agent, the Chat Completions adapter and the fake server
 * answering UI-TARS text as vLLM does: the template asks for the answer's JSON in `finished(content=…)` and says how
 * to write it; the content is read as UI-TARS writes it (double quotes, `\'` for an apostrophe, braces inside the
 * strings, text around the object, `\n` in a string); an action while answering is told this step only looks; a
 * content that is no answer goes back once, and a second ends the turn as failed, saying why.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, contentText, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { assertion, extraction } from '../helpers/answer-turns.js';
import { clickAnswer, finishedAnswer, uiTarsAnswer } from '../fixtures/ui-tars/ui-tars-answers.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function startUiTars(): Promise<AgentHarness> {
  return startAgentHarness({ operator: { kind: 'browser', screen: { width: 1280, height: 800 } }, config: { model: { name: 'ui-tars-1.5-7b' } } });
}

/** What the model was last told, in the request it answered. */
const lastUserText = (index: number) => contentText(chatMessages(harness!.server, index).filter((message) => message.role === 'user').at(-1)!);

describe('answers in the ui-tars dialect', () => {
  it("asserts after acting: finished(content=…) holding JSON with an escaped apostrophe and braces in a string", async () => {
    harness = await startUiTars();
    harness.server.script([
      uiTarsAnswer(clickAnswer(320, 116)),
      uiTarsAnswer(finishedAnswer('Clicked the name field.')),
      uiTarsAnswer(`Thought: The field shows the focus ring.\nAction: finished(content='{"verdict": true, "reason": "It\\'s focused: the {name} field has the ring.", "evidence": []}')`),
    ]);
    const acted = await harness.agent.runTurn({ request: userText('Click the name field') });
    expect(acted.status).toBe('finished');
    const outcome = await assertion(harness.agent, acted.sessionId, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'verdict', value: true, reason: "It's focused: the {name} field has the ring." } });
    expect(outcome.answer!.evidence).toHaveLength(1);
    const request = harness.server.requests[2]!.body as { tools?: unknown; messages: Array<Record<string, unknown>> };
    expect(request.tools).toBeUndefined();
    const template = contentText(request.messages[1]!);
    expect(template).toContain('## User Instruction\nThe name field has the focus');
    expect(template).toContain('"required":["verdict","reason","evidence"]');
    expect(template).toContain("Write the JSON with double quotes. Inside content, write an apostrophe as \\' and a line break as \\n.");
    expect(template).toContain(`For example: finished(content='{"verdict":true,`);
  });

  it('extracts: an action is told the step only looks, text that is no JSON goes back once, then JSON among words is taken', async () => {
    harness = await startUiTars();
    harness.server.script([
      uiTarsAnswer(clickAnswer(600, 700, 'I click the total to read it.')),
      uiTarsAnswer(finishedAnswer('The total is $12.50.')),
      uiTarsAnswer(`Thought: The total line reads $12.50.\nAction: finished(content='Here it is: {"value": {"amount": 12.5}, "reason": "The total line reads:\\n$12.50 {incl. tax}", "evidence": []} (read off the cart)')`),
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'value', value: { amount: 12.5 }, reason: 'The total line reads:\n$12.50 {incl. tax}' } });
    expect(harness.operator.executed).toEqual([]);
    expect(lastUserText(1)).toContain("This step only looks at the screen: nothing was done. Answer with finished(content='…')");
    expect(lastUserText(2)).toContain('The answer does not fit, so it was not taken: the answer must be a JSON object.');
  });

  it('fails the turn on a second content that is no answer, saying why', async () => {
    harness = await startUiTars();
    harness.server.script([
      uiTarsAnswer(finishedAnswer('{"verdict": "yes", "reason": "The field is focused.", "evidence": []}')),
      uiTarsAnswer(finishedAnswer('Yes, it is focused.')),
    ]);
    const outcome = await assertion(harness.agent, undefined, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'failed', summary: "The model's answer did not fit twice: the answer must be a JSON object." });
    expect(lastUserText(1)).toContain('"verdict" must be true or false.');
    expect(harness.server.requests).toHaveLength(2);
  });
});
