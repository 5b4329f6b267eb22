import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { seedStorage } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-repositories');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

describe('sessions and turns', () => {
  it('numbers turns within their session and ends each once', () => {
    const session = storage.sessions.create({ title: 'numbering', operator: 'desktop', model: 'gpt-4.1' });
    expect(session).toMatchObject({ status: 'idle', operator: 'desktop', model: 'gpt-4.1' });
    const first = storage.turns.start({ sessionId: session.id, userRequest: 'one' });
    const second = storage.turns.start({ sessionId: session.id, userRequest: 'two' });
    expect([first.sequence, second.sequence]).toEqual([1, 2]);
    expect(first.status).toBe('running');

    const ended = storage.turns.end(first.id, 'stopped');
    expect(ended.status).toBe('stopped');
    expect(ended.endedAt).not.toBeNull();
    expect(() => storage.turns.end(first.id, 'finished')).toThrow(/already ended \(stopped\)/);
    expect(storage.turns.markCompacted(first.id, 'did one').summary).toBe('did one');
    expect(storage.turns.listBySession(session.id).map((turn) => turn.userRequest)).toEqual(['one', 'two']);
    expect(storage.turns.latest(session.id)?.id).toBe(second.id);

    expect(storage.sessions.setStatus(session.id, 'closed').status).toBe('closed');
    expect(() => storage.turns.start({ sessionId: 'ses_000000000000', userRequest: 'orphan' })).toThrow(/FOREIGN KEY/);
  });

  it('lists sessions newest first with their turn and step counts', async () => {
    const seeded = await seedStorage(storage, { sessions: 3, turnsPerSession: 2, stepsPerTurn: 2 });
    const listed = storage.sessions.list();
    expect(listed.map((session) => session.id)).toEqual(seeded.map((entry) => entry.session.id).reverse());
    expect(listed.every((session) => session.turnCount === 2 && session.stepCount === 4)).toBe(true);
    expect(storage.sessions.list({ limit: 1 })).toHaveLength(1);
    expect(storage.sessions.count()).toBe(3);
  });
});

describe('messages', () => {
  it('stores each kind of message and reads it back the same', () => {
    const sessionId = storage.sessions.create({ title: 'messages' }).id;
    const turnId = storage.turns.start({ sessionId, userRequest: 'hi' }).id;
    const messages = [
      { role: 'system' as const, parts: [{ type: 'text' as const, text: 'be careful' }] },
      {
        role: 'user' as const,
        parts: [
          { type: 'text' as const, text: 'what is this?' },
          { type: 'image' as const, imageId: 'img_0123456789ab', mime: 'image/png' },
        ],
      },
      {
        role: 'assistant' as const,
        parts: [],
        toolCalls: [{ id: 'call_1', name: 'computer', argumentsText: '{"action":"screenshot"}' }],
      },
      { role: 'tool' as const, toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text' as const, text: 'no' }], isError: true },
    ];
    const stored = messages.map((message) => storage.messages.append({ sessionId, turnId, message }));
    expect(stored.map((record) => record.sequence)).toEqual([1, 2, 3, 4]);
    expect(storage.messages.listByTurn(turnId).map((record) => record.message)).toEqual(messages);
    expect(storage.messages.listBySession(sessionId)).toEqual(stored);
  });

  it('refuses pixels in image parts: the database holds ids only', () => {
    const sessionId = storage.sessions.create({ title: 'pixels' }).id;
    const append = (part: Record<string, unknown>) =>
      storage.messages.append({
        sessionId,
        turnId: null,
        message: { role: 'user', parts: [part as { type: 'image'; imageId: string }] },
      });
    expect(() => append({ type: 'image', mime: 'image/png', data: 'iVBORw0KGgo=' })).toThrow(/pixels/);
    expect(() => append({ type: 'image', url: 'data:image/png;base64,iVBORw0KGgo=' })).toThrow(/pixels/);
    expect(storage.messages.listBySession(sessionId)).toEqual([]);
  });

  it('compresses messages of a turn, never those without one (older data)', () => {
    const sessionId = storage.sessions.create({ title: 'compress' }).id;
    const turnId = storage.turns.start({ sessionId, userRequest: 'x' }).id;
    const older = storage.messages.append({
      sessionId,
      turnId: null,
      message: { role: 'user', parts: [{ type: 'image', imageId: 'img_0123456789ab' }] },
    });
    const current = storage.messages.append({
      sessionId,
      turnId,
      message: { role: 'user', parts: [{ type: 'image', imageId: 'img_0123456789ab' }] },
    });
    const placeholder = [{ type: 'text' as const, text: '[Visual_Placeholder: img_0123456789ab]' }];
    const compressed = storage.messages.compress(current.id, placeholder);
    expect(compressed).toMatchObject({ isCompressed: true, message: { parts: placeholder } });
    expect(() => storage.messages.compress(older.id, placeholder)).toThrow(/never compacted/);
    expect(storage.messages.get(older.id)).toEqual(older);
  });
});

describe('steps, search reports and injections', () => {
  it('appends steps in order and records their outcome', async () => {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    const turn = seeded?.turns[0];
    if (seeded === undefined || turn === undefined) throw new Error('seed failed');
    const step = storage.steps.append({
      sessionId: seeded.session.id,
      turnId: turn.turn.id,
      action: { action: 'type', text: 'hello' },
      dedupOfImageId: turn.images[1]?.id ?? null,
      tokenReport: { sent: 3, folded: 1 },
    });
    expect(step).toMatchObject({ sequence: 3, result: null, error: null, tokenReport: { sent: 3, folded: 1 } });
    const done = storage.steps.recordOutcome(step.id, { error: 'window closed', latencyMs: 40 });
    expect(done).toMatchObject({ error: 'window closed', latencyMs: 40, action: { action: 'type', text: 'hello' } });
    expect(storage.steps.listByTurn(turn.turn.id).map((entry) => entry.sequence)).toEqual([1, 2, 3]);
    expect(storage.steps.listBySession(seeded.session.id)).toHaveLength(3);
  });

  it('keeps search reports and injection metadata', () => {
    const sessionId = storage.sessions.create({ title: 'search' }).id;
    const turnId = storage.turns.start({ sessionId, userRequest: 'find' }).id;
    const report = storage.searchReports.add({
      sessionId,
      turnId,
      question: 'latest node version?',
      queries: ['node latest release'],
      sources: [{ url: 'https://nodejs.org', title: 'Node.js' }],
      answer: 'see nodejs.org',
      confidence: 0.7,
      iterations: 2,
      durationMs: 1500,
    });
    expect(storage.searchReports.listBySession(sessionId)).toEqual([report]);
    expect(storage.searchReports.listByTurn(turnId)).toEqual([report]);
    const injection = storage.injections.record({ sessionId, turnId, type: 'time', contentLength: 28 });
    expect(injection).toMatchObject({ type: 'time', contentLength: 28 });
    expect(Object.keys(injection)).not.toContain('content');
    expect(storage.injections.listByTurn(turnId)).toEqual([injection]);
  });
});
