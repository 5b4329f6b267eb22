/**
 * Media a model generates, through the real agent and the fake model server in each API's real shape:
 * stored content-addressed, kept in the assistant message as its id, announced with a `media` event, and
 * in later requests named by a text placeholder instead of being sent.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { userText } from '../../src/shared/messages.js';
import { chatMessages, contentText, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { withRawDatabase } from '../helpers/raw-database.js';

let harness: AgentHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function drawnPng(): Promise<Buffer> {
  return sharp({ create: { width: 96, height: 64, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function messagesTable(harness: AgentHarness): string {
  return JSON.stringify(withRawDatabase(harness.storage.paths.databaseFile, (database) => database.prepare('SELECT * FROM messages').all()));
}

describe('media a model generates', () => {
  it('is stored by content, kept in the message as an id, announced, and a placeholder in the next request', async () => {
    harness = await startAgentHarness();
    const png = await drawnPng();
    const base64 = png.toString('base64');
    harness.server.script([{ ...finishCall('Drew it.'), images: [base64] }, finishCall()]);

    const first = await harness.agent.runTurn({ request: userText('Draw a red square') });
    expect(first).toMatchObject({ status: 'finished', summary: 'Drew it.' });
    const mediaId = `med_${sha256(png)}`;

    const announced = harness.events.filter((event) => event.type === 'media');
    expect(announced).toEqual([
      expect.objectContaining({ type: 'media', sessionId: first.sessionId, turnId: first.turnId, mediaId, kind: 'image', mime: 'image/png', width: 96, height: 64, byteSize: png.byteLength }),
    ]);

    const assistant = harness.storage.messages.listByTurn(first.turnId).find((record) => record.message.role === 'assistant')!;
    expect(assistant.message.parts).toContainEqual({ type: 'image', mediaId, mime: 'image/png', width: 96, height: 64 });
    // The row holds the id, never the pixels.
    expect(messagesTable(harness)).not.toContain(base64.slice(0, 200));
    const read = await harness.storage.media.read({ mediaId, mime: 'image/png' });
    expect(read.status === 'ok' && read.bytes.equals(png)).toBe(true);
    expect(harness.storage.media.listBySession(first.sessionId)).toEqual([
      { mediaId, turnId: first.turnId, kind: 'image', mime: 'image/png', width: 96, height: 64 },
    ]);
    expect(harness.storage.media.referencedFiles().has(sha256(png))).toBe(true);

    await harness.agent.runTurn({ request: userText('Describe it'), sessionId: first.sessionId });
    const later = JSON.stringify(chatMessages(harness.server, 1));
    expect(later).toContain(`[Generated image ${mediaId} (image/png, 96×64): shown to the user in the timeline; not sent back to the model]`);
    expect(later).not.toContain(base64.slice(0, 200));
  });

  it("keeps an image of OpenAI's Responses API (an image_generation_call item) the same way", async () => {
    harness = await startAgentHarness({ config: { model: { api: 'responses' } } });
    const png = await drawnPng();
    harness.server.script([{ ...finishCall('Drew it.'), images: [png.toString('base64')] }]);
    const outcome = await harness.agent.runTurn({ request: userText('Draw a red square') });
    expect(outcome.status).toBe('finished');
    expect(harness.server.requests[0]?.path).toBe('/v1/responses');
    const mediaId = `med_${sha256(png)}`;
    expect(harness.events).toContainEqual(expect.objectContaining({ type: 'media', mediaId, kind: 'image', width: 96, height: 64 }));
    const assistant = harness.storage.messages.listByTurn(outcome.turnId).find((record) => record.message.role === 'assistant')!;
    expect(assistant.message.parts).toContainEqual({ type: 'image', mediaId, mime: 'image/png', width: 96, height: 64 });
  });

  it('keeps audio streamed as raw PCM as a playable WAV file, named by a placeholder for a model that cannot hear', async () => {
    harness = await startAgentHarness();
    const samples = Buffer.alloc(4800, 7);
    harness.server.script([{ ...finishCall('Said it.'), audio: { data: samples.toString('base64'), transcript: 'Hello there.' } }, finishCall()]);

    const first = await harness.agent.runTurn({ request: userText('Say hello') });
    const announced = harness.events.find((event) => event.type === 'media');
    expect(announced).toMatchObject({ kind: 'audio', mime: 'audio/wav', byteSize: samples.byteLength + 44 });
    const mediaId = announced?.type === 'media' ? announced.mediaId : '';
    const read = await harness.storage.media.read({ mediaId, mime: 'audio/wav' });
    expect(read.status).toBe('ok');
    if (read.status !== 'ok') return;
    expect(read.bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(read.bytes.readUInt32LE(24)).toBe(24_000);
    expect(read.bytes.subarray(44).equals(samples)).toBe(true);
    const assistant = harness.storage.messages.listByTurn(first.turnId).find((record) => record.message.role === 'assistant')!;
    expect(assistant.message.parts).toContainEqual({ type: 'audio', mediaId, mime: 'audio/wav' });
    expect(assistant.message.parts).toContainEqual({ type: 'text', text: 'The task is done.Hello there.' });

    // gpt-4.1 reads no audio: the next request names it in text, and the capability check has nothing to refuse.
    const second = await harness.agent.runTurn({ request: userText('Again'), sessionId: first.sessionId });
    expect(second.status).toBe('finished');
    const assistantSent = chatMessages(harness.server, 1).filter((message) => message.role === 'assistant').map(contentText).join('\n');
    expect(assistantSent).toContain(`[Generated audio ${mediaId} (audio/wav): played to the user in the timeline; not sent back to the model]`);
  });

  it('drops an image the decoder refuses with a warning, and the turn goes on', async () => {
    harness = await startAgentHarness();
    harness.server.script([{ ...finishCall(), images: [Buffer.from('not a png at all').toString('base64')] }]);
    const outcome = await harness.agent.runTurn({ request: userText('Draw') });
    expect(outcome.status).toBe('finished');
    expect(harness.events.some((event) => event.type === 'media')).toBe(false);
    expect(harness.events).toContainEqual(expect.objectContaining({ type: 'warning', message: expect.stringContaining('The image the model generated could not be kept') }));
    const assistant = harness.storage.messages.listByTurn(outcome.turnId).find((record) => record.message.role === 'assistant')!;
    expect(assistant.message.parts.every((part) => part.type === 'text')).toBe(true);
  });
});
