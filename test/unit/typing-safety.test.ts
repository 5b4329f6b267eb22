/** What typing is judged as: spelled key sequences, secret-looking text, and newlines as separate Enters. */
import { describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { redactorOf } from '../../src/shared/secret-redaction.js';
import { assessRisk, pressesEnter, typedText } from '../../src/main/agent/safety-policy.js';
import { secretLikeness } from '../../src/main/agent/secret-likeness.js';
import { spelledText } from '../../src/main/agent/spelled-text.js';
import { typingPieces } from '../../src/main/agent/typing-pieces.js';
import { maskedAssistantMessage, maskedTyping, typedStrings } from '../../src/main/agent/password-masking.js';

const noSecrets = (text: string): string => text;
const key = (keys: string): ComputerAction => ({ action: 'key', keys });

describe('spelledText', () => {
  it.each([
    ['s 3 c r e t', 's3cret'],
    ['h u n t e r 2', 'hunter2'],
    ['shift+p a s s', 'Pass'],
    ['a space b minus c', 'a b-c'],
    ['p a s s Return', 'pass'],
  ])('reads %s as %s', (keys, text) => {
    expect(spelledText(keys)).toBe(text);
  });

  it.each(['ctrl+s', 'alt+F4', 'Return', 'Tab Tab', 'ctrl+a BackSpace', 'not-a-key'])('finds that %s types nothing', (keys) => {
    expect(spelledText(keys)).toBe('');
  });
});

describe('a key sequence that spells text', () => {
  it('is risky into a password field, exactly like type', () => {
    const evidence = { focusedFieldKind: 'password' as const };
    expect(assessRisk(key('s 3 c r e t'), evidence)).toEqual({ risky: true, reason: 'typing into a password field' });
    expect(assessRisk({ action: 'type', text: 's3cret' }, evidence)).toEqual(assessRisk(key('s 3 c r e t'), evidence));
  });

  it('is not risky into a text field, and a named key into a password field is not typing', () => {
    expect(assessRisk(key('s 3 c r e t'), { focusedFieldKind: 'text' })).toEqual({ risky: false });
    expect(assessRisk(key('Return'), { focusedFieldKind: 'password' })).toEqual({ risky: false });
    expect(assessRisk(key('Tab'), { focusedFieldKind: 'password' })).toEqual({ risky: false });
  });

  it('held, types what it spells: a held printable key into a password field is risky, a held modifier is not', () => {
    const evidence = { focusedFieldKind: 'password' as const };
    const holdH: ComputerAction = { action: 'hold_key', keys: 'h', seconds: 1 };
    expect(typedText(holdH)).toBe('h');
    expect(assessRisk(holdH, evidence)).toEqual({ risky: true, reason: 'typing into a password field' });
    expect(assessRisk({ action: 'hold_key', keys: 'shift', seconds: 1 }, evidence)).toEqual({ risky: false });
    expect(maskedTyping(holdH)).toEqual({ action: 'hold_key', keys: '[password]', seconds: 1 });
  });

  it('counts as typed text', () => {
    expect(typedText(key('o k'))).toBe('ok');
    expect(typedText({ action: 'click', x: 1, y: 1 })).toBe('');
  });
});

describe('secretLikeness', () => {
  it('finds a configured secret through the one redactor, whatever it looks like', () => {
    const redact = redactorOf(['plainconfiguredword']);
    expect(secretLikeness('my plainconfiguredword here', redact)).toBe('contains a configured secret');
    expect(secretLikeness('my plainconfiguredword here', noSecrets)).toBeUndefined();
  });

  it.each([
    'sk-proj-Ab3dEf6hIj9kLm2nOp5q',
    'sk-ant-api03-abcdefghijklmnop',
    'export TOKEN=ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    'github_pat_11ABCDEFG0123456789abcdef',
    'glpat-abcdefghij0123456789',
    'xoxb-123456789012-abcdefghij',
    'hf_abcdefghijklmnopqrstu',
    'tvly-abcdefghij0123456789',
    'AIzaSyA1234567890abcdefghijklmnop',
    'AKIAIOSFODNN7EXAMPLE',
    '-----BEGIN OPENSSH PRIVATE KEY-----',
  ])('finds %s a credential by its known form', (text) => {
    expect(secretLikeness(text, noSecrets)).toBe('looks like an API key or credential');
  });

  it.each(['x9Fq2LmZ7vR4tK8pW1sN6bY3hJ5dC0aE', 'a1b2c3d4e5f60718293a4b5c6d7e8f90aa11bb22'])('finds %s a long random token', (text) => {
    expect(secretLikeness(text, noSecrets)).toBe('looks like a secret token (long and random)');
  });

  it.each([
    'hello world',
    'hunter2',
    'https://example.com/a/very/long/path/to/page2024?x=1',
    '/home/user/Documents/report-2024-final-version.pdf',
    'internationalization_configuration_2',
    'deadbeef01234567',
    'abcdefghijklmnopqrstuvwxyz012345',
    'sk-learn',
    'AKIA is a prefix',
    'rm -rf ~',
  ])('finds %s ordinary', (text) => {
    expect(secretLikeness(text, noSecrets)).toBeUndefined();
  });

  it('makes typing risky only where the focused field cannot be told', () => {
    const secretTyping: ComputerAction = { action: 'type', text: 'sk-proj-Ab3dEf6hIj9kLm2nOp5q' };
    expect(assessRisk(secretTyping, { focusedFieldKind: 'unknown' })).toEqual({
      risky: true,
      reason: 'typing text that looks like an API key or credential where the focused field cannot be told',
    });
    expect(assessRisk(secretTyping, { focusedFieldKind: 'text' })).toEqual({ risky: false });
    const spelled = key('p l a i n c o n f i g u r e d w o r d');
    expect(assessRisk(spelled, { focusedFieldKind: 'unknown', redactSecrets: redactorOf(['plainconfiguredword']) })).toEqual({
      risky: true,
      reason: 'typing text that contains a configured secret where the focused field cannot be told',
    });
  });
});

describe('typingPieces', () => {
  it('cuts typed text at each newline, the newline a key Return of its own', () => {
    expect(typingPieces({ action: 'type', text: 'rm -rf ~\n' })).toEqual([
      { action: 'type', text: 'rm -rf ~' },
      { action: 'key', keys: 'Return' },
    ]);
    expect(typingPieces({ action: 'type', text: 'a\r\n\nb' })).toEqual([
      { action: 'type', text: 'a' },
      { action: 'key', keys: 'Return' },
      { action: 'key', keys: 'Return' },
      { action: 'type', text: 'b' },
    ]);
  });

  it('leaves other actions, and text without a newline, whole', () => {
    expect(typingPieces({ action: 'type', text: 'abc' })).toEqual([{ action: 'type', text: 'abc' }]);
    expect(typingPieces(key('ctrl+s'))).toEqual([key('ctrl+s')]);
  });
});

describe('maskedTyping', () => {
  it('keeps that something was typed, not what', () => {
    expect(maskedTyping({ action: 'type', text: 'hunter2' })).toEqual({ action: 'type', text: '[password]' });
    expect(maskedTyping(key('s 3 c r e t'))).toEqual({ action: 'key', keys: '[password]' });
  });
});

describe('maskedAssistantMessage', () => {
  it('masks what was typed in the text and the calls, keeping JSON arguments valid', () => {
    const typed = typedStrings({ action: 'type', text: 'hunter2\n' });
    expect(typed).toEqual(['hunter2\n', 'hunter2']);
    const masked = maskedAssistantMessage(
      {
        role: 'assistant',
        parts: [{ type: 'text', text: "Action: type(content='hunter2\\n')" }],
        toolCalls: [
          { id: 'call_1', name: 'computer', argumentsText: JSON.stringify({ action: 'type', text: 'hunter2\n' }) },
          { id: 'call_2', name: 'computer', argumentsText: 'type hunter2 (not JSON)' },
        ],
      },
      typed,
    );
    expect(masked.parts).toEqual([{ type: 'text', text: "Action: type(content='[password]\\n')" }]);
    expect(JSON.parse(masked.toolCalls[0]!.argumentsText)).toEqual({ action: 'type', text: '[password]' });
    expect(masked.toolCalls[1]!.argumentsText).toBe('type [password] (not JSON)');
  });

  it('masks a short typed value only where a whole JSON value is it, leaving free text readable', () => {
    const masked = maskedAssistantMessage(
      { role: 'assistant', parts: [{ type: 'text', text: 'Type ab.' }], toolCalls: [{ id: 'c', name: 'computer', argumentsText: '{"action":"type","text":"ab"}' }] },
      ['ab'],
    );
    expect(masked.parts).toEqual([{ type: 'text', text: 'Type ab.' }]);
    expect(JSON.parse(masked.toolCalls[0]!.argumentsText)).toEqual({ action: 'type', text: '[password]' });
  });
});

describe('Enter while a terminal has the focus', () => {
  const terminal = { focusedFieldKind: 'unknown' as const, focusedApplication: { name: 'xterm', isTerminal: true } };
  const editor = { focusedFieldKind: 'text' as const, focusedApplication: { name: 'gedit', isTerminal: false } };

  it.each(['Return', 'enter', 'KP_Enter', 'ctrl+Return', 'a Return', 'shift+Enter'])('is risky as key %s', (keys) => {
    expect(assessRisk(key(keys), terminal)).toEqual({ risky: true, reason: 'pressing Enter in a terminal (xterm) runs the command line' });
    expect(assessRisk({ action: 'hold_key', keys, seconds: 1 } as ComputerAction, terminal).risky).toBe(true);
  });

  it('is risky as a newline in typed text, which is an Enter', () => {
    expect(assessRisk({ action: 'type', text: 'ls -la\n' }, terminal).risky).toBe(true);
    expect(assessRisk({ action: 'type', text: 'ls\r' }, terminal).risky).toBe(true);
  });

  it('is not risky elsewhere, nor is anything but Enter in a terminal', () => {
    expect(assessRisk(key('Return'), editor)).toEqual({ risky: false });
    expect(assessRisk(key('Return'), { focusedFieldKind: 'unknown' })).toEqual({ risky: false });
    expect(assessRisk({ action: 'type', text: 'ls -la' }, terminal)).toEqual({ risky: false });
    expect(assessRisk(key('Tab'), terminal)).toEqual({ risky: false });
    expect(assessRisk(key('e n t e r'), terminal)).toEqual({ risky: false });
  });

  it('tells which actions press Enter', () => {
    expect(pressesEnter(key('Return'))).toBe(true);
    expect(pressesEnter(key('Not_A_Key Return'))).toBe(false);
    expect(pressesEnter({ action: 'type', text: 'a\nb' })).toBe(true);
    expect(pressesEnter({ action: 'click', x: 1, y: 1 })).toBe(false);
  });
});
