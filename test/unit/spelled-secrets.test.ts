/**
 * Issue 24, finding 4: what the session's calls type, joined (agent/spelled-secrets.ts), and where in it the
 * redactor finds a secret (secretSpan): which calls are the pieces of a key none of them holds whole.
 */
import { describe, expect, it } from 'vitest';
import { SpelledSecrets } from '../../src/main/agent/spelled-secrets.js';
import { redactorOf, secretSpan } from '../../src/shared/secret-redaction.js';

const KEY = 'sk-testKEY0123456789';
const redact = redactorOf([KEY]);

describe('secretSpan', () => {
  it('is where the redactor finds secrets, in the text’s own positions, from the first to the last', () => {
    expect(secretSpan('nothing here', redact)).toBeUndefined();
    expect(secretSpan(`ab${KEY}cd`, redact)).toEqual({ start: 2, end: 2 + KEY.length });
    expect(secretSpan(`${KEY} and ${KEY}`, redact)).toEqual({ start: 0, end: 2 * KEY.length + 5 });
    // The text spelled in lower case, as keys type it, is the key all the same.
    expect(secretSpan(`x${KEY.toLowerCase()}`, redact)).toEqual({ start: 1, end: 1 + KEY.length });
  });

  it('is exact for a secret that begins and ends like the mask', () => {
    const bracketed = '[redac-secret-ted]';
    expect(secretSpan(`a[${bracketed}]b`, redactorOf([bracketed]))).toEqual({ start: 2, end: 2 + bracketed.length });
  });
});

describe('SpelledSecrets', () => {
  it('names nothing to mask until the pieces spell a secret, then every piece it spans', () => {
    const runs = new SpelledSecrets<string>(redact);
    const hello = runs.add('ses', 'hello ', true);
    expect(hello.toMask).toEqual([]);
    const first = runs.add('ses', 'sk-testK', true);
    const second = runs.add('ses', 'EY012345', true);
    expect(second.toMask).toEqual([]);
    expect(runs.completes('ses', '6789')).toBe(true);
    const last = runs.add('ses', '6789 bye', true);
    expect(last.toMask).toEqual([first.piece, second.piece, last.piece]);
    // Masked once: a later piece that spells nothing names none again.
    for (const piece of last.toMask) piece.masked = true;
    expect(runs.add('ses', 'more', true).toMask).toEqual([]);
    expect(runs.completes('ses', 'more')).toBe(false);
  });

  it('leaves a one-action piece that holds the secret whole to the redactor, but not a batch', () => {
    const runs = new SpelledSecrets<string>(redact);
    expect(runs.add('ses', `key=${KEY}`, true).toMask).toEqual([]);
    expect(runs.completes('other', KEY)).toBe(false);
    const batch = runs.add('batch', KEY, false);
    expect(batch.toMask).toEqual([batch.piece]);
  });

  it('keeps each session apart', () => {
    const runs = new SpelledSecrets<string>(redact);
    runs.add('one', 'sk-testKEY', true);
    expect(runs.add('two', '0123456789', true).toMask).toEqual([]);
    expect(runs.add('one', '0123456789', true).toMask).toHaveLength(2);
  });

  it('keeps only the last few thousand characters typed', () => {
    const runs = new SpelledSecrets<string>(redact);
    const early = runs.add('ses', KEY, false);
    // Not masked yet (its rows were never written): still in the run, so still named.
    expect(runs.add('ses', 'x'.repeat(4000), true).toMask).toEqual([early.piece]);
    expect(runs.add('ses', 'y'.repeat(200), true).toMask).toEqual([]);
  });
});

describe('SpelledSecrets, what the fields hold (issue 33, finding 7)', () => {
  it('finds a key typed out of order or with corrections, and names every piece that typed a character of it', () => {
    const runs = new SpelledSecrets<string>(redact);
    const second = runs.add('ses', 'Y0123456789', true);
    expect(second.toMask).toEqual([]);
    runs.edit('ses', [{ kind: 'move', to: 'line-start', selecting: false }]);
    expect(runs.completes('ses', 'sk-testKE')).toBe(true);
    const first = runs.add('ses', 'sk-testKE', true);
    expect(first.toMask).toEqual([second.piece, first.piece]);
  });

  it('does not join across a click, but finds the key in the text the field reads back', () => {
    const runs = new SpelledSecrets<string>(redact);
    const second = runs.add('ses', 'Y0123456789', true);
    runs.edit('ses', [{ kind: 'leave' }]);
    expect(runs.add('other', 'sk-testKE', true).toMask).toEqual([]);
    const first = runs.add('ses', 'sk-testKE', true, [{ kind: 'insert', text: 'sk-testKE' }], `note: ${KEY}`);
    expect(first.toMask).toEqual([second.piece, first.piece]);
  });

  it('leaves to the redactor a key one piece typed whole, and a field that holds no key', () => {
    const runs = new SpelledSecrets<string>(redact);
    expect(runs.add('ses', KEY, true, [{ kind: 'insert', text: KEY }], KEY).toMask).toEqual([]);
    expect(runs.add('ses', 'hello', true, [{ kind: 'insert', text: 'hello' }], 'hello').toMask).toEqual([]);
  });
});
