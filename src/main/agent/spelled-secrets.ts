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
 *
 * The redactor is asked about the text as the fields would hold it, too (typed-editing.ts): a secret typed out
 * of order (its second half, Home, its first half) or with corrections (BackSpace over a wrong key) is in no
 * call and in no join of them, but it is in the field; every piece that typed a character of it is masked.
 */
import { secretSpan, type Redact } from '../../shared/secret-redaction.js';
import { EditedText, type Edit } from './typed-editing.js';

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
  /** What each session typed as the fields would hold it, each character with its piece. */
  private readonly edited = new Map<string, EditedText<SpelledPiece<Rows>>>();

  constructor(private readonly redact: Redact) {}

  /**
   * Adds what a call typed to the session's run; returns its piece, and the pieces not masked yet (this one
   * among them, or not) that a secret found in the run spans, or in the text as the fields hold it. `edits`
   * are what the call did to that text (typed-editing.ts: its keys that move the caret or erase count there);
   * by default it only inserted `text`.
   */
  add(
    sessionId: string,
    text: string,
    oneString: boolean,
    edits: readonly Edit[] = [{ kind: 'insert', text }],
    fieldText?: string,
  ): { piece: SpelledPiece<Rows>; toMask: Array<SpelledPiece<Rows>> } {
    const run = this.bySession.get(sessionId) ?? [];
    this.bySession.set(sessionId, run);
    const piece: SpelledPiece<Rows> = { text, oneString, rows: undefined, masked: false };
    run.push(piece);
    let kept = run.reduce((length, each) => length + each.text.length, 0);
    while (run.length > 1 && kept - run[0]!.text.length >= KEPT_CHARACTERS) kept -= run.shift()!.text.length;
    const fields = this.fieldsOf(sessionId);
    fields.apply(edits, piece);
    const spanned = new Set([...this.spanned(run), ...this.editedInto(fields), ...this.heldBy(run, fieldText)]);
    return { piece, toMask: run.filter((each) => spanned.has(each) && !each.masked) };
  }

  /**
   * What a call that typed nothing did to the fields' text: its keys that move the caret or erase (`key Home`
   * between two halves), or a click (`leave`), after which what is typed goes to a new line.
   */
  edit(sessionId: string, edits: readonly Edit[]): void {
    if (edits.length > 0) this.fieldsOf(sessionId).apply(edits, undefined);
  }

  /**
   * Whether one action typing `text` next (doing `edits` to the fields' text) would complete a configured
   * secret begun by the session's earlier calls (one it holds whole is the redactor's).
   */
  completes(sessionId: string, text: string, edits: readonly Edit[] = [{ kind: 'insert', text }]): boolean {
    if (text === '') return false;
    const before = (this.bySession.get(sessionId) ?? []).map((piece) => piece.text).join('');
    const span = secretSpan(before + text, this.redact);
    if (span !== undefined && span.end > before.length && span.start < before.length) return true;
    const next: SpelledPiece<Rows> = { text, oneString: true, rows: undefined, masked: false };
    const fields = this.fieldsOf(sessionId).copy();
    fields.apply(edits, next);
    const found = secretSpan(fields.text, this.redact);
    if (found === undefined || !fields.holds(next, found.start, found.end)) return false;
    const owners = fields.ownersBetween(found.start, found.end);
    return owners.size > 1 || this.redact(text) === text;
  }

  /**
   * The pieces that may have typed a secret the field holds, as the operator read it once this piece had typed
   * (the browser): a caret moved by a click inside the field is not followed by the model of the fields, the
   * field's own text is. Which pieces typed it is not known, so each kept piece whose text is a part of the
   * secret found there counts; one that holds it whole is the redactor's.
   */
  private heldBy(run: ReadonlyArray<SpelledPiece<Rows>>, fieldText: string | undefined): Array<SpelledPiece<Rows>> {
    if (fieldText === undefined) return [];
    const span = secretSpan(fieldText, this.redact);
    if (span === undefined) return [];
    const secret = fieldText.slice(span.start, span.end).toLowerCase();
    const parts = run.filter((each) => each.text !== '' && secret.includes(each.text.toLowerCase()));
    return parts.length === 1 && parts[0]!.oneString && this.redact(parts[0]!.text) !== parts[0]!.text ? [] : parts;
  }

  private fieldsOf(sessionId: string): EditedText<SpelledPiece<Rows>> {
    let fields = this.edited.get(sessionId);
    if (fields === undefined) {
      fields = new EditedText(KEPT_CHARACTERS);
      this.edited.set(sessionId, fields);
    }
    return fields;
  }

  /**
   * The pieces that typed the characters of the secrets found in the fields' text. One piece that holds a
   * secret whole in what it typed is the redactor's, as below; one that built it with its own editing keys
   * (`s e c x BackSpace r e t`) holds it in no text the redactor reads, so is masked whole.
   */
  private editedInto(fields: EditedText<SpelledPiece<Rows>>): Array<SpelledPiece<Rows>> {
    const span = secretSpan(fields.text, this.redact);
    if (span === undefined) return [];
    const owners = [...fields.ownersBetween(span.start, span.end)];
    return owners.length === 1 && owners[0]!.oneString && this.redact(owners[0]!.text) !== owners[0]!.text ? [] : owners;
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
