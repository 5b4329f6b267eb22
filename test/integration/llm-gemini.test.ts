/**
 * The Gemini adapter through the real @google/genai client against the fake Gemini API: streamed and plain
 * generateContent, the key only as x-goog-api-key and never in an error, retries on 429 and 5xx, usage with the
 * implicit cache's reads, a MALFORMED_FUNCTION_CALL asked for once more and then answered as malformed, and
 * function responses in Gemini's shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { callCost } from '../../src/shared/cost.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import { GeminiAdapter } from '../../src/main/llm/gemini-adapter.js';
import { MALFORMED_FUNCTION_CALL_NAME } from '../../src/main/llm/gemini-contents.js';
import { ModelCallError, ModelConfigurationError } from '../../src/main/llm/model-errors.js';
import { startFakeGeminiServer, type FakeGeminiServer } from '../helpers/fake-gemini-server.js';

const KEY = 'AIzaSyTEST-0123456789abcdefghijklmnop';
let server: FakeGeminiServer;

beforeAll(async () => {
  server = await startFakeGeminiServer({ apiKey: KEY });
});
afterAll(async () => {
  await server.close();
});

function adapter(overrides: Partial<typeof DEFAULT_CONFIG.model> = {}) {
  return createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'gemini-3-flash-preview', googleApiKey: KEY, baseUrl: server.baseUrl, maxRetries: 2, ...overrides });
}

const ASK = { messages: [{ role: 'system' as const, parts: [{ type: 'text' as const, text: 'Be brief.' }] }, { role: 'user' as const, parts: [{ type: 'text' as const, text: 'Click it.' }] }] };

describe('the Gemini adapter', () => {
  it('streams a reply with text and calls, reading usage with the cached tokens', async () => {
    server.requests.length = 0;
    server.script([
      {
        type: 'answer',
        text: 'Clicking.',
        calls: [{ name: 'click', args: { x: 1, y: 2, intent: 'Click.' }, id: 'fc_1', thoughtSignature: 'c2ln' }],
        usage: { promptTokenCount: 4000, candidatesTokenCount: 50, thoughtsTokenCount: 30, cachedContentTokenCount: 3000 },
      },
    ]);
    const model = adapter();
    const deltas: string[] = [];
    const reply = await model.complete(ASK, { onEvent: (event) => event.type === 'text-delta' && deltas.push(event.text) });
    expect(deltas.join('')).toBe('Clicking.');
    expect(reply.parts).toEqual([{ type: 'text', text: 'Clicking.' }]);
    expect(reply.toolCalls).toEqual([{ id: 'fc_1', name: 'click', argumentsText: '{"x":1,"y":2,"intent":"Click."}', providerData: { itemId: 'fc_1', thoughtSignature: 'c2ln' } }]);
    expect(reply.usage).toEqual({ inputTokens: 4000, outputTokens: 80, cachedInputTokens: 3000 });
    expect(reply.finishReason).toBe('tool-calls');
    // Priced from the profile's table: 1000 uncached at $0.50, 3000 cached at $0.05, 80 out at $3 per million.
    expect(callCost(reply.usage, model.profile.pricing!)).toBeCloseTo((1000 * 0.5 + 3000 * 0.05 + 80 * 3) / 1e6, 12);
    const request = server.requests[0]!;
    expect(request.stream).toBe(true);
    expect(request.path).toBe('/v1beta/models/gemini-3-flash-preview:streamGenerateContent');
    expect(request.headers['x-goog-api-key']).toBe(KEY);
    expect(request.body.systemInstruction).toEqual({ parts: [{ text: 'Be brief.' }] });
  });

  it('asks with a plain generateContent when not streaming', async () => {
    server.requests.length = 0;
    server.script([{ type: 'answer', text: 'Done.' }]);
    const base = adapter() as GeminiAdapter;
    const plain = new GeminiAdapter({ ...(base as unknown as { settings: ConstructorParameters<typeof GeminiAdapter>[0] }).settings, stream: false });
    const reply = await plain.complete(ASK);
    expect(reply.parts).toEqual([{ type: 'text', text: 'Done.' }]);
    expect(reply.finishReason).toBe('stop');
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-3-flash-preview:generateContent');
  });

  it('retries 429 and 503, and names the endpoint without the key when it gives up', async () => {
    server.requests.length = 0;
    server.script([{ type: 'error', status: 429 }, { type: 'error', status: 503 }, { type: 'answer', text: 'Finally.' }]);
    expect((await adapter().complete(ASK)).parts).toEqual([{ type: 'text', text: 'Finally.' }]);
    expect(server.requests).toHaveLength(3);

    server.script([{ type: 'error', status: 400, message: `API key not valid: ${KEY}` }]);
    const failure = await adapter().complete(ASK).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ModelCallError);
    expect((failure as Error).message).toMatch(/answered HTTP 400/);
    expect((failure as Error).message).not.toContain(KEY);
  });

  it('asks once more after MALFORMED_FUNCTION_CALL, then answers it as malformed', async () => {
    server.requests.length = 0;
    server.script([
      { type: 'answer', finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: click_at(x=' },
      { type: 'answer', text: 'Recovered.', calls: [{ name: 'click_at', args: { x: 1, y: 1 } }] },
    ]);
    expect((await adapter().complete(ASK)).toolCalls.map((call) => call.name)).toEqual(['click_at']);
    expect(server.requests).toHaveLength(2);

    server.script([
      { type: 'answer', finishReason: 'MALFORMED_FUNCTION_CALL' },
      { type: 'answer', finishReason: 'MALFORMED_FUNCTION_CALL', finishMessage: 'Malformed function call: click_at(x=' },
    ]);
    const reply = await adapter().complete(ASK);
    // The client keeps no finishMessage for the Gemini API, so the model is told the API's reason by its name.
    expect(reply.toolCalls).toEqual([expect.objectContaining({ name: MALFORMED_FUNCTION_CALL_NAME, invalid: expect.stringMatching(/^MALFORMED_FUNCTION_CALL/) })]);
    expect(server.requests).toHaveLength(4);
  });

  it('answers calls as function responses of their names, errors in `error`, images inline', async () => {
    server.requests.length = 0;
    server.script([{ type: 'answer', text: 'Ok.' }]);
    await adapter().complete({
      messages: [
        { role: 'user', parts: [{ type: 'text', text: 'Go.' }] },
        { role: 'assistant', parts: [], toolCalls: [{ id: 'fc_9', name: 'launch', argumentsText: '{"x":', providerData: { itemId: 'fc_9' } }, { id: 'local', name: 'click_at', argumentsText: '{"x":1,"y":2}' }] },
        { role: 'tool', toolCallId: 'fc_9', name: 'launch', parts: [{ type: 'text', text: 'There is no tool named "launch".' }], isError: true },
        { role: 'tool', toolCallId: 'local', name: 'click_at', parts: [{ type: 'text', text: 'clicked' }, { type: 'image', mime: 'image/png', data: 'cG5n' }], providerData: { currentUrl: 'http://page/' } },
      ],
    });
    const [, model, results] = server.requests[0]!.body.contents;
    expect(model!.parts).toEqual([
      { functionCall: { name: 'launch', args: { unparsed_arguments: '{"x":' }, id: 'fc_9' } },
      { functionCall: { name: 'click_at', args: { x: 1, y: 2 } } },
    ]);
    expect(results!.parts).toEqual([
      { functionResponse: { name: 'launch', id: 'fc_9', response: { error: 'There is no tool named "launch".' } } },
      { functionResponse: { name: 'click_at', response: { url: 'http://page/', output: 'clicked' }, parts: [{ inlineData: { mimeType: 'image/png', data: 'cG5n' } }] } },
    ]);
  });

  it('needs its own key, and a gemini model chooses the google provider by its name', () => {
    expect(() => createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'gemini-2.5-computer-use-preview-10-2025', apiKey: 'sk-openai-key' })).toThrow(ModelConfigurationError);
    expect(() => createModelAdapter({ ...DEFAULT_CONFIG.model, name: 'gemini-2.5-computer-use-preview-10-2025', apiKey: 'sk-openai-key' })).toThrow(/GEMINI_API_KEY/);
  });
});
