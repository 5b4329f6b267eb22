/** Masking what was typed into a password field by place: key lists, written UI-TARS actions, chords that spell. */
import { describe, expect, it } from 'vitest';
import type { AssistantMessage } from '../../src/shared/messages.js';
import { EchoMaskingStream } from '../../src/main/agent/echo-masking-stream.js';
import { assessRisk } from '../../src/main/agent/safety-policy.js';
import { spelledText } from '../../src/main/agent/spelled-text.js';
import { maskedAtPaths, maskedForApproval, maskedAssistantMessage, maskTyped } from '../../src/main/agent/password-masking.js';
import { decodeUiTarsReply } from '../../src/main/llm/dialects/ui-tars/ui-tars-wire.js';
import { maskUiTarsWrittenCall } from '../../src/main/llm/dialects/ui-tars/ui-tars-masking.js';

describe('spelledText of one combination of several keys', () => {
  it.each([
    ['h+u+n', 'hun'],
    ['shift+a+b', 'AB'],
    ['s+3 c', 's3c'],
  ])('reads %s as %s: each key that goes down types', (keys, text) => {
    expect(spelledText(keys)).toBe(text);
  });

  it.each(['ctrl+a+b', 'alt+shift+x', 'cmd+c+v'])('finds that %s, a command, types nothing', (keys) => {
    expect(spelledText(keys)).toBe('');
  });

  it('makes such a combination into a password field as risky as typing', () => {
    expect(assessRisk({ action: 'key', keys: 'h+u+n+t+e+r+2' }, { focusedFieldKind: 'password' })).toEqual({ risky: true, reason: 'typing into a password field' });
  });
});

describe('maskedAtPaths', () => {
  it('masks a string and a list in place, keeping the shape and the rest', () => {
    const text = JSON.stringify({ actions: [{ type: 'click', x: 1 }, { type: 'keypress', keys: ['h', 'i'] }], pending_safety_checks: [] });
    expect(JSON.parse(maskedAtPaths(text, [['actions', 1, 'keys']]))).toEqual({
      actions: [{ type: 'click', x: 1 }, { type: 'keypress', keys: ['[password]'] }],
      pending_safety_checks: [],
    });
    expect(JSON.parse(maskedAtPaths('{"action":"type","text":"abc"}', [['text']]))).toEqual({ action: 'type', text: '[password]' });
  });

  it('leaves arguments that are not JSON, and paths that are not there, as they are', () => {
    expect(maskedAtPaths('type abc', [['text']])).toBe('type abc');
    expect(JSON.parse(maskedAtPaths('{"action":{"type":"wait"}}', [['action', 'text'], ['actions', 3, 'keys']]))).toEqual({ action: { type: 'wait' } });
  });
});

describe('maskedForApproval', () => {
  it('says how many characters, not which', () => {
    expect(maskedForApproval({ action: 'type', text: 'a' })).toEqual({ action: 'type', text: '[password: 1 character]' });
    expect(maskedForApproval({ action: 'key', keys: 's 3 c' })).toEqual({ action: 'key', keys: '[password: 3 characters]' });
  });
});

describe('maskedAssistantMessage', () => {
  it('masks the reasoning summaries that came with a call, and keeps arguments with nothing to mask as written', () => {
    const message: AssistantMessage = {
      role: 'assistant',
      parts: [],
      toolCalls: [
        {
          id: 'c',
          name: 'computer',
          argumentsText: '{ "action": "wait" }',
          providerData: { reasoning: [{ id: 'rs_1', encryptedContent: 'opaque', summary: ['I will type hunter2.'] }] },
        },
      ],
    };
    const masked = maskedAssistantMessage(message, ['hunter2']);
    expect(masked.toolCalls[0]!.argumentsText).toBe('{ "action": "wait" }');
    expect(masked.toolCalls[0]!.providerData?.reasoning?.[0]).toEqual({ id: 'rs_1', encryptedContent: 'opaque', summary: ['I will type [password].'] });
  });
});

describe('maskUiTarsWrittenCall', () => {
  function decoded(text: string): AssistantMessage {
    const reply = decodeUiTarsReply({ role: 'assistant', parts: [{ type: 'text', text }], toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', model: 'ui-tars' });
    return { role: 'assistant', parts: reply.parts, toolCalls: reply.toolCalls };
  }

  it('masks the action a call came from, told apart from the same action written earlier', () => {
    const message = decoded("Thought: x\nAction: type(content='abc')\n\ntype(content='abc')");
    const masked = maskUiTarsWrittenCall(message, message.toolCalls[1]!.id, '[password]');
    expect(masked.parts).toEqual([{ type: 'text', text: "Thought: x\nAction: type(content='abc')\n\ntype(content='[password]')" }]);
  });

  it('masks the one action both calls of a submitted type came from, keeping that it submitted', () => {
    const message = decoded("Thought: x\nAction: type(content='abc\\n')\n\nhotkey(key='z')");
    expect(message.toolCalls).toHaveLength(3);
    const masked = maskUiTarsWrittenCall(message, message.toolCalls[0]!.id, '[password]');
    expect(masked.parts).toEqual([{ type: 'text', text: "Thought: x\nAction: type(content='[password]\\n')\n\nhotkey(key='z')" }]);
    const hotkey = maskUiTarsWrittenCall(message, message.toolCalls[2]!.id, '[password]');
    expect(hotkey.parts).toEqual([{ type: 'text', text: "Thought: x\nAction: type(content='abc\\n')\n\nhotkey(key='[password]')" }]);
  });

  it('leaves the reply as it is for a call it did not make', () => {
    const message = decoded("Thought: x\nAction: type(content='abc')");
    expect(maskUiTarsWrittenCall(message, 'not-a-call', '[password]')).toBe(message);
  });
});

describe('EchoMaskingStream', () => {
  it('holds back what may begin a password until the next piece says', () => {
    const stream = new EchoMaskingStream(['hunter2']);
    expect([stream.push('I typed hu'), stream.push('nt'), stream.push('er2 and'), stream.push(' hun'), stream.flush()]).toEqual([
      'I typed ',
      '',
      '[password] and',
      ' ',
      'hun',
    ]);
  });

  it('lets every piece through as it is when nothing was typed', () => {
    const stream = new EchoMaskingStream([]);
    expect([stream.push('hun'), stream.push('ter2'), stream.flush()]).toEqual(['hun', 'ter2', '']);
  });
});

describe('maskTyped', () => {
  it('changes nothing when masking again, though the password is a piece of the mask', () => {
    const once = maskTyped('my password is password1', ['password', 'password1']);
    expect(once).toBe('my [password] is [password]');
    expect(maskTyped(once, ['password', 'password1'])).toBe(once);
  });

  it('takes a password as written, whatever characters it holds', () => {
    expect(maskTyped('typed a.b*c(d$1 and axbbc', ['a.b*c(d$1'])).toBe('typed [password] and axbbc');
  });
});
