/**
 * A model that refuses Claude's computer toolset in the middle of a run (a platform without it: Anthropic's
 * compatibility table, https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool) steps down
 * once, within the call: the same request is sent again with computer_20251124, its history in that tool's
 * vocabulary, and the reply comes back as the toolset's member calls the agent's tools answer. The fake Messages API
 * refuses what the real API refuses (test/helpers/fake-anthropic-contract.ts): the toolset on that platform, a
 * thinking block missing or altered in the last assistant turn, a result whose toolset_name does not match its call.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AssistantMessage, Message } from '../../src/shared/messages.js';
import { userText } from '../../src/shared/messages.js';
import { createModelAdapter } from '../../src/main/llm/create-model-adapter.js';
import type { ModelStreamEvent, ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import { modelToolMemoryAt } from '../../src/main/storage/index.js';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const API_KEY = 'sk-ant-test-step-down-0123456789SECRET';
const MODEL = 'claude-opus-4-8';

/** The tool types the fake refuses the model, changed in the middle of a test: the platform stops serving the toolset. */
let refusedTypes: Record<string, string[]>;
let platform: FakeAnthropicServer;
let home: TemporaryHome;
beforeEach(async () => {
  refusedTypes = {};
  platform = await startFakeAnthropicServer({ unsupportedToolTypes: refusedTypes });
  home = createTemporaryHome('sightline-step-down');
});
afterEach(async () => {
  await platform.close();
  home.remove();
});

function adapterAt(server: FakeAnthropicServer) {
  return createModelAdapter(
    { name: MODEL, baseUrl: server.baseUrl, anthropicApiKey: API_KEY, api: 'chat-completions', maxRetries: 0, timeoutMs: 5_000 },
    undefined,
    { computerToolMemory: modelToolMemoryAt(home.root) },
  );
}

const native = { kind: 'anthropic-computer', toolType: 'computer_toolset_20260801', displayWidth: 1280, displayHeight: 800 } as const;
const MEMBERS: ModelToolDeclaration[] = ['left_click', 'type', 'screenshot', 'zoom'].map((name) => ({ name, description: '', parameters: {}, native }));
const FINISH: ModelToolDeclaration = { name: 'finish', description: 'Ends the task.', parameters: { type: 'object', properties: { summary: { type: 'string' } } } };

interface Block {
  type: string;
  name?: string;
  input?: unknown;
  toolset_name?: string;
  thinking?: string;
  signature?: string;
  data?: string;
}
interface Body {
  tools: Array<Record<string, unknown>>;
  messages: Array<{ role: string; content: Block[] }>;
}
const bodyOf = (server: FakeAnthropicServer, index: number): Body => server.requests[index]!.body as unknown as Body;

function historyAfter(reply: AssistantMessage): Message[] {
  return [
    userText('Name the team'),
    { role: 'assistant', parts: reply.parts, toolCalls: reply.toolCalls },
    ...reply.toolCalls.map((call) => ({ role: 'tool' as const, toolCallId: call.id, name: call.name, parts: [{ type: 'text' as const, text: 'done' }] })),
  ];
}

