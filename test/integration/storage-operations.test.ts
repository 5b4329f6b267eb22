/**
 * Storage's named operations, which the layers above use instead of SQL: the timeline's reads (session
 * summaries, pages of steps, token totals), deleting a session with its files, transactions, and ending
 * an abandoned turn.
 */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { makePng, seedStorage } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-storage-operations');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

describe('session summaries', () => {
  it('pages the sessions whose title or a request contains the text, newest first, with their counts and the total', async () => {
    const seeded = await seedStorage(storage, { sessions: 3, turnsPerSession: 2, stepsPerTurn: 1 });
    const [first, second, third] = seeded.map((entry) => entry.session.id) as [string, string, string];
    const percent = storage.sessions.create({ title: '100% done' });

    const all = storage.sessions.summaries({ limit: 2, offset: 0 });
    expect(all.total).toBe(4);
    expect(all.sessions.map((session) => session.id)).toEqual([percent.id, third]);
    expect(storage.sessions.summaries({ matching: '   ', limit: 10, offset: 1 }).sessions.map((session) => session.id)).toEqual([third, second, first]);

    const byRequest = storage.sessions.summaries({ matching: 'request 2.', limit: 10, offset: 0 });
    expect(byRequest).toEqual({ sessions: [expect.objectContaining({ id: second, turnCount: 2, stepCount: 2 })], total: 1 });
    // The user's % is a character, not a wildcard.
    expect(storage.sessions.summaries({ matching: '0%', limit: 10, offset: 0 }).sessions.map((session) => session.id)).toEqual([percent.id]);
    expect(storage.sessions.summaries({ matching: '1%', limit: 10, offset: 0 }).total).toBe(0);

    expect(storage.sessions.summary(first)).toMatchObject({ id: first, title: 'Session 1', turnCount: 2, stepCount: 2 });
    expect(storage.sessions.summary('ses_000000000000')).toBeUndefined();
  });
});

describe('steps for the timeline', () => {
  it('pages a session’s steps in turn order, or one turn’s, and counts them per turn', async () => {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 2, stepsPerTurn: 3 });
    const { session, turns } = seeded!;
    const allSteps = turns.flatMap((turn) => turn.steps.map((step) => step.id));

    const page = storage.steps.page({ sessionId: session.id, limit: 2, offset: 2 });
    expect(page.total).toBe(6);
    expect(page.steps.map((step) => step.id)).toEqual(allSteps.slice(2, 4));
    expect(page.steps[0]).toEqual(storage.steps.get(allSteps[2]!));

    const secondTurn = turns[1]!.turn.id;
    const ofTurn = storage.steps.page({ sessionId: session.id, turnId: secondTurn, limit: 10, offset: 0 });
    expect(ofTurn).toEqual({ steps: turns[1]!.steps, total: 3 });

    expect(storage.steps.countsByTurn(session.id)).toEqual(new Map(turns.map((turn) => [turn.turn.id, 3])));
  });

  it('sums the tokens of a session’s steps, with null estimates when no step has a token report', async () => {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    const { session, turns } = seeded!;
    expect(storage.steps.tokenTotals(session.id)).toEqual({ input: 2000, output: 100, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null });

    storage.steps.append({
      sessionId: session.id,
      turnId: turns[0]!.turn.id,
      action: { action: 'wait', seconds: 1 },
      tokenReport: { sentTokens: 10.4, keepEverythingTokens: 20.6 },
    });
    expect(storage.steps.tokenTotals(session.id)).toEqual({ input: 2000, output: 100, cachedInput: 0, cacheWriteInput: 0, sent: 10, keepEverything: 21 });
    expect(storage.steps.tokenTotals('ses_000000000000')).toEqual({ input: 0, output: 0, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null });
  });

  it('keeps the prompt cache’s reads and writes of a step and sums them per session', async () => {
    const [seeded] = await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 1 });
    const { session, turns } = seeded!;
    const turnId = turns[0]!.turn.id;
    const cachedStep = storage.steps.append({
      sessionId: session.id,
      turnId,
      action: { action: 'wait', seconds: 1 },
      inputTokens: 12_340,
      outputTokens: 210,
      cachedInputTokens: 11_900,
      cacheWriteInputTokens: 300,
    });
    expect(storage.steps.get(cachedStep.id)).toMatchObject({ inputTokens: 12_340, cachedInputTokens: 11_900, cacheWriteInputTokens: 300 });
    const readOnly = storage.steps.append({ sessionId: session.id, turnId, action: { action: 'wait', seconds: 1 }, inputTokens: 500, cachedInputTokens: 400 });
    expect(readOnly).toMatchObject({ cachedInputTokens: 400, cacheWriteInputTokens: null });
    // The seeded step reported no cache at all: its columns stay null rather than claiming zero.
    expect(storage.steps.listByTurn(turnId)[0]).toMatchObject({ cachedInputTokens: null, cacheWriteInputTokens: null });
    expect(storage.steps.tokenTotalsByTurn(session.id)).toEqual(
      new Map([[turnId, { input: 1000 + 12_340 + 500, output: 50 + 210, cachedInput: 12_300, cacheWriteInput: 300 }]]),
    );
    expect(storage.steps.tokenTotals(session.id)).toMatchObject({ input: 1000 + 12_340 + 500, output: 50 + 210, cachedInput: 12_300, cacheWriteInput: 300 });
  });
});

