/**
 * Whether typed text is, or looks like, a secret: for when the operator cannot tell what has the keyboard
 * focus (the desktop today), so that a password field is not there to decide. Typing such text then counts
 * as risky. The heuristics, in order:
 *
 * 1. It contains a configured secret (the model's key, Tavily's, an MCP server's secret values): the one
 *    redactor (shared/secret-redaction.ts) would change it.
 * 2. A word of it starts with a known credential prefix followed by at least 16 token characters: `sk-`
 *    (OpenAI, Anthropic), `ghp_` `gho_` `ghu_` `ghs_` `ghr_` `github_pat_` (GitHub), `glpat-` (GitLab),
 *    `xoxb-` `xoxp-` `xoxa-` `xoxr-` `xoxs-` (Slack), `hf_` (Hugging Face), `tvly-` (Tavily), `AIza`
 *    (Google); or is an AWS access key id (`AKIA` or `ASIA` and 16 upper-case letters or digits); or the
 *    text holds a PEM private key's header.
 * 3. A word of it is a long random-looking token: at least 24 characters of letters, digits and
 *    `_-+/=.`, with upper-case and lower-case letters and digits (or hexadecimal digits only, at least 32,
 *    with both letters and digits), and at least 3.5 bits of entropy per character (what random keys
 *    have; English words and ordinary identifiers, lower case with a digit or two, stay out). URLs (a `:` is not a token character)
 *    and paths (starting with `/`, `~` or `.`) are left out: they are typed often and are seldom secrets.
 *
 * A short password ("hunter2") looks like any word: only the focused field can tell it is one.
 */
import type { Redact } from '../../shared/secret-redaction.js';

const MIN_TOKEN_LENGTH = 24;
const MIN_BITS_PER_CHARACTER = 3.5;
const MIN_HEXADECIMAL_LENGTH = 32;

const KNOWN_PREFIX =
  /(?:^|[^A-Za-z0-9])(?:sk-|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|xox[bpars]-|hf_|tvly-|AIza)[A-Za-z0-9_-]{16,}/;
const AWS_ACCESS_KEY_ID = /(?:^|[^A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/;
const PRIVATE_KEY_HEADER = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const TOKEN = /^[A-Za-z0-9_\-+/=.]+$/;

/** What makes the text look like a secret, for the reason a person is shown; undefined when nothing does. */
export function secretLikeness(text: string, redact: Redact): string | undefined {
  if (redact(text) !== text) return 'contains a configured secret';
  if (KNOWN_PREFIX.test(text) || AWS_ACCESS_KEY_ID.test(text) || PRIVATE_KEY_HEADER.test(text)) return 'looks like an API key or credential';
  if (text.split(/\s+/).some(isHighEntropyToken)) return 'looks like a secret token (long and random)';
  return undefined;
}

function isHighEntropyToken(word: string): boolean {
  if (word.length < MIN_TOKEN_LENGTH || !TOKEN.test(word)) return false;
  if (/^[/~.]/.test(word)) return false;
  if (!/[0-9]/.test(word) || !/[A-Za-z]/.test(word)) return false;
  const mixedCase = /[a-z]/.test(word) && /[A-Z]/.test(word);
  const hexadecimal = word.length >= MIN_HEXADECIMAL_LENGTH && /^[0-9a-f]+$/i.test(word);
  if (!mixedCase && !hexadecimal) return false;
  return bitsPerCharacter(word) >= MIN_BITS_PER_CHARACTER;
}

/** Shannon entropy of the word's own character frequencies. */
function bitsPerCharacter(word: string): number {
  const counts = new Map<string, number>();
  for (const character of word) counts.set(character, (counts.get(character) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / word.length;
    bits -= share * Math.log2(share);
  }
  return bits;
}
