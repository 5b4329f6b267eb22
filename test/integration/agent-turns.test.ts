/**
 * The agent loop end to end: the real model adapter and openai client against the fake model server,
 * real storage in a temporary home, and a fake operator. Requests are asserted as the server received
 * them; actions as the operator received them.
 */
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import {
  TEST_API_KEY,
  chatMessages,
  computerCall,
  contentText,
  finishCall,
  startAgentHarness,
  type AgentHarness,
} from '../helpers/agent-harness.js';
import { expectExtendsButForPresentScreen } from '../helpers/request-prefix.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const IMAGE_TOKEN = /<(img_[0-9a-f]{12})>/g;

describe('a multi-step turn', () => {
  it('clicks and types with mapped coordinates, then finishes, sending screenshots after their id tokens', async () => {
    // A 800x500 screen at 2x is a 1600x1000 frame; the model is shown it at 800x500.
    harness = await startAgentHarness({
      operator: { screen: { width: 800, height: 500 }, scaleFactor: 2 },
      config: { perception: { maxImageEdge: 800 } },
    });
    const { server, storage, operator, agent } = harness;
    server.script([
      { ...computerCall({ action: 'click', x: 400, y: 250 }, 'I click the field.'), usage: { inputTokens: 1000, outputTokens: 20 } },
      { ...computerCall({ action: 'type', text: 'hello' }, 'Now I type.'), usage: { inputTokens: 2000, outputTokens: 30, cachedInputTokens: 900 } },
      { ...finishCall('Typed hello into the field.'), usage: { inputTokens: 3000, outputTokens: 10 } },
    ]);

    const outcome = await agent.runTurn({ request: userText('Type hello into the field') });

    expect(outcome).toMatchObject({ status: 'finished', reason: 'finished', summary: 'Typed hello into the field.', steps: 3 });
    expect(outcome.usage).toEqual({ inputTokens: 6000, outputTokens: 60, cachedInputTokens: 900 });
    expect(operator.executed.map((entry) => entry.action)).toEqual([
      { action: 'click', x: 400, y: 250 },
      { action: 'type', text: 'hello' },
    ]);
    expect(operator.executed[0]!.screen).toEqual([{ x: 400, y: 250 }]);
    expect(operator.executed[0]!.view).toEqual({
      frameWidth: 1600,
      frameHeight: 1000,
      imageWidth: 800,
      imageHeight: 500,
      coordinateSpace: 'pixels',
    });
    // The step keeps the space its coordinates are in, so the timeline can draw the click where it landed.
    const shown = { imageWidth: 800, imageHeight: 500, coordinateSpace: 'pixels' };
    expect(storage.steps.listByTurn(outcome.turnId)[0]!.screenshotView).toEqual(shown);
    expect(harness.events.find((event) => event.type === 'step')).toMatchObject({ screenshotView: shown });
    // Each step keeps its call's cache reads next to input and output (this provider reports no cache writes).
    expect(storage.steps.listByTurn(outcome.turnId).map((step) => [step.inputTokens, step.cachedInputTokens, step.cacheWriteInputTokens])).toEqual([
      [1000, 0, null],
      [2000, 900, null],
      [3000, 0, null],
    ]);
    expect(harness.events.filter((event) => event.type === 'step')[1]).toMatchObject({ usage: { inputTokens: 2000, cachedInputTokens: 900 } });

    // First request: the tools, the system prompt with the screenshot size, the request, the screen.
    expect(server.requests).toHaveLength(3);
    const firstBody = server.requests[0]!.body as { tools: Array<{ function: { name: string; parameters: { type: string } } }> };
    expect(firstBody.tools.map((tool) => tool.function.name)).toEqual(['computer', 'finish', 'ask_user', 'get_history_image', 'crop_image']);
    expect(firstBody.tools.every((tool) => tool.function.parameters.type === 'object')).toBe(true);
    const first = chatMessages(server, 0);
    expect(first.map((message) => message.role)).toEqual(['system', 'user', 'user']);
    expect(first[0]!.content).toContain('Screenshots are 800x500 pixels');
    expect(first[1]!.content).toBe('Type hello into the field');
    const screen = first[2]!.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(screen.map((part) => part.type)).toEqual(['text', 'text', 'image_url']);
    const [firstImageId] = [...screen[1]!.text!.matchAll(IMAGE_TOKEN)].map((match) => match[1]);
    expect(screen[1]!.text).toBe(`<${firstImageId}>`);
    const dataUrl = screen[2]!.image_url!.url;
    expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    const sent = await sharp(Buffer.from(dataUrl.slice('data:image/png;base64,'.length), 'base64')).metadata();
    expect([sent.width, sent.height]).toEqual([800, 500]);

    // Second request: the assistant's call, the tool's text with the new image's token, and the image
    // itself in the follow-up user message (Chat Completions tool messages hold text only).
    const second = chatMessages(server, 1);
    expect(second.map((message) => message.role)).toEqual(['system', 'user', 'user', 'assistant', 'tool', 'user']);
    const toolText = second[4]!.content as string;
    expect(toolText).toContain('click done at (400, 250)');
    const [afterClickId] = [...toolText.matchAll(IMAGE_TOKEN)].map((match) => match[1]);
    expect(afterClickId).toBeDefined();
    expect(afterClickId).not.toBe(firstImageId);
    const followUp = second[5]!.content as Array<{ type: string; image_url?: { url: string } }>;
    expect(followUp.some((part) => part.type === 'image_url' && part.image_url!.url.startsWith('data:image/png;base64,'))).toBe(true);
    const raw = server.requests[1]!.rawBody;
    expect(raw.indexOf(`<${afterClickId}>`)).toBeLessThan(raw.lastIndexOf('data:image/png;base64,'));

    // Storage: three screenshots (start, after click, after typing), a step per call with what it cost.
    const turn = storage.turns.get(outcome.turnId)!;
    expect(turn.status).toBe('finished');
    const images = storage.images.listByTurn(outcome.turnId);
    expect(images.map((image) => image.id)).toEqual([firstImageId, afterClickId, expect.any(String)]);
    for (const image of images) {
      expect(image).toMatchObject({ source: 'screen', mime: 'image/png', width: 1600, height: 1000, hashAlgorithm: 'phash', displayId: '1', scaleFactor: 2 });
      expect(image.phash).toMatch(/^[0-9a-f]{16}$/);
    }
    const steps = storage.steps.listByTurn(outcome.turnId);
    expect(steps.map((step) => step.action)).toEqual([
      { action: 'click', x: 400, y: 250 },
      { action: 'type', text: 'hello' },
      { tool: 'finish', arguments: { summary: 'Typed hello into the field.', success: true } },
    ]);
    expect(steps.map((step) => step.screenshotImageId)).toEqual([firstImageId, afterClickId, images[2]!.id]);
    expect(steps.map((step) => step.thought)).toEqual(['I click the field.', 'Now I type.', 'The task is done.']);
    expect(steps.map((step) => [step.inputTokens, step.outputTokens])).toEqual([[1000, 20], [2000, 30], [3000, 10]]);
    expect(steps.every((step) => step.error === null && step.latencyMs !== null && step.tokenReport !== null)).toBe(true);

    // Events: the turn's life, every step, and the hook once.
    const types = harness.events.map((event) => event.type);
    expect(types[0]).toBe('turn-started');
    expect(types.at(-1)).toBe('turn-ended');
    expect(types.filter((type) => type === 'step')).toHaveLength(3);
    expect(types.filter((type) => type === 'screenshot')).toHaveLength(3);
    expect(types).toContain('model-text-delta');
    expect(harness.events.every((event) => !('turnId' in event) || event.turnId === outcome.turnId)).toBe(true);
    expect(harness.hookCalls).toEqual([{ sessionId: outcome.sessionId, turnId: outcome.turnId, status: 'finished' }]);
    expect(storage.sessions.get(outcome.sessionId)!.status).toBe('idle');
  });

  it('keeps the messages of one request as the byte-identical prefix of the next, but for its present screen', async () => {
    harness = await startAgentHarness();
    harness.server.script([
      computerCall({ action: 'click', x: 10, y: 10 }),
      computerCall({ action: 'key', keys: 'ctrl+s' }),
      finishCall(),
    ]);
    await harness.agent.runTurn({ request: userText('Save the file') });
    const serialized = [0, 1, 2].map((index) => chatMessages(harness!.server, index));
    // The next request shows the previous one's present screen as a reduced view (issue 15).
    for (const index of [1, 2]) expectExtendsButForPresentScreen(serialized[index - 1]!, serialized[index]!);
    // The tools are the same bytes every time too.
    const tools = harness.server.requests.map((request) => JSON.stringify((request.body as { tools: unknown }).tools));
    expect(new Set(tools).size).toBe(1);
  });

  it('tells the model "unchanged" instead of storing a screenshot that did not change', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'wait', seconds: 0 }), finishCall()]);
    const outcome = await harness.agent.runTurn({ request: userText('Wait for it') });
    const images = harness.storage.images.listByTurn(outcome.turnId);
    expect(images).toHaveLength(1);
    const toolMessage = chatMessages(harness.server, 1).find((message) => message.role === 'tool')!;
    expect(toolMessage.content).toContain(`unchanged: same as ${images[0]!.id}`);
    const [waitStep] = harness.storage.steps.listByTurn(outcome.turnId);
    expect(waitStep).toMatchObject({ dedupOfImageId: images[0]!.id, screenshotImageId: images[0]!.id, error: null });
    const screenshots = harness.events.filter((event) => event.type === 'screenshot');
    expect(screenshots.at(-1)).toMatchObject({ imageId: images[0]!.id, unchangedFrom: images[0]!.id });
  });
});

