/**
 * Generated media's pure pieces: the id as a content address, the WAV container around streamed PCM, the
 * placeholder a later request reads, the progress line, and how the timeline holds and lays out media.
 */
import { describe, expect, it } from 'vitest';
import type { SessionDetail, Turn } from '../../src/shared/app-api.js';
import { generatedMediaId, sha256OfGeneratedMedia } from '../../src/shared/generated-media.js';
import type { Message } from '../../src/shared/messages.js';
import { AudioPartSchema, ImagePartSchema } from '../../src/shared/messages.js';
import { pcmFormatOf, wavFromPcm } from '../../src/main/agent/wav-container.js';
import { generatedMediaText, withGeneratedMediaNamed } from '../../src/main/context/generated-media-placeholders.js';
import { progressLine } from '../../src/main/cli/run/progress-lines.js';
import { timelineRows } from '../../src/renderer/src/timeline/timeline-rows.js';
import { initialTimelineState, timelineReducer } from '../../src/renderer/src/timeline/timeline-state.js';

const HASH = 'ab'.repeat(32);
const MEDIA_ID = `med_${HASH}`;
const SESSION = 'ses_000000000001';
const TURN = 'turn_000000000001';

describe('generated media ids', () => {
  it('are med_ and the sha256 of the bytes, and nothing else reads as one', () => {
    expect(generatedMediaId(HASH)).toBe(MEDIA_ID);
    expect(sha256OfGeneratedMedia(MEDIA_ID)).toBe(HASH);
    expect(sha256OfGeneratedMedia('med_abc')).toBeUndefined();
    expect(sha256OfGeneratedMedia(`img_${HASH}`)).toBeUndefined();
  });

  it('let a stored image or audio part hold only its id, and refuse a part that names nothing', () => {
    expect(ImagePartSchema.safeParse({ type: 'image', mediaId: MEDIA_ID, mime: 'image/png' }).success).toBe(true);
    expect(AudioPartSchema.safeParse({ type: 'audio', mediaId: MEDIA_ID, mime: 'audio/wav' }).success).toBe(true);
    expect(AudioPartSchema.safeParse({ type: 'audio', mime: 'audio/wav' }).success).toBe(false);
  });
});

describe('the WAV container', () => {
  it('reads the rate and channels of a raw PCM type, and nothing from other types', () => {
    expect(pcmFormatOf('audio/L16;rate=24000;channels=1')).toEqual({ sampleRate: 24_000, channels: 1 });
    expect(pcmFormatOf('audio/l16; rate=16000')).toEqual({ sampleRate: 16_000, channels: 1 });
    expect(pcmFormatOf('audio/L16')).toBeUndefined();
    expect(pcmFormatOf('audio/mpeg')).toBeUndefined();
  });

  it('wraps the samples unchanged behind a 44-byte RIFF header that states their format', () => {
    const samples = Buffer.from([1, 2, 3, 4, 5, 6]);
    const wav = wavFromPcm(samples, { sampleRate: 24_000, channels: 2 });
    expect(wav.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(wav.readUInt32LE(4)).toBe(36 + samples.byteLength);
    expect(wav.subarray(8, 16).toString('ascii')).toBe('WAVEfmt ');
    expect(wav.readUInt16LE(20)).toBe(1);
    expect(wav.readUInt16LE(22)).toBe(2);
    expect(wav.readUInt32LE(24)).toBe(24_000);
    expect(wav.readUInt32LE(28)).toBe(24_000 * 4);
    expect(wav.readUInt16LE(32)).toBe(4);
    expect(wav.readUInt16LE(34)).toBe(16);
    expect(wav.subarray(36, 40).toString('ascii')).toBe('data');
    expect(wav.readUInt32LE(40)).toBe(samples.byteLength);
    expect(wav.subarray(44).equals(samples)).toBe(true);
  });
});

describe('the placeholder of generated media', () => {
  it('replaces each generated part of an assistant message, keeps the rest, and leaves other messages as they were', () => {
    const message: Message = {
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Here it is.' },
        { type: 'image', mediaId: MEDIA_ID, mime: 'image/png', width: 640, height: 480 },
        { type: 'audio', mediaId: MEDIA_ID, mime: 'audio/wav' },
      ],
      toolCalls: [],
    };
    expect(withGeneratedMediaNamed(message).parts).toEqual([
      { type: 'text', text: 'Here it is.' },
      { type: 'text', text: `[Generated image ${MEDIA_ID} (image/png, 640×480): shown to the user in the timeline; not sent back to the model]` },
      { type: 'text', text: `[Generated audio ${MEDIA_ID} (audio/wav): played to the user in the timeline; not sent back to the model]` },
    ]);
    const screenshot: Message = { role: 'user', parts: [{ type: 'image', imageId: 'img_0123456789ab' }] };
    expect(withGeneratedMediaNamed(screenshot)).toBe(screenshot);
    const plain: Message = { role: 'assistant', parts: [{ type: 'text', text: 'no media' }], toolCalls: [] };
    expect(withGeneratedMediaNamed(plain)).toBe(plain);
  });

  it('is the same text every time (the prompt cache holds)', () => {
    const part = { type: 'image' as const, mediaId: MEDIA_ID, mime: 'image/png' };
    expect(generatedMediaText(part)).toBe(generatedMediaText({ ...part }));
  });
});

describe('the progress line of generated media', () => {
  it('names the media by its id, type and size', () => {
    const line = progressLine({ type: 'media', sessionId: SESSION, turnId: TURN, at: 1, mediaId: MEDIA_ID, kind: 'image', mime: 'image/png', width: 8, height: 6, byteSize: 10 });
    expect(line).toBe(`the model generated an image: ${MEDIA_ID} (image/png, 8×6)`);
  });
});

describe('generated media in the timeline', () => {
  const turn: Turn = {
    id: TURN,
    sequence: 1,
    request: 'Draw',
    status: 'running',
    startedAt: '2025-01-01T10:00:00.000Z',
    endedAt: null,
    compactedAt: null,
    summary: null,
    stepCount: 0,
    tokens: { input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0 },
    cost: { dollars: null, unpricedTokens: 0 },
    pictures: [],
    stepKind: null,
    answer: null,
  };
  const detail = { session: { id: SESSION }, turns: [turn] } as unknown as SessionDetail;
  const image = { mediaId: MEDIA_ID, turnId: TURN, kind: 'image' as const, mime: 'image/png', width: 8, height: 6 };

  it('holds media from a live event once, keeps it over a reload that predates it, and lays it out under its turn', () => {
    let state = timelineReducer(initialTimelineState(SESSION), { type: 'loaded', detail, reports: [], injections: [], pending: [], media: [] });
    const event = { type: 'media' as const, sessionId: SESSION, turnId: TURN, at: 1, mediaId: MEDIA_ID, kind: 'image' as const, mime: 'image/png', width: 8, height: 6, byteSize: 10 };
    state = timelineReducer(state, { type: 'event', event });
    state = timelineReducer(state, { type: 'event', event });
    expect(state.media).toEqual([image]);
    state = timelineReducer(state, { type: 'loaded', detail, reports: [], injections: [], pending: [], media: [] });
    expect(state.media).toEqual([image]);
    expect(timelineRows(state).map((row) => row.kind)).toEqual(['turn', 'media']);
    const other = timelineReducer(state, { type: 'event', event: { ...event, sessionId: 'ses_000000000002' } });
    expect(other.media).toEqual([image]);
  });
});
