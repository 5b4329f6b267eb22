/**
 * Issue 33, findings 9, 10 and 18, at the one redactor (shared/secret-redaction.ts): what a cut leaves of a secret
 * is masked wherever the cut was made, short declared secrets are masked only standing alone, and a URL's password
 * is masked in any text, with or without configured secrets. The CLI's own test (e2e/cli-flow-secrets.test.ts)
 * shows each through `sightline flow`; these pin the edges.
 */
import { describe, expect, it } from 'vitest';
import { declaredSecretProblem, maskUrlCredentials, redactedCut, redactorOf, REDACTED } from '../../src/shared/secret-redaction.js';

const KEY = 'sk-test-0123456789abcdefghij';

describe('a cut secret is still a secret', () => {
  const redact = redactorOf([KEY]);

  it('masks the beginning a cut left before an ellipsis, and the end one left after it', () => {
    expect(redact(`use ${KEY.slice(0, 22)}…`)).toBe(`use ${REDACTED}…`);
    expect(redact(`use ${KEY.slice(0, 9)}...`)).toBe(`use ${REDACTED}...`);
    expect(redact(`…${KEY.slice(7)} to log in`)).toBe(`…${REDACTED} to log in`);
    expect(redact(`${KEY}…`)).toBe(`${REDACTED}…`);
  });

  it('leaves a beginning without a cut mark, and one too short to tell anything, alone', () => {
    expect(redact(`${KEY.slice(0, 12)} and more`)).toBe(`${KEY.slice(0, 12)} and more`);
    expect(redact('sk-te…')).toBe('sk-te…');
  });

  it('redactedCut redacts first: the mask, not the key, is what is cut', () => {
    const line = redactedCut(`Open the page and connect with ${KEY} as the token`, 50, redact);
    expect(line).toBe(`Open the page and connect with ${REDACTED} as the …`);
    expect(redactedCut('short', 50, redact)).toBe('short');
  });
});

describe('declared secrets of 4 or 5 characters', () => {
  const redact = redactorOf(['zq47', '48213']);

  it('are masked whole where they stand alone, not inside longer words or numbers, nor spelled', () => {
    expect(redact('the PIN zq47 and ZQ47, code 48213.')).toBe(`the PIN ${REDACTED} and ${REDACTED}, code ${REDACTED}.`);
    expect(redact('xzq47 zq478 482130 4-8-2-1-3 z q 4 7')).toBe('xzq47 zq478 482130 4-8-2-1-3 z q 4 7');
  });

  it('shorter ones are refused where they are declared, by name, without the value', () => {
    expect(declaredSecretProblem('CARD_PIN', 'zq7')).toMatch(/^secret CARD_PIN is shorter than 4 characters/);
    expect(declaredSecretProblem('CARD_PIN', 'zq7')).not.toContain('zq7');
    expect(declaredSecretProblem('CARD_PIN', 'zq47')).toBeUndefined();
    expect(redactorOf(['zq7'])('zq7')).toBe('zq7');
  });
});

describe("a URL's password", () => {
  it.each([
    ['https://shopper:hunter2@shop.example/cart', `https://shopper:${REDACTED}@shop.example/cart`],
    ['goto http://u:p@ss@127.0.0.1:8080/x now', `goto http://u:${REDACTED}@127.0.0.1:8080/x now`],
    ['{"url":"https://a:b%40c@h.example"}', `{"url":"https://a:${REDACTED}@h.example"}`],
    ['https://ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/x.git', `https://${REDACTED}@github.com/x.git`],
    ['cut: https://shopper:hunter2-lo…', `cut: https://shopper:${REDACTED}…`],
  ])('is masked: %s', (text, masked) => {
    expect(maskUrlCredentials(text)).toBe(masked);
    expect(redactorOf([])(text)).toBe(masked);
    expect(redactorOf([KEY])(text)).toBe(masked);
  });

  it.each([
    'https://shop.example/a@b',
    'ssh://git@github.com/x.git',
    'postgres://team:***@db.example.com/sightline',
    `https://shopper:${REDACTED}@shop.example/`,
    'mail me at bob@example.com, see https://example.com',
    'file:///home/me/page.html',
  ])('leaves what holds no password as it was: %s', (text) => {
    expect(maskUrlCredentials(text)).toBe(text);
  });
});