describe('a model that refuses the computer toolset in the middle of a run', () => {
  it('steps down once within the call: the same request again with computer_20251124, member calls as its actions, thinking unchanged, said once and remembered', async () => {
    // The run began while the toolset was served: a member call, with thinking, is in its history.
    platform.script([
      {
        type: 'answer',
        thinking: [{ thinking: 'I click the field.' }, { redacted: 'b3BhcXVl' }],
        toolUses: [{ id: 'toolu_a', name: 'left_click', inputText: '{"coordinate":[10,20]}', toolsetName: 'computer' }],
      },
    ]);
    const first = await adapterAt(platform).complete({ messages: [userText('Name the team')], tools: [...MEMBERS, FINISH] });
    const thinking = first.toolCalls[0]!.providerData?.anthropicThinking;

    // Then it is not: refused once, then the same request in the older tool's vocabulary.
    refusedTypes[MODEL] = ['computer_toolset_20260801'];
    platform.script([
      { type: 'answer', toolUses: [{ id: 'toolu_b', name: 'computer', inputText: '{"action":"type","text":"Platform"}' }] },
      { type: 'answer', toolUses: [{ id: 'toolu_c', name: 'computer', inputText: '{"action":"zoom","region":[0,0,100,50]}' }] },
    ]);
    const adapter = adapterAt(platform);
    const events: ModelStreamEvent[] = [];
    const history = historyAfter(first);
    const reply = await adapter.complete({ messages: history, tools: [...MEMBERS, FINISH] }, { onEvent: (event) => events.push(event) });

    expect(platform.refused.map((refusal) => refusal.message)).toEqual([
      expect.stringContaining(`'${MODEL}' does not support tool types: computer_toolset_20260801`) as string,
    ]);
    expect(platform.requests).toHaveLength(3);
    const [refused, resent] = [bodyOf(platform, 1), bodyOf(platform, 2)];
    expect(refused.tools).toContainEqual({ type: 'computer_toolset_20260801' });
    expect(resent.tools.filter((tool) => String(tool.type).startsWith('computer'))).toEqual([
      { type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800, enable_zoom: true },
    ]);
    expect(resent.tools.map((tool) => tool.name)).toContain('finish');
    expect(String(platform.requests[2]!.headers['anthropic-beta'])).toContain('computer-use-2025-11-24');
    // The history as the beta tool reads it: the member call is its action, neither it nor its result names a toolset.
    const [, assistant, results] = resent.messages;
    expect(assistant!.content).toEqual([
      { type: 'thinking', thinking: 'I click the field.', signature: (thinking![0] as { signature: string }).signature },
      { type: 'redacted_thinking', data: 'b3BhcXVl' },
      { type: 'tool_use', id: 'toolu_a', name: 'computer', input: { action: 'left_click', coordinate: [10, 20] } },
    ]);
    expect(results!.content[0]).not.toHaveProperty('toolset_name');
    // The reply as the agent's tools know it: the toolset's member, with its toolset.
    expect(reply.toolCalls).toEqual([expect.objectContaining({ id: 'toolu_b', name: 'type', argumentsText: '{"text":"Platform"}', providerData: { toolsetName: 'computer' } })]);
    // Said once, remembered for the next run.
    expect(events.filter((event) => event.type === 'notice')).toEqual([
      { type: 'notice', text: expect.stringMatching(/refused Anthropic's computer_toolset_20260801; Sightline stepped it down to computer_20251124, for this run/) as string },
    ]);
    const memory = JSON.parse(readFileSync(modelToolMemoryAt(home.root).location, 'utf8')) as { anthropicComputerTool: Record<string, unknown> };
    expect(memory.anthropicComputerTool[MODEL]).toMatchObject({ toolType: 'computer_20251124', refused: 'computer_toolset_20260801' });

    // The rest of the run asks with the older tool straight away: no second refusal, no second notice.
    events.length = 0;
    const next = await adapter.complete({ messages: [...history, ...historyAfter(reply).slice(1)], tools: [...MEMBERS, FINISH] }, { onEvent: (event) => events.push(event) });
    expect(platform.refused).toHaveLength(1);
    expect(platform.requests).toHaveLength(4);
    expect(bodyOf(platform, 3).messages.flatMap((message) => message.content).filter((block) => block.type === 'tool_use').map((block) => [block.name, block.input])).toEqual([
      ['computer', { action: 'left_click', coordinate: [10, 20] }],
      ['computer', { action: 'type', text: 'Platform' }],
    ]);
    expect(next.toolCalls[0]).toMatchObject({ name: 'zoom', argumentsText: '{"region":[0,0,100,50]}' });
    expect(events).toEqual([]);
  });

  it('never loops: a platform that refuses the older tool as well ends the call on that refusal, after two requests', async () => {
    const neither = await startFakeAnthropicServer({ unsupportedToolTypes: { [MODEL]: ['computer_toolset_20260801', 'computer_20251124'] } });
    try {
      const adapter = createModelAdapter(
        { name: MODEL, baseUrl: neither.baseUrl, anthropicApiKey: API_KEY, api: 'chat-completions', maxRetries: 0, timeoutMs: 5_000 },
        undefined,
        { computerToolMemory: modelToolMemoryAt(home.root) },
      );
      await expect(adapter.complete({ messages: [userText('hi')], tools: MEMBERS })).rejects.toThrow(/does not support tool types: computer_20251124/);
      expect(neither.requests).toHaveLength(2);
      await expect(adapter.complete({ messages: [userText('hi')], tools: MEMBERS })).rejects.toThrow(/does not support tool types: computer_20251124/);
      expect(neither.requests).toHaveLength(3);
    } finally {
      await neither.close();
    }
  });

  it('a tool a person chose (model.anthropicComputerTool) is not stepped over: the refusal ends the call', async () => {
    refusedTypes[MODEL] = ['computer_toolset_20260801'];
    const adapter = createModelAdapter(
      { name: MODEL, baseUrl: platform.baseUrl, anthropicApiKey: API_KEY, api: 'chat-completions', maxRetries: 0, timeoutMs: 5_000, anthropicComputerTool: 'computer_toolset_20260801' },
      undefined,
      { computerToolMemory: modelToolMemoryAt(home.root) },
    );
    await expect(adapter.complete({ messages: [userText('hi')], tools: MEMBERS })).rejects.toThrow(/does not support tool types: computer_toolset_20260801/);
    expect(platform.requests).toHaveLength(1);
    expect(modelToolMemoryAt(home.root).recall(MODEL)).toBeUndefined();
  });
});
