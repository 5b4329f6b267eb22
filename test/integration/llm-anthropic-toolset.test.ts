/**
 * The Anthropic adapter with Claude's computer toolset and thinking, against the fake Messages API, which refuses
 * what the real API refuses (test/helpers/fake-anthropic-contract.ts cites the page of each rule):
 * - the old tool for a model that takes only the toolset is a 400 that names it;
 * - a thinking block missing or altered in the last assistant turn is a 400, and Sightline's history sends it back
 *   unchanged;
 * - a forced tool_choice is a 400 for Opus 5.5, and Sightline asks it with auto;
 * - a member result without its toolset_name is a 400, and Sightline's carries it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../src/shared/messages.js';
import { userText } from '../../src/shared/messages.js';
import { computerToolsetEntry } from '../../src/main/llm/anthropic-computer-toolset.js';
import { createModelAdapter, type ModelConfig } from '../../src/main/llm/create-model-adapter.js';
import type { ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import { ModelCallError } from '../../src/main/llm/model-errors.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';

const API_KEY = 'sk-ant-test-toolset-0123456789SECRET';

let server: FakeAnthropicServer;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
});
afterEach(async () => {
  await server.close();
});

function adapterFor(overrides: Partial<ModelConfig> = {}) {
  return createModelAdapter({ name: 'claude-opus-5-5', baseUrl: server.baseUrl, anthropicApiKey: API_KEY, api: 'chat-completions', maxRetries: 0, timeoutMs: 5_000, ...overrides });
}

const native = { kind: 'anthropic-computer', toolType: 'computer_toolset_20260801', displayWidth: 1280, displayHeight: 800 } as const;
const members = (names: readonly string[], declaration: ModelToolDeclaration['native'] = native): ModelToolDeclaration[] =>
  names.map((name) => ({ name, description: '', parameters: {}, native: declaration }));
const FINISH: ModelToolDeclaration = { name: 'finish', description: 'Ends the task.', parameters: { type: 'object', properties: { summary: { type: 'string' } } } };

interface Body {
  tools: Array<Record<string, unknown>>;
  tool_choice?: { type: string };
  output_config?: unknown;
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
}
const bodyOf = (index: number): Body => server.requests[index]!.body as unknown as Body;
/** A recorded request's headers to send again by hand (its beta headers among them). */
const headersOf = (index: number): Record<string, string> => ({
  'content-type': 'application/json',
  'anthropic-beta': String(server.requests[index]!.headers['anthropic-beta'] ?? ''),
});

