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

describe("rewriting the other rows a typed password may be repeated in", () => {
  function turn(): { sessionId: string; turnId: string } {
    const sessionId = storage.sessions.create({ title: 'rewrite' }).id;
    return { sessionId, turnId: storage.turns.start({ sessionId, userRequest: 'log in' }).id };
  }

  it("replaces a step's action, thought, result and error in place, keeping the rest", () => {
    const { sessionId, turnId } = turn();
    const step = storage.steps.append({ sessionId, turnId, action: { action: 'type', text: 'hunter2' }, thought: 'Typing hunter2.', result: { ok: false }, error: 'hunter2 failed', latencyMs: 12 });
    const rewritten = storage.steps.rewriteTexts(step.id, { action: { action: 'type', text: '[password]' }, thought: 'Typing [password].', result: { ok: false }, error: '[password] failed' });
    expect(rewritten).toEqual({ ...step, action: { action: 'type', text: '[password]' }, thought: 'Typing [password].', error: '[password] failed' });
    expect(() => storage.steps.rewriteTexts('step_000000000000', { action: { action: 'wait', seconds: 1 }, thought: null, result: null, error: null })).toThrow(/no step/);
  });

  it("replaces a tool message's parts and URL, and refuses any other message", () => {
    const { sessionId, turnId } = turn();
    const result = storage.messages.append({ sessionId, turnId, message: { role: 'tool', toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text', text: 'typed hunter2' }], isError: true } });
    const rewritten = storage.messages.rewriteResult(result.id, { role: 'tool', toolCallId: 'call_1', name: 'computer', parts: [{ type: 'text', text: 'typed [password]' }], isError: true });
    expect(rewritten).toMatchObject({ id: result.id, sequence: result.sequence, message: { parts: [{ type: 'text', text: 'typed [password]' }], isError: true } });
    const user = storage.messages.append({ sessionId, turnId, message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } });
    expect(() => storage.messages.rewriteResult(user.id, { role: 'tool', toolCallId: 'c', name: 'computer', parts: [] })).toThrow(/no tool message/);
  });

  it("replaces a search report's question, queries, sources and answer", () => {
    const { sessionId, turnId } = turn();
    const report = storage.searchReports.add({ sessionId, turnId, question: 'Is hunter2 leaked?', queries: ['hunter2'], sources: [{ url: 'https://example.com' }], answer: 'hunter2 is.' });
    const rewritten = storage.searchReports.rewriteTexts(report.id, { question: 'Is [password] leaked?', queries: ['[password]'], sources: [{ url: 'https://example.com' }], answer: '[password] is.' });
    expect(rewritten).toEqual({ ...report, question: 'Is [password] leaked?', queries: ['[password]'], answer: '[password] is.' });
    expect(() => storage.searchReports.rewriteTexts('srch_000000000000', { question: '', queries: [], sources: [], answer: '' })).toThrow(/no search report/);
  });
});