describe('deleting a session', () => {
  it('deletes its rows and the files only it used, hot and cold, and keeps a file another session shares', async () => {
    const [doomed, kept] = await seedStorage(storage, { sessions: 2, turnsPerSession: 1, stepsPerTurn: 2 });
    const [hot, cold] = doomed!.turns[0]!.images as [ImageRecord, ImageRecord];
    await storage.images.archive(cold.id);
    const shared = await makePng({ seed: 900 });
    const doomedShared = await storage.images.put({ sessionId: doomed!.session.id, turnId: null, bytes: shared, mime: 'image/png', width: 64, height: 48, source: 'user' });
    const keptShared = await storage.images.put({ sessionId: kept!.session.id, turnId: null, bytes: shared, mime: 'image/png', width: 64, height: 48, source: 'user' });
    expect(doomedShared.sha256).toBe(keptShared.sha256);

    expect(await storage.deleteSession(doomed!.session.id)).toEqual({ imagesDeleted: 3, filesDeleted: 2 });
    expect(storage.sessions.get(doomed!.session.id)).toBeUndefined();
    expect(storage.turns.listBySession(doomed!.session.id)).toEqual([]);
    expect(storage.steps.listBySession(doomed!.session.id)).toEqual([]);
    expect(storage.images.listBySession(doomed!.session.id)).toEqual([]);
    expect(existsSync(storage.blobs.pathFor('blobs', hot.sha256, hot.mime))).toBe(false);
    expect(existsSync(storage.blobs.pathFor('cold', cold.sha256, cold.mime))).toBe(false);
    expect(await storage.images.read(keptShared.id)).toMatchObject({ status: 'ok' });
    expect(await storage.images.read(kept!.turns[0]!.images[0]!.id)).toMatchObject({ status: 'ok' });
  });

  it('deletes a session without images, and a session that is already gone, counting nothing', async () => {
    const empty = storage.sessions.create({ title: 'empty' });
    expect(await storage.deleteSession(empty.id)).toEqual({ imagesDeleted: 0, filesDeleted: 0 });
    expect(await storage.deleteSession(empty.id)).toEqual({ imagesDeleted: 0, filesDeleted: 0 });
  });
});

describe('transactions', () => {
  it('keeps every write of the work or none, and returns what the work returns', () => {
    const session = storage.sessions.create({ title: 'atomic' });
    expect(() =>
      storage.transaction(() => {
        storage.turns.start({ sessionId: session.id, userRequest: 'lost' });
        throw new Error('midway');
      }),
    ).toThrow('midway');
    expect(storage.turns.listBySession(session.id)).toEqual([]);

    const turn = storage.transaction(() => storage.turns.start({ sessionId: session.id, userRequest: 'kept' }), { immediate: true });
    expect(storage.turns.listBySession(session.id)).toEqual([turn]);
  });

  it('refuses asynchronous work, which would hold the transaction open across awaits', () => {
    expect(() => storage.transaction(async () => undefined)).toThrow(/promise/);
  });
});

describe('ending an abandoned turn', () => {
  it('ends it as stopped and makes its session idle once none of its turns still runs', () => {
    const session = storage.sessions.create({ title: 'abandoned', status: 'running' });
    const first = storage.turns.start({ sessionId: session.id, userRequest: 'one' });
    const second = storage.turns.start({ sessionId: session.id, userRequest: 'two' });

    storage.endAbandonedTurn(first);
    expect(storage.turns.get(first.id)?.status).toBe('stopped');
    expect(storage.sessions.get(session.id)?.status).toBe('running');

    storage.endAbandonedTurn(second);
    expect(storage.turns.get(second.id)?.status).toBe('stopped');
    expect(storage.sessions.get(session.id)?.status).toBe('idle');
  });
});
