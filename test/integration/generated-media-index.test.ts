/**
 * The index of generated media (migration 0011): a database written before it gets its rows from the stored
 * messages, every later message write keeps them, and a session's deletion takes them. The store's answers
 * (find, listBySession, referencedFiles) are checked against a reading of the messages' parts the way the
 * store read them before the index, so the index changes how fast it answers, never what.
 */
import { readFileSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/storage/database.js';
import { MIGRATIONS } from '../../src/main/storage/migrations/index.js';
import { DatabaseVersionError, SCHEMA_VERSION, type Storage } from '../../src/main/storage/index.js';
import { GENERATED_MEDIA_KINDS, sha256OfGeneratedMedia, type GeneratedMedia } from '../../src/shared/generated-media.js';
import type { AssistantMessage } from '../../src/shared/messages.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';
import { withRawDatabase } from '../helpers/raw-database.js';

let home: TemporaryHome | undefined;
let storage: Storage | undefined;
afterEach(() => {
  storage?.close();
  storage = undefined;
  home?.remove();
  home = undefined;
});

const hash = (digit: string): string => digit.repeat(64);
const AUDIO_ID = `med_${hash('a')}`;
const IMAGE_ID = `med_${hash('b')}`;
const SHARED_ID = `med_${hash('c')}`;
const OTHER_ID = `med_${hash('d')}`;

/** The messages of a database written at version 10, parts as they were stored (raw JSON). */
const OLD_MESSAGES: Array<{ id: string; session: string; turn: string | null; role: string; parts: unknown[] }> = [
  { id: 'msg_1', session: 'ses_1', turn: 'turn_1', role: 'user', parts: [{ type: 'text', text: 'Draw and say it' }] },
  {
    id: 'msg_2',
    session: 'ses_1',
    turn: 'turn_1',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'Here.' },
      { type: 'image', mediaId: IMAGE_ID, mime: 'image/png', width: 96, height: 64 },
      { type: 'audio', mediaId: AUDIO_ID, mime: 'audio/wav' },
      { type: 'image', mediaId: SHARED_ID, mime: 'image/webp' },
    ],
  },
  // What only looks generated: none of it is indexed, as none of it was listed before.
  { id: 'msg_3', session: 'ses_1', turn: 'turn_1', role: 'tool', parts: [{ type: 'image', mediaId: OTHER_ID, mime: 'image/png' }] },
  { id: 'msg_4', session: 'ses_1', turn: 'turn_1', role: 'user', parts: [{ type: 'image', mediaId: OTHER_ID, mime: 'image/png' }] },
  {
    id: 'msg_5',
    session: 'ses_1',
    turn: 'turn_1',
    role: 'assistant',
    parts: [
      { type: 'image', mediaId: `med_${hash('E')}`, mime: 'image/png' },
      { type: 'image', mediaId: `med_${'e'.repeat(63)}`, mime: 'image/png' },
      { type: 'image', mediaId: OTHER_ID },
      { type: 'image', mediaId: OTHER_ID, mime: 'image/png', width: 0, height: 10 },
      { type: 'image', mediaId: OTHER_ID, mime: 'image/png', width: 12.5, height: 10 },
      { type: 'file', mediaId: OTHER_ID, mime: 'image/png' },
      { type: 'image', imageId: 'img_1' },
      'not a part',
      7,
    ],
  },
  { id: 'msg_6', session: 'ses_2', turn: null, role: 'assistant', parts: [{ type: 'image', mediaId: SHARED_ID, mime: 'image/webp', width: 10, height: 20 }] },
];

/** How the store read the parts before the index: the assistant messages' parts, in the order written. */
const OldPartSchema = z.object({
  type: z.enum(GENERATED_MEDIA_KINDS),
  mediaId: z.string(),
  mime: z.string(),
  width: z.number().int().positive().optional(),
  height: z.number().int().positive().optional(),
});