describe('a later request in the same session', () => {
  it('is a new turn whose requests carry the earlier history', async () => {
    harness = await startAgentHarness();
    const { server, storage, agent } = harness;
    server.script([computerCall({ action: 'click', x: 5, y: 5 }), finishCall('First done.')]);
    const first = await agent.runTurn({ request: userText('First request') });
    server.script([finishCall('Second done.')]);
    const second = await agent.runTurn({ sessionId: first.sessionId, request: userText('Second request') });

    expect(second.sessionId).toBe(first.sessionId);
    expect(second.turnId).not.toBe(first.turnId);
    expect(second.status).toBe('finished');
    expect(storage.turns.listBySession(first.sessionId).map((turn) => [turn.sequence, turn.status])).toEqual([
      [1, 'finished'],
      [2, 'finished'],
    ]);
    const messages = chatMessages(server, 2);
    const texts = messages.map(contentText);
    expect(texts.indexOf('First request')).toBeGreaterThan(0);
    expect(texts.indexOf('Second request')).toBeGreaterThan(texts.indexOf('First request'));
    // The first turn's finish call was answered, so the history is valid for the API.
    const assistantCalls = messages.flatMap((message) => (message.tool_calls as Array<{ id: string }> | undefined) ?? []);
    const answered = new Set(messages.filter((message) => message.role === 'tool').map((message) => message.tool_call_id));
    expect(assistantCalls.every((call) => answered.has(call.id))).toBe(true);
    // Every message, step and image carries its turn's id.
    for (const turn of [first, second]) {
      expect(storage.messages.listByTurn(turn.turnId).length).toBeGreaterThan(0);
      expect(storage.images.listByTurn(turn.turnId).length).toBeGreaterThan(0);
    }
    expect(storage.messages.listBySession(first.sessionId).every((message) => message.turnId !== null)).toBe(true);
    expect(harness.hookCalls.map((call) => call.turnId)).toEqual([first.turnId, second.turnId]);
    const started = harness.events.filter((event) => event.type === 'turn-started');
    expect(started.map((event) => event.sequence)).toEqual([1, 2]);
  });
});

