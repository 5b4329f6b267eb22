/** `[Picture:history_…]`: pictures the user attached in earlier turns, named by content hash, and the cases left alone. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, MessagePart } from '../../src/shared/messages.js';
import { findHistoryPicture, historyPictureText } from '../../src/main/context/history-pictures.js';
import { buildRequest } from '../../src/main/context/request-builder.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { sha256Of, type SessionRecord, type Storage } from '../../src/main/storage/index.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { withRawDatabase } from '../helpers/raw-database.js';
import { recordTurn } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-pictures');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');

async function build(session: SessionRecord, turnId: string, on: Storage = storage) {
  return buildRequest({ storage: on, sessionId: session.id, turnId, profile, maxImageEdge: 1280, systemPrompt: 'System.' });
}

/** The user picture attached as the agent stores it: an image row with source 'user', named by id. */
async function attach(session: SessionRecord, bytes: Buffer): Promise<MessagePart> {
  const record = await storage.images.put({ sessionId: session.id, turnId: null, bytes, mime: 'image/png', width: 40, height: 30, source: 'user' });
  return { type: 'image', imageId: record.id };
}

/** A user message as older data may hold it, pixels inline (the repository refuses to write these today). */
function appendInline(on: Storage, session: SessionRecord, turnId: string, parts: MessagePart[]): void {
  withRawDatabase(on.paths.databaseFile, (database) =>
    database
      .prepare(
        `INSERT INTO messages (id, session_id, turn_id, sequence, role, parts, is_error, is_compressed, created_at)
         VALUES (?, ?, ?, (SELECT COALESCE(MAX(sequence), 0) + 1 FROM messages WHERE session_id = ?), 'user', ?, 0, 0, ?)`,
      )
      .run(`msg_${Math.random().toString(16).slice(2, 14).padEnd(12, '0')}`, session.id, turnId, session.id, JSON.stringify(parts), new Date().toISOString()),
  );
}

function userParts(messages: readonly Message[], containing: string): MessagePart[] {
  const message = messages.find((candidate) => candidate.role === 'user' && candidate.parts.some((part) => part.type === 'text' && part.text === containing));
  if (message === undefined) throw new Error(`no user message with "${containing}"`);
  return message.parts;
}

describe('history pictures', () => {
  it('names a picture of an earlier turn by hash, keeps the latest request its pictures, and names the same picture alike', async () => {
    const session = storage.sessions.create({ title: 'Pictures' });
    const bytes = await makePng({ width: 40, height: 30, seed: 5 });
    const name = historyPictureText(sha256Of(bytes));
    await recordTurn(storage, session, { request: 'Look at this', requestParts: [await attach(session, bytes)] });
    const second = await recordTurn(storage, session, { request: 'And again', requestParts: [await attach(session, bytes)], status: 'running' });

    const during = await build(session, second.turn.id);
    expect(userParts(during.request.messages, 'Look at this')).toEqual([
      { type: 'text', text: 'Look at this' },
      { type: 'text', text: name },
    ]);
    // The latest user message keeps its picture, whole, after its id token.
    const latest = userParts(during.request.messages, 'And again');
    expect(latest[2]).toMatchObject({ type: 'image', mime: 'image/png', width: 40, height: 30 });

    storage.turns.end(second.turn.id, 'finished');
    const third = await recordTurn(storage, session, { request: 'Third', status: 'running' });
    const after = await build(session, third.turn.id);
    expect(userParts(after.request.messages, 'And again')[1]).toEqual({ type: 'text', text: name });
    expect(userParts(after.request.messages, 'Look at this')[1]).toEqual({ type: 'text', text: name });
    expect(name).toMatch(/^\[Picture:history_[0-9a-f]{16}\]$/);
    // The name leads back to the stored picture, so it can be recalled.
    expect(findHistoryPicture(storage, session.id, name)?.sha256).toBe(sha256Of(bytes));
    expect(findHistoryPicture(storage, session.id, name.slice(9, -1))?.source).toBe('user');
  });

  it('stores inline pictures of older data once, and leaves URLs and existing placeholders alone', async () => {
    const session = storage.sessions.create({ title: 'Inline' });
    const first = await recordTurn(storage, session, { request: 'First' });
    const bytes = await makePng({ width: 32, height: 24, seed: 9 });
    const base64 = bytes.toString('base64');
    const url = 'https://example.com/cat.png';
    const existing = '[Picture:history_0123456789abcdef]';
    appendInline(storage, session, first.turn.id, [
      { type: 'text', text: 'inline twice' },
      { type: 'image', mime: 'image/png', data: base64 },
      { type: 'image', url: `data:image/png;base64,${base64}` },
      { type: 'image', url },
      { type: 'text', text: existing },
    ]);
    const active = await recordTurn(storage, session, { request: 'Now', status: 'running' });

    const built = await build(session, active.turn.id);
    const name = historyPictureText(sha256Of(bytes));
    expect(userParts(built.request.messages, 'inline twice')).toEqual([
      { type: 'text', text: 'inline twice' },
      { type: 'text', text: name },
      { type: 'text', text: name },
      { type: 'image', url },
      { type: 'text', text: existing },
    ]);
    const stored = storage.images.listBySession(session.id).filter((image) => image.source === 'user');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ sha256: sha256Of(bytes), width: 32, height: 24, turnId: first.turn.id });

    // Building again stores nothing new and renders the same bytes.
    const again = await build(session, active.turn.id);
    expect(JSON.stringify(again.request)).toBe(JSON.stringify(built.request));
    expect(storage.images.listBySession(session.id).filter((image) => image.source === 'user')).toHaveLength(1);
  });

  it('leaves a picture in the request as it is when it cannot be stored', async () => {
    const session = storage.sessions.create({ title: 'Full disk' });
    const first = await recordTurn(storage, session, { request: 'First' });
    const picture = (await makePng({ width: 20, height: 20, seed: 11 })).toString('base64');
    appendInline(storage, session, first.turn.id, [
      { type: 'text', text: 'cannot store' },
      { type: 'image', mime: 'image/png', data: picture },
      { type: 'image', mime: 'image/png', data: Buffer.from('not an image at all').toString('base64') },
    ]);
    const active = await recordTurn(storage, session, { request: 'Now', status: 'running' });
    storage = temporary.reopen({
      blobFaults: {
        beforeRename: () => {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        },
      },
    });

    const built = await build(session, active.turn.id);
    expect(userParts(built.request.messages, 'cannot store')).toEqual([
      { type: 'text', text: 'cannot store' },
      { type: 'image', mime: 'image/png', data: picture },
      { type: 'image', mime: 'image/png', data: Buffer.from('not an image at all').toString('base64') },
    ]);
    expect(storage.images.listBySession(session.id).filter((image) => image.source === 'user')).toHaveLength(0);
    expect(built.tokenReport.imagesSent).toBeGreaterThanOrEqual(2);
  });
});
