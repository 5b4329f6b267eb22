/**
 * A configured secret spelled over several calls: Qwen's `key` takes at most 8 keys, OpenAI's computer tool
 * may send one `keypress` per key, any model may send `key "s"`, `key "k"`, … one call at a time. No call
 * holds the secret, so the redactor, which reads each text alone, finds none. What the session's calls type
 * is remembered here, in order, as one text (a run), and the redactor is asked about the run after each call
 * that types: when it finds a secret there, the calls whose typing it spans are the pieces to mask, where
 * they were stored (spelled-secret-masking.ts) and in the call being recorded.
 *
 * The run is everything the session typed outside password fields (`type`'s text and the text keys spell),
 * whatever came between: a screenshot, a click, Return, another turn. What matters is what a reader of the
 * stored session can put together, and a reader reads the calls in order whatever lies between them. Joining
 * more can only mask more, and only when the joined text spells a configured secret, which ordinary typing
 * does not do by chance. Kept in memory only, like typed passwords, and only its last few thousand
 * characters: no configured key is nearly that long.
 */
import { secretSpan, type Redact } from '../../shared/secret-redaction.js';

/** Longer than any key a configuration holds, with room for what was typed around it. */
const KEPT_CHARACTERS = 4096;

/** What one call typed, and once it is recorded, where. */
export interface SpelledPiece<Rows> {
  text: string;
  /**
   * Every form the piece is stored and shown in is one string (one action's keys or text): a secret it holds
   * whole is the redactor's to find there, more exactly than masking the whole piece would. A batch of
   * actions is not: its step records each action apart.
   */
  oneString: boolean;
  /** Where the call and its rows are; undefined while the call is being recorded. */
  rows: Rows | undefined;
  /** Its rows are masked already. */
  masked: boolean;
}

export class SpelledSecrets<Rows> {
  private readonly bySession = new Map<string, Array<SpelledPiece<Rows>>>();

  constructor(private readonly redact: Redact) {}

  /**
   * Adds what a call typed to the session's run; returns its piece, and the pieces not masked yet (this one
   * among them, or not) that a secret found in the run spans.
   */
  add(sessionId: string, text: string, oneString: boolean): { piece: SpelledPiece<Rows>; toMask: Array<SpelledPiece<Rows>> } {
    const run = this.bySession.get(sessionId) ?? [];
    this.bySession.set(sessionId, run);
    const piece: SpelledPiece<Rows> = { text, oneString, rows: undefined, masked: false };
    run.push(piece);
    let kept = run.reduce((length, each) => length + each.text.length, 0);
    while (run.length > 1 && kept - run[0]!.text.length >= KEPT_CHARACTERS) kept -= run.shift()!.text.length;
    return { piece, toMask: this.spanned(run).filter((each) => !each.masked) };
  }

  /**
   * Whether one action typing `text` next would complete a configured secret begun by the session's earlier
   * calls (one it holds whole is the redactor's).
   */
  completes(sessionId: string, text: string): boolean {
    if (text === '') return false;
    const before = (this.bySession.get(sessionId) ?? []).map((piece) => piece.text).join('');
    const span = secretSpan(before + text, this.redact);
    return span !== undefined && span.end > before.length && span.start < before.length;
  }

  /** The pieces the secrets found in the run lie in: from the one the first begins in to the one the last ends in. */
  private spanned(run: ReadonlyArray<SpelledPiece<Rows>>): Array<SpelledPiece<Rows>> {
    const span = secretSpan(run.map((piece) => piece.text).join(''), this.redact);
    if (span === undefined) return [];
    let offset = 0;
    const spanned = run.filter((piece) => {
      const start = offset;
      offset += piece.text.length;
      return start < span.end && offset > span.start;
    });
    return spanned.length === 1 && spanned[0]!.oneString ? [] : spanned;
  }
}
