/**
 * The qwen-computer-use dialect through the real agent, model adapter and `openai` client against the fake
 * server: Qwen's computer_use offered in its own form (no finish), its calls answered natively (vLLM and
 * Ollama shapes) or as `<tool_call>` text, every action through the same pipeline and coordinate mapping
 * (here a 1280x800 screen fitted to 640x400, then sent at Qwen2.5-VL's own smart-resize size, 644x392), terminate
 * and answer ending the turn.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, contentText, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { qwenNativeReply, qwenTextReply, qwenToolCallText } from '../helpers/qwen-model-replies.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const QWEN25 = 'qwen2.5-vl-7b-instruct';
const QWEN3 = 'Qwen/Qwen3-VL-8B-Instruct';

function startQwen(model = QWEN25, options: Parameters<typeof startAgentHarness>[0] = {}): Promise<AgentHarness> {
  return startAgentHarness({
    operator: { screen: { width: 1280, height: 800 } },
    ...options,
    config: { ...options.config, model: { name: model }, perception: { maxImageEdge: 640 } },
  });
}

interface SentTool {
  type: string;
  function: { name: string; description: string; parameters: { properties: { action: { enum: string[] } } } };
}

function sentTools(index: number): SentTool[] {
  return (harness!.server.requests[index]!.body as { tools: SentTool[] }).tools;
}

describe('qwen-computer-use, answered with native tool calls', () => {
  it('offers computer_use in Qwen\'s form, runs its actions through the downscaled view, and ends with terminate', async () => {
    harness = await startQwen();
    harness.server.script([
      qwenNativeReply({ action: 'left_click', coordinate: [320, 116] }, 'vllm', 'Action: Click the Team name field.'),
      qwenNativeReply({ action: 'type', text: 'Platform' }),
      qwenNativeReply({ action: 'terminate', status: 'success' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Name the team Platform.') });

    expect(outcome).toMatchObject({ status: 'finished', reason: 'finished', summary: 'The task is done (the model ended it with terminate: success).' });
    expect(harness.operator.executed.map((entry) => [entry.action, entry.screen])).toEqual([
      [{ action: 'click', x: 320, y: 116 }, [{ x: 637, y: 237 }]],
      [{ action: 'type', text: 'Platform' }, []],
    ]);
    const tools = sentTools(0);
    expect(tools.map((tool) => tool.function.name)).toEqual(['computer_use', 'ask_user', 'get_history_image', 'crop_image']);
    expect(tools[0]!.function.description).toContain("The screen's resolution is 644x392.");
    expect(tools[0]!.function.parameters.properties.action.enum).toEqual(expect.arrayContaining(['left_click', 'left_click_drag', 'terminate', 'answer']));
    const system = contentText(chatMessages(harness.server, 0)[0]!);
    expect(system).toContain('action "terminate"');
    expect(system).toContain('<img_');
    expect(system).not.toContain('Call finish');
    // The model's pixel (320, 116) of the 644x392 image has its centre at (637.2, 237.8) on the 1280x800 screen.
    // Native calls go back natively: the assistant's tool_calls, then a tool message with the same id.
    const second = chatMessages(harness.server, 1);
    const assistant = second.find((message) => message.role === 'assistant') as { tool_calls: Array<{ id: string }> };
    expect(assistant.tool_calls[0]!.id).toMatch(/^chatcmpl-tool-/);
    expect(second.find((message) => message.role === 'tool')).toMatchObject({ tool_call_id: assistant.tool_calls[0]!.id });
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.action)).toEqual([
      { action: 'click', x: 320, y: 116 },
      { action: 'type', text: 'Platform' },
      { tool: 'computer_use', arguments: { action: 'terminate', status: 'success' } },
    ]);
    expect(steps[0]!.thought).toBe('Action: Click the Team name field.');
    // Each call was made looking at the screenshot the call before it returned: that is the step's screen.
    const afterClick = (steps[0]!.result as { screenshotImageId?: string }).screenshotImageId;
    expect(afterClick).toEqual(expect.any(String));
    expect(steps[1]!.screenshotImageId).toBe(afterClick);
  });

  it('reads Ollama\'s calls (whole in one chunk, no index), and clicks where mouse_move left the pointer', async () => {
    harness = await startQwen();
    harness.server.script([
      qwenNativeReply([{ action: 'mouse_move', coordinate: [100, 50] }, { action: 'left_click' }], 'ollama'),
      qwenNativeReply({ action: 'double_click' }, 'ollama'),
      qwenNativeReply({ action: 'terminate', status: 'success' }, 'ollama'),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Open it.') });
    expect(outcome.status).toBe('finished');
    expect(harness.operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'move', x: 100, y: 50 },
      { action: 'click', x: 100, y: 50 },
      { action: 'double_click', x: 100, y: 50 },
    ]);
  });

  it('refuses a click "where the cursor is" before anything placed it, and tells the model', async () => {
    harness = await startQwen();
    harness.server.script([qwenNativeReply({ action: 'left_click' }), qwenNativeReply({ action: 'terminate', status: 'failure' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Click.') });
    expect(outcome).toMatchObject({ status: 'failed', summary: expect.stringContaining('terminate: failure') });
    expect(harness.operator.executed).toEqual([]);
    const result = chatMessages(harness.server, 1).find((message) => message.role === 'tool')!;
    expect(contentText(result)).toContain('no earlier action has placed the cursor');
  });

  it('answers an unknown action in Qwen\'s terms, counts the step, and goes on', async () => {
    harness = await startQwen();
    harness.server.script([qwenNativeReply({ action: 'swipe', coordinate: [1, 2] }), qwenNativeReply({ action: 'answer', text: 'Nothing to swipe.' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Swipe.') });
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Nothing to swipe.', steps: 2 });
    const result = contentText(chatMessages(harness.server, 1).find((message) => message.role === 'tool')!);
    expect(result).toContain('action: unknown value "swipe"; it must be one of key, type, mouse_move, left_click');
    expect(result).toContain('"pixels"');
  });

  it('names points 0–1000 for Qwen3-VL, whose computer_use screen is 1000x1000', async () => {
    harness = await startQwen(QWEN3);
    harness.server.script([qwenNativeReply({ action: 'left_click', coordinate: [500, 500] }), qwenNativeReply({ action: 'terminate', status: 'success' })]);
    await harness.agent.runTurn({ request: userText('Click the middle.') });
    expect(harness.operator.executed.map((entry) => entry.screen)).toEqual([[{ x: 640, y: 400 }]]);
    expect(sentTools(0)[0]!.function.description).toContain("The screen's resolution is 1000x1000.");
    expect(contentText(chatMessages(harness.server, 0)[0]!)).toContain('normalized to 0–1000');
  });
});

describe('qwen-computer-use, answered with <tool_call> text', () => {
  it('reads the calls from the text, and sends them and their results back as Qwen\'s template writes them', async () => {
    harness = await startQwen();
    harness.server.script([
      qwenTextReply({ action: 'left_click', coordinate: [320, 116] }, 'Action: Click the Team name field.'),
      qwenTextReply({ action: 'type', text: 'Platform' }),
      qwenTextReply({ action: 'terminate', status: 'success' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Name the team Platform.') });

    expect(outcome.status).toBe('finished');
    expect(harness.operator.executed.map((entry) => [entry.action, entry.screen])).toEqual([
      [{ action: 'click', x: 320, y: 116 }, [{ x: 637, y: 237 }]],
      [{ action: 'type', text: 'Platform' }, []],
    ]);
    const second = chatMessages(harness.server, 1);
    expect(second.some((message) => message.role === 'tool' || 'tool_calls' in message)).toBe(false);
    const assistant = second.find((message) => message.role === 'assistant')!;
    expect(assistant.content).toBe(
      'Action: Click the Team name field.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [320, 116]}}\n</tool_call>',
    );
    const response = second.at(-1)!;
    expect(response.role).toBe('user');
    expect(contentText(response)).toMatch(/^<tool_response>\nclick done at \(637, 237\)\n<img_[0-9a-f]+>\n\[image data:image\/png;base64,/);
    expect(contentText(response)).toMatch(/<\/tool_response>$/);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps[0]).toMatchObject({ action: { action: 'click', x: 320, y: 116 }, thought: 'Action: Click the Team name field.' });
  });

  it('tells the model in its own form what was wrong with a block it could not read, and the step counts', async () => {
    harness = await startQwen(QWEN25, { config: { agent: { maxSteps: 3 } } });
    harness.server.script([
      { type: 'answer', text: 'Action: Click Save.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [42' },
      qwenTextReply({ action: 'terminate', status: 'success' }),
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Save.') });
    expect(outcome).toMatchObject({ status: 'finished', steps: 2 });
    const second = chatMessages(harness.server, 1);
    expect(second.find((message) => message.role === 'assistant')!.content).toBe(
      'Action: Click Save.\n<tool_call>\n{"name": "computer_use", "arguments": {"action": "left_click", "coordinate": [42',
    );
    expect(contentText(second.at(-1)!)).toContain('<tool_response>\nThe call failed.\nThe <tool_call> block was never closed and its JSON is not valid');
    expect(harness.operator.executed).toEqual([]);
  });

  it('runs several calls of one answer in order, on the screenshot they were made on', async () => {
    harness = await startQwen();
    harness.server.script([
      { type: 'answer', text: qwenToolCallText([{ action: 'left_click', coordinate: [320, 116] }, { action: 'type', text: 'Platform' }, { action: 'key', keys: ['Return'] }]) },
      { type: 'answer', text: qwenToolCallText({ action: 'answer', text: 'Named.' }), textPieces: ['<tool_', 'call>\n{"name": "compu', 'ter_use", "arguments": {"action": "answer", "text": "Named."}}\n</tool_call>'] },
    ]);
    const outcome = await harness.agent.runTurn({ request: userText('Name the team.') });
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Named.' });
    expect(harness.operator.executed.map((entry) => entry.action.action)).toEqual(['click', 'type', 'key']);
    const response = contentText(chatMessages(harness.server, 1).at(-1)!);
    expect(response.match(/<tool_response>/g)).toHaveLength(3);
  });

  it('nudges a reply without a call in Qwen\'s own names', async () => {
    harness = await startQwen();
    harness.server.script([{ type: 'answer', text: 'I see the form.' }, qwenTextReply({ action: 'terminate', status: 'success' })]);
    const outcome = await harness.agent.runTurn({ request: userText('Look.') });
    expect(outcome.status).toBe('finished');
    const nudge = contentText(chatMessages(harness.server, 1).at(-1)!);
    expect(nudge).toContain('computer_use');
    expect(nudge).toContain('"terminate"');
    expect(nudge).not.toContain('finish');
  });
});
