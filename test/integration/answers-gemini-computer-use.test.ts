/**
 * Answer turns in the `gemini-computer-use` dialect, through the real agent, the Gemini adapter (@google/genai) and
 * the fake Gemini API, which answers a computer-use model asked without the computerUse tool with the API's 400: the
 * tool is declared with every predefined function of the model's set excluded, `answer` and the looking tools beside
 * it as function declarations; a reply without a call is nudged (while acting it would end the turn); an answer that
 * does not fit goes back once in its functionResponse.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { GEMINI_25_FUNCTIONS, GEMINI_35_FUNCTIONS } from '../../src/main/agent/tools/gemini-computer-translation.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { assertion, extraction, value, verdict } from '../helpers/answer-turns.js';
import { startFakeGeminiServer, type FakeGeminiReply, type FakeGeminiServer, type GeminiPart } from '../helpers/fake-gemini-server.js';

const COMPUTER_USE_MODEL = 'gemini-2.5-computer-use-preview-10-2025';

let gemini: FakeGeminiServer;
let harness: AgentHarness | undefined;
beforeEach(async () => {
  gemini = await startFakeGeminiServer();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await gemini.close();
});

function startGemini(model = COMPUTER_USE_MODEL): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { kind: 'browser', screen: { width: 1280, height: 800 } },
    config: { model: { name: model, baseUrl: gemini.baseUrl, googleApiKey: 'AIzaSy-test-0123456789' } },
  });
}

let calls = 0;
function call(name: string, args: Record<string, unknown>, text?: string): FakeGeminiReply {
  calls += 1;
  return { type: 'answer', ...(text === undefined ? {} : { text }), calls: [{ name, args, id: `fc_${calls}`, thoughtSignature: `c2ln${calls}` }] };
}

const partsOf = (index: number): GeminiPart[] => gemini.requests[index]!.body.contents.flatMap((content) => content.parts);

describe('answers in the gemini-computer-use dialect', () => {
  it('asserts after acting: computer_use declared with every function excluded, answer declared beside it', async () => {
    harness = await startGemini();
    gemini.script([
      call('click_at', { x: 250, y: 145 }),
      { type: 'answer', text: 'Clicked the name field.' },
      call('answer', verdict(true, 'The name field has the focus ring.')),
    ]);
    const acted = await harness.agent.runTurn({ request: userText('Click the name field') });
    expect(acted).toMatchObject({ status: 'finished', summary: 'Clicked the name field.' });
    const outcome = await assertion(harness.agent, acted.sessionId, 'The name field has the focus');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'verdict', value: true, reason: 'The name field has the focus ring.' } });
    const tools = gemini.requests[2]!.body.tools!;
    expect(tools[0]).toEqual({ computerUse: { environment: 'ENVIRONMENT_BROWSER', excludedPredefinedFunctions: [...GEMINI_25_FUNCTIONS] } });
    const declared = (tools[1]!.functionDeclarations as Array<{ name: string; parametersJsonSchema: Record<string, unknown> }>);
    expect(declared.map((declaration) => declaration.name)).toEqual(['answer', 'get_history_image', 'crop_image']);
    expect(declared[0]!.parametersJsonSchema).toMatchObject({ properties: { verdict: { type: 'boolean' } } });
    // The earlier turn's call stays in the history as Gemini made it, with its signature.
    expect(partsOf(2)).toContainEqual(expect.objectContaining({ functionCall: expect.objectContaining({ name: 'click_at' }), thoughtSignature: 'c2ln1' }));
    const system = JSON.stringify(gemini.requests[2]!.body.systemInstruction);
    expect(system).toContain('Call answer once you know');
    expect(system).not.toContain('computer_use');
  });

  it('nudges a reply without a call, sends a misfit back once, and takes the value that fits the schema', async () => {
    harness = await startGemini();
    gemini.script([
      { type: 'answer', text: 'The total is $12.50.' },
      call('answer', value({ amount: 12.5, currency: 'USD' }, 'The total reads $12.50.')),
      call('answer', value({ amount: 12.5 }, 'The total reads $12.50.')),
    ]);
    const outcome = await extraction(harness.agent, undefined, 'the cart total');

    expect(outcome).toMatchObject({ status: 'finished', answer: { kind: 'value', value: { amount: 12.5 } } });
    expect(JSON.stringify(partsOf(1))).toContain('You replied without calling answer');
    const response = partsOf(2).find((part) => part.functionResponse?.name === 'answer')!.functionResponse!;
    expect(JSON.stringify(response.response)).toContain('The answer does not fit, so it was not taken: \\"value\\" does not match its schema');
  });

  it("excludes Gemini 3.5's own functions for a 3.5 model", async () => {
    harness = await startGemini('gemini-3.5-flash');
    gemini.script([call('answer', verdict(false, 'No banner is shown.'))]);
    const outcome = await assertion(harness.agent, undefined, 'A cookie banner is visible');
    expect(outcome).toMatchObject({ status: 'finished', answer: { value: false } });
    expect(gemini.requests[0]!.body.tools![0]).toEqual({ computerUse: { environment: 'ENVIRONMENT_BROWSER', excludedPredefinedFunctions: [...GEMINI_35_FUNCTIONS] } });
  });
});