async function errorMessage(response: Response): Promise<string> {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

/** A reply and its results as the agent stores them: the next request's history. */
function historyAfter(reply: AssistantMessage, resultText = 'done'): Message[] {
  return [
    userText('Name the team'),
    { role: 'assistant', parts: reply.parts, toolCalls: reply.toolCalls },
    ...reply.toolCalls.map((call) => ({ role: 'tool' as const, toolCallId: call.id, name: call.name, parts: [{ type: 'text' as const, text: resultText }] })),
  ];
}

describe("the Anthropic adapter with Claude's computer toolset", () => {
  it('declares the members as one toolset entry without a beta header, members the operator lacks withheld, the shape the SDK types say', async () => {
    server.script([{ type: 'answer', text: 'ok' }, { type: 'answer', text: 'ok' }]);
    await adapterFor().complete({ messages: [userText('hi')], tools: [...members(['left_click', 'type', 'zoom']), FINISH] });
    expect(bodyOf(0).tools).toEqual([{ type: 'computer_toolset_20260801' }, expect.objectContaining({ name: 'finish' })]);
    expect(String(server.requests[0]!.headers['anthropic-beta'] ?? '')).not.toContain('computer-use');
    const withheld = { ...native, disabledMembers: ['zoom', 'hold_key'] };
    await adapterFor().complete({ messages: [userText('hi')], tools: members(['left_click'], withheld) });
    // Without a system prompt, the first breakpoint closes the tools: here the toolset entry, as the zone rule places it.
    expect(bodyOf(1).tools).toEqual([
      { type: 'computer_toolset_20260801', configs: { zoom: { enabled: false }, hold_key: { enabled: false } }, cache_control: { type: 'ephemeral' } },
    ]);
    expect(computerToolsetEntry([])).toEqual({ type: 'computer_toolset_20260801' });
  });

  it("is refused the old tool for a model that takes only the toolset: a 400 that names the tool", async () => {
    const old = { kind: 'anthropic-computer', toolType: 'computer_20251124', displayWidth: 1280, displayHeight: 800, enableZoom: true } as const;
    const call = adapterFor().complete({ messages: [userText('hi')], tools: [{ name: 'computer', description: '', parameters: {}, native: old }] });
    await expect(call).rejects.toThrow(ModelCallError);
    await expect(call).rejects.toThrow(/'claude-opus-5-5' does not support tool types: computer_20251124/);
  });

  it('reads member calls with their toolset_name and sends them and their results back with it; a result without it is refused', async () => {
    server.script([
      { type: 'answer', toolUses: [{ id: 'toolu_1', name: 'left_click', inputText: '{"coordinate":[10,20]}', toolsetName: 'computer' }, { id: 'toolu_2', name: 'type', inputText: '{"text":"hi"}', toolsetName: 'computer' }] },
      { type: 'answer', text: 'ok' },
    ]);
    const reply = await adapterFor().complete({ messages: [userText('hi')], tools: members(['left_click', 'type']) });
    expect(reply.toolCalls.map((call) => [call.name, call.providerData?.toolsetName])).toEqual([
      ['left_click', 'computer'],
      ['type', 'computer'],
    ]);
    await adapterFor().complete({ messages: historyAfter(reply), tools: members(['left_click', 'type']) });
    const [, assistant, results] = bodyOf(1).messages;
    expect(assistant!.content.filter((block) => block.type === 'tool_use')).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'left_click', input: { coordinate: [10, 20] }, toolset_name: 'computer' },
      { type: 'tool_use', id: 'toolu_2', name: 'type', input: { text: 'hi' }, toolset_name: 'computer' },
    ]);
    expect(results!.content.map((block) => block.toolset_name)).toEqual(['computer', 'computer']);

    // The fake refuses a member result that does not echo toolset_name, as the API does.
    const raw = JSON.parse(server.requests[1]!.rawBody) as Body;
    for (const block of raw.messages[2]!.content) delete block.toolset_name;
    const refused = await fetch(`${server.baseUrl}/v1/messages`, { method: 'POST', headers: headersOf(1), body: JSON.stringify(raw) });
    expect(refused.status).toBe(400);
    expect(await errorMessage(refused)).toMatch(/must carry toolset_name "computer"/);
  });

  it('keeps thinking blocks with their call and sends them back unchanged; a block missing or altered is refused', async () => {
    server.script([
      {
        type: 'answer',
        thinking: [{ thinking: 'I will click.' }, { redacted: 'b3BhcXVl' }],
        text: 'Clicking.',
        toolUses: [{ id: 'toolu_a', name: 'left_click', inputText: '{"coordinate":[1,2]}', toolsetName: 'computer' }],
        // Anthropic's output_tokens include the thinking (the SDK: "the inclusive, authoritative total used for billing").
        usage: { inputTokens: 900, outputTokens: 1450 },
      },
      { type: 'answer', text: 'ok' },
    ]);
    const reply = await adapterFor().complete({ messages: [userText('hi')], tools: members(['left_click']) });
    // Thinking tokens are output: the step's output, and so its cost, counts them.
    expect(reply.usage.outputTokens).toBe(1450);
    const thinking = reply.toolCalls[0]!.providerData?.anthropicThinking;
    expect(thinking).toEqual([
      { type: 'thinking', thinking: 'I will click.', signature: expect.stringMatching(/^sig_/) as string },
      { type: 'redacted_thinking', data: 'b3BhcXVl' },
    ]);
    await adapterFor().complete({ messages: historyAfter(reply), tools: members(['left_click']) });
    expect(bodyOf(1).messages[1]!.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'text', 'tool_use']);
    expect(bodyOf(1).messages[1]!.content.slice(0, 2)).toEqual(thinking);

    const altered: AssistantMessage = {
      ...reply,
      toolCalls: [{ ...reply.toolCalls[0]!, providerData: { ...reply.toolCalls[0]!.providerData, anthropicThinking: [{ ...thinking![0]!, thinking: 'I will click!' } as never, thinking![1]!] } }],
    };
    await expect(adapterFor().complete({ messages: historyAfter(altered), tools: members(['left_click']) })).rejects.toThrow(/Invalid `signature` in `thinking` block/);
    const missing: AssistantMessage = { ...reply, toolCalls: [{ ...reply.toolCalls[0]!, providerData: { toolsetName: 'computer' } }] };
    await expect(adapterFor().complete({ messages: historyAfter(missing), tools: members(['left_click']) })).rejects.toThrow(/passed back unmodified and in their original order/);
  });

  it('asks Opus 5.5 with auto where a forced tool_choice would be refused, which the fake refuses as the API does; model.effort is output_config.effort', async () => {
    server.script([{ type: 'answer', text: 'ok' }]);
    await adapterFor({ effort: 'low' }).complete({ messages: [userText('hi')], tools: [FINISH], toolChoice: 'required' });
    expect(bodyOf(0).tool_choice).toEqual({ type: 'auto' });
    expect(bodyOf(0).output_config).toEqual({ effort: 'low' });
    const forced = { ...(JSON.parse(server.requests[0]!.rawBody) as Body), tool_choice: { type: 'any' } };
    const refused = await fetch(`${server.baseUrl}/v1/messages`, { method: 'POST', headers: headersOf(0), body: JSON.stringify(forced) });
    expect(refused.status).toBe(400);
    expect(await errorMessage(refused)).toBe('tool_choice: type "tool" and "any" are not supported for this model.');
    // A model that takes forced tool use keeps it.
    server.script([{ type: 'answer', text: 'ok' }]);
    await adapterFor({ name: 'claude-sonnet-4-5' }).complete({ messages: [userText('hi')], tools: [FINISH], toolChoice: 'required' });
    expect(bodyOf(2).tool_choice).toEqual({ type: 'any' });
  });
});
