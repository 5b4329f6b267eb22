/**
 * Issue 24, finding 4: a configured key sent key by key is a secret like the key written whole. The one
 * redactor (shared/secret-redaction.ts) finds it in every dialect's shape of a key action, as text, since
 * text is what is stored, evented and printed.
 */
import { describe, expect, it } from 'vitest';
import { describeAction } from '../../src/shared/action-descriptions.js';
import { REDACTED, redactorOf } from '../../src/shared/secret-redaction.js';

const KEY = 'sk-testKEY0123456789';
const redact = redactorOf([KEY]);
const spaced = [...KEY].join(' ');

describe('the redactor finds a secret spelled key by key', () => {
  it.each([
    ['a key action (function tools, Claude)', `{"action":"key","keys":"${spaced}"}`],
    ['the same keys by their names, capitals with shift', 's k minus t e s t shift+k shift+e shift+y 0 1 2 3 4 5 6 7 8 9'],
    ['one combination (Qwen and OpenAI key lists as the step records them)', [...KEY].join('+')],
    ['a Qwen key list as the model wrote it', JSON.stringify({ action: 'key', keys: [...KEY] })],
    ['an OpenAI keypress list', JSON.stringify({ action: { type: 'keypress', keys: [...KEY].map((key) => key.toUpperCase()) } })],
    ['OpenAI keypresses one key each', JSON.stringify({ actions: [...KEY].map((key) => ({ type: 'keypress', keys: [key] })) })],
    ['a UI-TARS hotkey', `Action: hotkey(key='${spaced}')`],
    ['UI-TARS presses one after another', [...KEY].map((key) => `press(key='${key}')`).join('\n\n')],
    ["the operator's detail", `pressed ${spaced}`],
    ['the progress line', `step 2  ${describeAction({ action: 'key', keys: spaced })}  ok  0.1s`],
    ['the key written whole, as before', `my key is ${KEY}.`],
  ])('%s', (_shape, text) => {
    const redacted = redact(text);
    expect(redacted).toContain(REDACTED);
    expect(redacted.replace(/[^A-Za-z0-9]/g, '').toLowerCase()).not.toContain('testkey0123456789');
  });

  it('leaves ordinary text, and a part of the key alone, as they were', () => {
    for (const text of ['key ctrl+s', 'type "hello world"', `pressed ${[...KEY.slice(0, 10)].join(' ')}`, 'the test key is set']) {
      expect(redact(text)).toBe(text);
    }
  });

  it('does not search every split of a run of punctuation (a secret made of it, text full of it)', () => {
    const odd = redactorOf(['-.-.-.-.-.-.']);
    const text = `${'-.'.repeat(5000)}x`;
    expect(odd(text)).toContain(REDACTED);
    expect(odd('.'.repeat(20_000))).toBe('.'.repeat(20_000));
  });
});