function partsAsReadBefore(databaseFile: string): Array<{ sessionId: string; media: GeneratedMedia }> {
  const rows = withRawDatabase(databaseFile, (database) =>
    z
      .array(z.object({ session_id: z.string(), turn_id: z.string().nullable(), role: z.string(), parts: z.string() }))
      .parse(database.prepare('SELECT session_id, turn_id, role, parts FROM messages ORDER BY rowid').all()),
  );
  const found: Array<{ sessionId: string; media: GeneratedMedia }> = [];
  for (const row of rows.filter((candidate) => candidate.role === 'assistant')) {
    for (const value of z.array(z.unknown()).parse(JSON.parse(row.parts))) {
      const part = OldPartSchema.safeParse(value);
      if (!part.success || sha256OfGeneratedMedia(part.data.mediaId) === undefined) continue;
      const { type, mediaId, mime, width, height } = part.data;
      const media: GeneratedMedia = { mediaId, turnId: row.turn_id ?? '', kind: type, mime };
      if (width !== undefined) media.width = width;
      if (height !== undefined) media.height = height;
      found.push({ sessionId: row.session_id, media });
    }
  }
  return found;
}

function expectSameAnswersAsReadingTheMessages(opened: Storage, databaseFile: string, mediaIds: string[]): void {
  const before = partsAsReadBefore(databaseFile);
  for (const sessionId of ['ses_1', 'ses_2']) {
    expect(opened.media.listBySession(sessionId)).toEqual(before.filter((entry) => entry.sessionId === sessionId).map((entry) => entry.media));
  }
  for (const mediaId of mediaIds) expect(opened.media.find(mediaId)).toEqual(before.find((entry) => entry.media.mediaId === mediaId));
  expect(opened.media.referencedFiles()).toEqual(new Set(before.map((entry) => sha256OfGeneratedMedia(entry.media.mediaId))));
}

