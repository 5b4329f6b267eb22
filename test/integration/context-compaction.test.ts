/** Turn compaction over real storage: anchors, placeholders and captions, cold storage, idempotence, the queue, legacy rows. */
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compactTurn, CompactionRefusedError } from '../../src/main/context/compact-turn.js';
import { CompactionQueue, createCompactionHook } from '../../src/main/context/compaction-queue.js';
import type { ImageRecord, Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { recordTurn, screenshot } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-compaction');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

function fileIn(image: ImageRecord, location: 'blobs' | 'cold'): boolean {
  return existsSync(storage.blobs.pathFor(location, image.sha256, image.mime));
}

function partsOf(turnId: string): string[] {
  return storage.messages
    .listByTurn(turnId)
    .flatMap((record) => record.message.parts.map((part) => (part.type === 'text' ? part.text : `image:${part.type === 'image' ? part.imageId : ''}`)));
}

const CAPTION = /^\[Visual_Placeholder: (img_[0-9a-f]{12})\] step \d+ · click \(\d+, \d+\) · \d\d:\d\d:\d\d · 64×48$/;

describe('compactTurn', () => {
  it('keeps the first, last and error frames whole and folds the rest into captioned placeholders in cold storage', async () => {
    const session = storage.sessions.create({ title: 'Compaction' });
    // Screenshots: s0 (first), s1, s2 (error result), s3, then a failed step (seen on s3), s4, s5 (last).
    const { turn, screenshots, steps } = await recordTurn(storage, session, {
      steps: [{}, { errorResult: true }, {}, { fails: true }, {}, {}],
    });
    const [s0, s1, s2, s3, s4, s5] = screenshots as [ImageRecord, ImageRecord, ImageRecord, ImageRecord, ImageRecord, ImageRecord];
    expect(screenshots).toHaveLength(6);

    const result = await compactTurn({ storage, turnId: turn.id });
    expect(result).toMatchObject({ status: 'compacted', resumed: false, filesMoved: 2 });
    if (result.status !== 'compacted') throw new Error('not compacted');
    expect(new Set(result.anchors)).toEqual(new Set([s0.id, s5.id, s2.id, s3.id]));
    expect(result.folded).toEqual([s1.id, s4.id]);

    // Files really moved; rows say where.
    for (const folded of [s1, s4]) {
      expect(fileIn(folded, 'cold')).toBe(true);
      expect(fileIn(folded, 'blobs')).toBe(false);
      expect(storage.images.get(folded.id)).toMatchObject({ zone: 'offloaded' });
      expect(storage.images.get(folded.id)?.offloadedAt).not.toBeNull();
    }
    for (const anchor of [s0, s2, s3, s5]) {
      expect(fileIn(anchor, 'blobs')).toBe(true);
      expect(storage.images.get(anchor.id)).toMatchObject({ zone: 'compact' });
    }
    expect(storage.images.get(s2.id)?.isErrorFrame).toBe(true);
    expect(storage.images.get(s3.id)?.isErrorFrame).toBe(true);
    expect(storage.images.get(s1.id)?.isErrorFrame).toBe(false);

    // Messages: anchors still image parts, folded images placeholders with a one-line caption.
    const parts = partsOf(turn.id);
    for (const anchor of [s0, s2, s5]) expect(parts).toContain(`image:${anchor.id}`);
    const placeholders = parts.filter((text) => text.startsWith('[Visual_Placeholder:'));
    expect(placeholders.map((text) => CAPTION.exec(text)?.[1])).toEqual([s1.id, s4.id]);
    expect(placeholders[0]).toContain(`step ${steps[0]!.sequence} · click (100, 200)`);
    expect(placeholders[0]).toContain(s1.createdAt.slice(11, 19));
    const compressed = storage.messages.listByTurn(turn.id).filter((record) => record.isCompressed);
    expect(compressed).toHaveLength(2);
    expect(compressed.every((record) => record.message.role === 'tool')).toBe(true);

    // Captions are stored on every image of the turn, and the turn says it is compacted, with the model's summary.
    expect(storage.images.get(s1.id)?.caption).toMatch(/^step \d+ · click/);
    expect(storage.images.get(s0.id)?.caption).toMatch(/^before step 1 · click \(100, 200\)/);
    expect(storage.turns.get(turn.id)).toMatchObject({ summary: 'Finished: Do the thing' });
    expect(storage.turns.get(turn.id)?.compactedAt).not.toBeNull();
    expect(storage.compactions.get(turn.id)).toMatchObject({ state: 'done' });

    // Nothing is lost: a folded image still reads, from cold storage.
    const read = await storage.images.retrieve(s1.id);
    expect(read).toMatchObject({ status: 'ok', location: 'cold' });
  });

  it('is idempotent: a second call is a no-op that changes nothing', async () => {
    const session = storage.sessions.create({ title: 'Twice' });
    const { turn } = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    await compactTurn({ storage, turnId: turn.id });
    const before = {
      images: storage.images.listByTurn(turn.id),
      messages: storage.messages.listByTurn(turn.id),
      turn: storage.turns.get(turn.id),
    };
    expect(await compactTurn({ storage, turnId: turn.id })).toEqual({ status: 'already-compacted', turnId: turn.id });
    expect({
      images: storage.images.listByTurn(turn.id),
      messages: storage.messages.listByTurn(turn.id),
      turn: storage.turns.get(turn.id),
    }).toEqual(before);
  });

  it('refuses a running turn, a turn of another session and an unknown turn', async () => {
    const session = storage.sessions.create({ title: 'Running' });
    const other = storage.sessions.create({ title: 'Other' });
    const { turn } = await recordTurn(storage, session, { steps: [{}], status: 'running' });
    await expect(compactTurn({ storage, turnId: turn.id })).rejects.toThrow(/still running/);
    await expect(compactTurn({ storage, turnId: turn.id, sessionId: other.id })).rejects.toBeInstanceOf(CompactionRefusedError);
    await expect(compactTurn({ storage, turnId: 'turn_000000000000' })).rejects.toThrow(/no turn/);
    expect(storage.compactions.get(turn.id)).toBeUndefined();
  });

  it('never touches rows without a turn (older data)', async () => {
    const session = storage.sessions.create({ title: 'Legacy' });
    const legacyImage = await screenshot(storage, session, null);
    const legacyMessage = storage.messages.append({
      sessionId: session.id,
      turnId: null,
      message: { role: 'user', parts: [{ type: 'text', text: 'old' }, { type: 'image', imageId: legacyImage.id }] },
    });
    const { turn } = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    // The turn's messages even mention the legacy image; it is not the turn's to fold or move.
    storage.messages.append({
      sessionId: session.id,
      turnId: null,
      message: { role: 'assistant', parts: [{ type: 'image', imageId: legacyImage.id }], toolCalls: [] },
    });
    await compactTurn({ storage, turnId: turn.id });
    expect(storage.images.get(legacyImage.id)).toEqual(legacyImage);
    expect(storage.messages.get(legacyMessage.id)).toEqual(legacyMessage);
    expect(fileIn(legacyImage, 'blobs')).toBe(true);
  });

  it('folds a picture the user attached (its file goes cold) but keeps it as an image part for the builder to name', async () => {
    const session = storage.sessions.create({ title: 'Picture' });
    const bytes = await makePng({ width: 30, height: 20, seed: 77 });
    const picture = await storage.images.put({ sessionId: session.id, turnId: null, bytes, mime: 'image/png', width: 30, height: 20, source: 'user' });
    const { turn } = await recordTurn(storage, session, { requestParts: [{ type: 'image', imageId: picture.id }], steps: [{}] });
    // A picture attached in the turn belongs to it.
    withRawDatabase(storage.paths.databaseFile, (database) => database.prepare('UPDATE images SET turn_id = ? WHERE id = ?').run(turn.id, picture.id));
    await compactTurn({ storage, turnId: turn.id });
    expect(storage.images.get(picture.id)).toMatchObject({ zone: 'offloaded' });
    expect(partsOf(turn.id)).toContain(`image:${picture.id}`);
  });
});

describe('CompactionQueue', () => {
  it('runs two compactions of one session one after the other, in order, without interleaving', async () => {
    const session = storage.sessions.create({ title: 'Queue' });
    const first = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    const second = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    const log: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const name = (turnId: string) => (turnId === first.turn.id ? 'A' : 'B');
    const queue = new CompactionQueue({
      storage,
      seams: {
        // A slow disk: the first compaction's file moves wait until released.
        afterPlan: async (turnId) => {
          log.push(`plan ${name(turnId)}`);
          if (turnId === first.turn.id) await held;
        },
        afterFileMoved: (turnId) => void log.push(`move ${name(turnId)}`),
        beforeRowUpdates: (turnId) => void log.push(`rows ${name(turnId)}`),
      },
    });
    const hook = createCompactionHook(queue);
    const one = hook({ sessionId: session.id, turnId: first.turn.id });
    const two = hook({ sessionId: session.id, turnId: second.turn.id });
    for (let index = 0; index < 10; index += 1) await new Promise((resolve) => setImmediate(resolve));
    // The second is queued (not started, not dropped) while the first is held.
    expect(log).toEqual(['plan A']);
    expect(storage.compactions.get(second.turn.id)).toBeUndefined();
    release();
    await Promise.all([one, two]);
    expect(log).toEqual(['plan A', 'move A', 'move A', 'rows A', 'plan B', 'move B', 'move B', 'rows B']);
    expect(storage.turns.get(first.turn.id)?.compactedAt).not.toBeNull();
    expect(storage.turns.get(second.turn.id)?.compactedAt).not.toBeNull();
  });

  it('compacts a turn asked for twice exactly once, and keeps going after a failure', async () => {
    const session = storage.sessions.create({ title: 'Once' });
    const { turn } = await recordTurn(storage, session, { steps: [{}, {}, {}] });
    const running = await recordTurn(storage, session, { steps: [{}], status: 'running' });
    const queue = new CompactionQueue({ storage });
    const failing = queue.compact(session.id, running.turn.id);
    const [a, b] = await Promise.all([queue.compact(session.id, turn.id), queue.compact(session.id, turn.id)]);
    await expect(failing).rejects.toThrow(/still running/);
    expect(a).toBe(b);
    expect(a.status).toBe('compacted');
    expect(await queue.compact(session.id, turn.id)).toEqual({ status: 'already-compacted', turnId: turn.id });
    await queue.idle();
  });

  it('lets sessions compact side by side', async () => {
    const one = storage.sessions.create({ title: 'One' });
    const two = storage.sessions.create({ title: 'Two' });
    const turnOne = await recordTurn(storage, one, { steps: [{}, {}] });
    const turnTwo = await recordTurn(storage, two, { steps: [{}, {}] });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const queue = new CompactionQueue({ storage, seams: { afterPlan: (turnId) => (turnId === turnOne.turn.id ? held : undefined) } });
    const first = queue.compact(one.id, turnOne.turn.id);
    const second = await queue.compact(two.id, turnTwo.turn.id);
    expect(second.status).toBe('compacted');
    release();
    expect((await first).status).toBe('compacted');
  });
});
