/**
 * Generated media in storage: its file lives as long as a message names it. Startup's reconciliation keeps
 * it (it is not an image row's file, but it is not an orphan), deleting its session removes it unless
 * another session's message names the same bytes, and the listing and lookup read the messages.
 */
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { openRuntime } from '../../src/main/app/runtime.js';
import type { Storage } from '../../src/main/storage/index.js';
import { createTemporaryHome, openHomeStorage, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome | undefined;
afterEach(() => home?.remove());

const AUDIO = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(60, 9)]);

/** A session with one turn whose assistant message names the stored audio. */
async function sessionWithAudio(storage: Storage, title: string): Promise<{ sessionId: string; turnId: string; mediaId: string; sha256: string }> {
  const session = storage.sessions.create({ title });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: title });
  const stored = await storage.media.put(AUDIO, 'audio/wav');
  storage.messages.append({
    sessionId: session.id,
    turnId: turn.id,
    message: { role: 'assistant', parts: [{ type: 'text', text: 'Listen.' }, { type: 'audio', mediaId: stored.mediaId, mime: 'audio/wav' }], toolCalls: [] },
  });
  return { sessionId: session.id, turnId: turn.id, mediaId: stored.mediaId, sha256: stored.sha256 };
}

describe('generated media in storage', () => {
  it('is listed and found through the messages that name it', async () => {
    home = createTemporaryHome('sightline-media');
    const storage = openHomeStorage(home);
    const { sessionId, turnId, mediaId } = await sessionWithAudio(storage, 'Say hi');
    expect(storage.media.listBySession(sessionId)).toEqual([{ mediaId, turnId, kind: 'audio', mime: 'audio/wav' }]);
    expect(storage.media.find(mediaId)).toEqual({ sessionId, media: { mediaId, turnId, kind: 'audio', mime: 'audio/wav' } });
    expect(storage.media.find(`med_${'0'.repeat(64)}`)).toBeUndefined();
    const read = await storage.media.read({ mediaId, mime: 'audio/wav' });
    expect(read.status === 'ok' && read.bytes.equals(AUDIO)).toBe(true);
    await expect(storage.media.put(Buffer.from('x'), 'text/plain')).rejects.toThrow(/image or audio/);
    expect(() =>
      storage.messages.append({
        sessionId,
        turnId,
        message: { role: 'assistant', parts: [{ type: 'audio', mediaId, mime: 'audio/wav', data: 'AAAA' }], toolCalls: [] },
      }),
    ).toThrow(/keep only its mediaId/);
    storage.close();
  });

  it("survives startup's reconciliation, which removes only files nothing names", async () => {
    home = createTemporaryHome('sightline-media');
    const storage = openHomeStorage(home);
    const { sha256 } = await sessionWithAudio(storage, 'Say hi');
    const orphan = await storage.media.put(Buffer.alloc(30, 1), 'audio/wav');
    storage.close();
    // An hour on: past the grace a file gets while its write may still be under way.
    const runtime = await openRuntime({ home, config: ConfigSchema.parse({}), now: new Date(Date.now() + 60 * 60 * 1000) });
    expect(runtime.startup.unreferencedFilesRemoved).toBe(1);
    expect(existsSync(runtime.storage.blobs.pathFor('blobs', sha256, 'audio/wav'))).toBe(true);
    expect(existsSync(runtime.storage.blobs.pathFor('blobs', orphan.sha256, 'audio/wav'))).toBe(false);
    runtime.close();
  });

  it("goes with its session's deletion, unless another session's message names the same bytes", async () => {
    home = createTemporaryHome('sightline-media');
    const storage = openHomeStorage(home);
    const first = await sessionWithAudio(storage, 'First');
    const second = await sessionWithAudio(storage, 'Second');
    const file = storage.blobs.pathFor('blobs', first.sha256, 'audio/wav');
    await storage.deleteSession(first.sessionId);
    expect(existsSync(file)).toBe(true);
    const result = await storage.deleteSession(second.sessionId);
    expect(result.filesDeleted).toBe(1);
    expect(existsSync(file)).toBe(false);
    storage.close();
  });
});