/** A database file at schema version 10 holding OLD_MESSAGES, in a fresh home. */
function databaseAtVersionTen(): TemporaryHome {
  const created = createTemporaryHome('sightline-media-index');
  const database = new BetterSqlite3(created.databaseFile);
  try {
    database.pragma('foreign_keys = ON');
    migrate(database, MIGRATIONS.slice(0, 10));
    const at = '2025-01-01T00:00:00.000Z';
    for (const session of ['ses_1', 'ses_2']) {
      database
        .prepare("INSERT INTO sessions (id, title, status, operator, model, created_at, updated_at) VALUES (?, 'Old', 'idle', 'desktop', 'gpt-4.1', ?, ?)")
        .run(session, at, at);
    }
    database
      .prepare("INSERT INTO turns (id, session_id, sequence, user_request, status, started_at) VALUES ('turn_1', 'ses_1', 1, 'Draw', 'finished', ?)")
      .run(at);
    OLD_MESSAGES.forEach((message, index) => {
      database
        .prepare(
          `INSERT INTO messages (id, session_id, turn_id, sequence, role, parts, tool_calls, tool_call_id, tool_name, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          message.id,
          message.session,
          message.turn,
          index + 1,
          message.role,
          JSON.stringify(message.parts),
          message.role === 'assistant' ? '[]' : null,
          message.role === 'tool' ? 'call_1' : null,
          message.role === 'tool' ? 'computer' : null,
          at,
        );
    });
  } finally {
    database.close();
  }
  return created;
}

function indexedRowCount(databaseFile: string): number {
  return z.number().parse(withRawDatabase(databaseFile, (database) => database.prepare('SELECT COUNT(*) FROM generated_media').pluck().get()));
}

function assistantWith(parts: AssistantMessage['parts']): AssistantMessage {
  return { role: 'assistant', parts, toolCalls: [] };
}

describe('the generated media index', () => {
  it('is filled from the messages of a database written at version 10, and answers as reading them did', () => {
    home = databaseAtVersionTen();
    storage = openHomeStorage(home);
    expect(indexedRowCount(home.databaseFile)).toBe(4);
    expect(storage.media.listBySession('ses_1')).toEqual([
      { mediaId: IMAGE_ID, turnId: 'turn_1', kind: 'image', mime: 'image/png', width: 96, height: 64 },
      { mediaId: AUDIO_ID, turnId: 'turn_1', kind: 'audio', mime: 'audio/wav' },
      { mediaId: SHARED_ID, turnId: 'turn_1', kind: 'image', mime: 'image/webp' },
    ]);
    // The first message that names it, as the scan met it.
    expect(storage.media.find(SHARED_ID)).toEqual({ sessionId: 'ses_1', media: { mediaId: SHARED_ID, turnId: 'turn_1', kind: 'image', mime: 'image/webp' } });
    expect(storage.media.find(OTHER_ID)).toBeUndefined();
    expect(storage.media.referencedFiles()).toEqual(new Set([hash('a'), hash('b'), hash('c')]));
    expectSameAnswersAsReadingTheMessages(storage, home.databaseFile, [IMAGE_ID, AUDIO_ID, SHARED_ID, OTHER_ID]);
  });

  it('follows every write of a message: an append, a rewrite that drops a part, a compaction', () => {
    home = createTemporaryHome('sightline-media-index');
    storage = openHomeStorage(home);
    const session = storage.sessions.create({ title: 'Draw' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Draw' });
    const image = { type: 'image' as const, mediaId: IMAGE_ID, mime: 'image/png', width: 96, height: 64 };
    const audio = { type: 'audio' as const, mediaId: AUDIO_ID, mime: 'audio/wav' };
    const stored = storage.messages.append({ sessionId: session.id, turnId: turn.id, message: assistantWith([image, audio]) });
    expect(storage.media.listBySession(session.id)).toEqual([
      { mediaId: IMAGE_ID, turnId: turn.id, kind: 'image', mime: 'image/png', width: 96, height: 64 },
      { mediaId: AUDIO_ID, turnId: turn.id, kind: 'audio', mime: 'audio/wav' },
    ]);

    storage.messages.rewriteCalls(stored.id, assistantWith([{ type: 'text', text: 'masked' }, audio]));
    expect(storage.media.find(IMAGE_ID)).toBeUndefined();
    expect(storage.media.listBySession(session.id)).toEqual([{ mediaId: AUDIO_ID, turnId: turn.id, kind: 'audio', mime: 'audio/wav' }]);

    storage.messages.compress(stored.id, [{ type: 'text', text: '[audio folded]' }]);
    expect(storage.media.listBySession(session.id)).toEqual([]);
    expect(storage.media.referencedFiles()).toEqual(new Set());
    expect(indexedRowCount(home.databaseFile)).toBe(0);
  });

  it("goes with its session's deletion, leaving another session's rows for the same media", async () => {
    home = createTemporaryHome('sightline-media-index');
    storage = openHomeStorage(home);
    const shared = { type: 'image' as const, mediaId: SHARED_ID, mime: 'image/webp' };
    const first = storage.sessions.create({ title: 'First' });
    const second = storage.sessions.create({ title: 'Second' });
    storage.messages.append({ sessionId: first.id, turnId: null, message: assistantWith([shared, { type: 'audio', mediaId: AUDIO_ID, mime: 'audio/wav' }]) });
    storage.messages.append({ sessionId: second.id, turnId: null, message: assistantWith([shared]) });
    expect(storage.media.find(SHARED_ID)?.sessionId).toBe(first.id);

    await storage.deleteSession(first.id);
    expect(storage.media.listBySession(first.id)).toEqual([]);
    expect(storage.media.find(AUDIO_ID)).toBeUndefined();
    expect(storage.media.find(SHARED_ID)?.sessionId).toBe(second.id);
    expect(storage.media.referencedFiles()).toEqual(new Set([hash('c')]));

    await storage.deleteSession(second.id);
    expect(storage.media.find(SHARED_ID)).toBeUndefined();
    expect(indexedRowCount(home.databaseFile)).toBe(0);
  });

  it('leaves a database from a newer Sightline refused and untouched', () => {
    home = createTemporaryHome('sightline-media-index');
    const newer = new BetterSqlite3(home.databaseFile);
    migrate(newer, MIGRATIONS);
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    const before = readFileSync(home.databaseFile);
    const opening = home;
    expect(() => openHomeStorage(opening)).toThrow(DatabaseVersionError);
    expect(readFileSync(home.databaseFile)).toEqual(before);
  });
});
