/** Rewriting a stored assistant message's calls (masking what a call typed into a password field, issue 17). */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/main/storage/index.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-rewrite-calls');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

describe('messages.rewriteCalls', () => {
  it("replaces an assistant message's parts and calls in place, keeping its place in the session", () => {
    const sessionId = storage.sessions.create({ title: 'rewrite' }).id;
    const turnId = storage.turns.start({ sessionId, userRequest: 'log in' }).id;
    const call = { id: 'call_1', name: 'computer', argumentsText: '{"action":"type","text":"hunter2"}' };
    const stored = storage.messages.append({ sessionId, turnId, message: { role: 'assistant', parts: [{ type: 'text', text: 'Typing hunter2.' }], toolCalls: [call] } });
    const after = storage.messages.append({ sessionId, turnId, message: { role: 'tool', toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text', text: 'done' }] } });

    const rewritten = storage.messages.rewriteCalls(stored.id, {
      role: 'assistant',
      parts: [{ type: 'text', text: 'Typing [password].' }],
      toolCalls: [{ ...call, argumentsText: '{"action":"type","text":"[password]"}' }],
    });

    expect(rewritten).toMatchObject({ id: stored.id, sequence: stored.sequence });
    expect(storage.messages.listBySession(sessionId).map((message) => message.id)).toEqual([stored.id, after.id]);
    expect(JSON.stringify(storage.messages.get(stored.id))).not.toContain('hunter2');
  });

  it('refuses a message that is not an assistant message', () => {
    const sessionId = storage.sessions.create({ title: 'rewrite' }).id;
    const user = storage.messages.append({ sessionId, turnId: null, message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } });
    expect(() => storage.messages.rewriteCalls(user.id, { role: 'assistant', parts: [], toolCalls: [] })).toThrow(/no assistant message/);
    expect(storage.messages.get(user.id)?.message).toEqual({ role: 'user', parts: [{ type: 'text', text: 'hi' }] });
  });
});