describe('ending a turn', () => {
  it('ends at the step limit as failed with reason step-limit', async () => {
    harness = await startAgentHarness({ config: { agent: { maxSteps: 2 } } });
    harness.server.script([computerCall({ action: 'click', x: 1, y: 1 }), computerCall({ action: 'click', x: 2, y: 2 })]);
    const outcome = await harness.agent.runTurn({ request: userText('Click forever') });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'step-limit', steps: 2 });
    expect(outcome.summary).toContain('agent.maxSteps');
    expect(harness.server.requests).toHaveLength(2);
    expect(harness.storage.turns.get(outcome.turnId)!.status).toBe('failed');
    expect(harness.hookCalls).toHaveLength(1);
  });

  it('counts every tool call against the step limit: a reply with more calls than remain runs only what fits', async () => {
    harness = await startAgentHarness({ config: { agent: { maxSteps: 3 } } });
    const clicks = Array.from({ length: 10 }, (_, index) => computerCall({ action: 'click', x: 10 + index, y: 10 }).toolCalls![0]!);
    harness.server.script([{ type: 'answer', text: 'Clicking everything.', toolCalls: clicks }]);
    const outcome = await harness.agent.runTurn({ request: userText('Click ten times') });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'step-limit' });
    expect(harness.operator.executed).toHaveLength(3);
    // Every call still gets an answer, so the history stays valid for the next turn.
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect(steps).toHaveLength(10);
    expect(steps.slice(3).every((step) => step.error?.includes('limit of 3 steps'))).toBe(true);
  });

  it('lets finish through at the step limit: it ends the turn and acts on nothing', async () => {
    harness = await startAgentHarness({ config: { agent: { maxSteps: 1 } } });
    const click = computerCall({ action: 'click', x: 5, y: 5 }).toolCalls![0]!;
    const finish = finishCall('Clicked once.').toolCalls![0]!;
    harness.server.script([{ type: 'answer', text: 'Click, then done.', toolCalls: [click, finish] }]);
    const outcome = await harness.agent.runTurn({ request: userText('Click once') });
    expect(outcome).toMatchObject({ status: 'finished', summary: 'Clicked once.' });
    expect(harness.operator.executed).toHaveLength(1);
  });

  it('ends as failed when the model call fails, and keeps the API key out of events and the summary', async () => {
    harness = await startAgentHarness();
    harness.server.script([{ type: 'error', status: 400, message: `Invalid request for key ${TEST_API_KEY}` }]);
    const outcome = await harness.agent.runTurn({ request: userText('Anything') });
    expect(outcome).toMatchObject({ status: 'failed', reason: 'error' });
    expect(outcome.summary).toMatch(/^The model call failed/);
    expect(outcome.summary).not.toContain(TEST_API_KEY);
    expect(JSON.stringify(harness.events)).not.toContain(TEST_API_KEY);
    expect(harness.events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'failed', reason: 'error' });
    expect(harness.storage.sessions.get(outcome.sessionId)!.status).toBe('idle');
  });

  it('never puts the API key in events, even over a whole turn', async () => {
    harness = await startAgentHarness();
    harness.server.script([computerCall({ action: 'type', text: 'x' }), finishCall()]);
    await harness.agent.runTurn({ request: userText('Type x') });
    expect(harness.events.length).toBeGreaterThan(5);
    expect(JSON.stringify(harness.events)).not.toContain(TEST_API_KEY);
    // The key does reach the server, where it belongs.
    expect(harness.server.requests[0]!.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });
});
