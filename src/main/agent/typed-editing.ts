/**
 * What the editing keys do to typed text, well enough to rebuild what a line of a field ends up holding: a
 * configured secret typed out of order (`key "e t"`, `key "Home"`, `key "s e c r"`) or with corrections
 * (`key "s e c x BackSpace r e t"`) is in no call, and in no join of the calls in order, but it is in the field.
 * spelled-secrets.ts asks the redactor about that too.
 *
 * A single-line model: the caret moves with Home and End (Up and Down, Page_Up and Page_Down go there too, as in
 * a one-line field), Left and Right, and by words with Ctrl or Alt; BackSpace and Delete erase a character (a
 * word with Ctrl or Alt), or the selection; Shift with a move selects, and Ctrl+A or Cmd+A selects all, which
 * what is typed next replaces. Enter, Tab, Escape and the function keys start a new line, and so does a click
 * (the turn says so): what follows is typed elsewhere, and Home goes no further back than that line. A paste's text is not known: it adds nothing.
 * A model that is wrong can only join text that was not together, which masks more, never less.
 */
import type { ComputerAction } from '../../shared/actions.js';
import { parseKeyCombinations, type KeyChord, type NutKeyName } from '../operators/key-combination.js';

export type CaretMove = 'line-start' | 'line-end' | 'left' | 'right' | 'word-left' | 'word-right';

export type Edit =
  | { kind: 'insert'; text: string }
  | { kind: 'move'; to: CaretMove; selecting: boolean }
  | { kind: 'erase'; direction: 'before' | 'after'; word: boolean }
  | { kind: 'select-all' }
  /** The focus may be elsewhere now: a new line starts. */
  | { kind: 'leave' };

const NEWLINE = /\r\n?|\n/;

const MOVES: Partial<Record<NutKeyName, CaretMove>> = {
  Home: 'line-start',
  Up: 'line-start',
  PageUp: 'line-start',
  End: 'line-end',
  Down: 'line-end',
  PageDown: 'line-end',
  Left: 'left',
  Right: 'right',
};

/** Keys after which what is typed is taken to go elsewhere: the focus moves, or the line is done. */
const LEAVING = new Set<NutKeyName>(['Tab', 'Return', 'Enter', 'Escape', 'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12']);

const SHIFT = new Set<NutKeyName>(['LeftShift', 'RightShift']);
const WORD_MODIFIERS = new Set<NutKeyName>(['LeftControl', 'RightControl', 'LeftAlt', 'RightAlt']);
const COMMAND = new Set<NutKeyName>(['LeftSuper', 'RightSuper', 'LeftCmd', 'RightCmd']);

/** Pointer actions that may put the focus in another field, or the caret elsewhere in one. */
const POINTER_PRESSES = new Set<ComputerAction['action']>(['click', 'double_click', 'triple_click', 'right_click', 'middle_click', 'drag', 'mouse_down', 'mouse_up']);

/** What an action does to the text of the field it types into: its keys and text, or a new line after a click. */
export function editsOf(action: ComputerAction): Edit[] {
  if (POINTER_PRESSES.has(action.action)) return [{ kind: 'leave' }];
  if (action.action === 'type') {
    return action.text.split(NEWLINE).flatMap((line, index): Edit[] => [...(index > 0 ? [{ kind: 'leave' as const }] : []), ...(line === '' ? [] : [{ kind: 'insert' as const, text: line }])]);
  }
  if (action.action !== 'key' && action.action !== 'hold_key') return [];
  const parse = parseKeyCombinations(action.keys);
  return parse.ok ? parse.chords.flatMap(editsOfChord) : [];
}

function editsOfChord(chord: KeyChord): Edit[] {
  const keys = chord.filter((key) => !SHIFT.has(key.nut) && !WORD_MODIFIERS.has(key.nut) && !COMMAND.has(key.nut));
  const shifted = chord.some((key) => SHIFT.has(key.nut));
  const byWord = chord.some((key) => WORD_MODIFIERS.has(key.nut));
  const command = chord.some((key) => COMMAND.has(key.nut));
  if (keys.length === 1) {
    const only = keys[0]!;
    if ((byWord || command) && only.nut === 'A' && !shifted) return [{ kind: 'select-all' }];
    const move = MOVES[only.nut];
    if (move !== undefined) {
      // Cmd with an arrow goes to the line's start or end (macOS); Ctrl or Alt goes by words.
      const to = command && (move === 'left' || move === 'right') ? (move === 'left' ? 'line-start' : 'line-end') : byWord && move === 'left' ? 'word-left' : byWord && move === 'right' ? 'word-right' : move;
      return [{ kind: 'move', to, selecting: shifted }];
    }
    if (only.nut === 'Backspace' || only.nut === 'Delete') {
      if (command && only.nut === 'Backspace') return [{ kind: 'move', to: 'line-start', selecting: true }, { kind: 'erase', direction: 'before', word: false }];
      return [{ kind: 'erase', direction: only.nut === 'Backspace' ? 'before' : 'after', word: byWord }];
    }
  }
  if (byWord || command) return [];
  if (keys.some((key) => LEAVING.has(key.nut))) return [{ kind: 'leave' }];
  const text = keys.map((key) => (key.nut === 'Space' ? ' ' : key.playwright.length === 1 ? key.playwright : '')).join('');
  if (text === '') return [];
  return [{ kind: 'insert', text: shifted ? text.toUpperCase() : text }];
}

/** One character of the modelled text, and who typed it (a piece of spelled-secrets.ts); none for a line's end. */
interface Placed<Owner> {
  character: string;
  owner: Owner | undefined;
}

/**
 * The text typed in a session as the fields would hold it, line by line, each character with the piece that
 * typed it. Kept in memory only, and only its last few thousand characters.
 */
export class EditedText<Owner> {
  private placed: Array<Placed<Owner>> = [];
  private caret = 0;
  /** Where a selection begins (the caret is its other end); undefined without one. */
  private anchor: number | undefined;

  constructor(private readonly kept: number) {}

  get text(): string {
    return this.placed.map((each) => each.character).join('');
  }

  /** Who typed the characters from `start` to `end` of the text. */
  ownersBetween(start: number, end: number): Set<Owner> {
    return new Set(this.placed.slice(start, end).flatMap((each) => (each.owner === undefined ? [] : [each.owner])));
  }

  /** Whether the characters from `start` to `end` hold any `owner` typed. */
  holds(owner: Owner, start: number, end: number): boolean {
    return this.placed.slice(start, end).some((each) => each.owner === owner);
  }

  copy(): EditedText<Owner> {
    const copy = new EditedText<Owner>(this.kept);
    copy.placed = [...this.placed];
    copy.caret = this.caret;
    copy.anchor = this.anchor;
    return copy;
  }

  apply(edits: readonly Edit[], owner: Owner | undefined): void {
    for (const edit of edits) this.applyOne(edit, owner);
    if (this.placed.length > this.kept * 2) {
      const dropped = this.placed.length - this.kept;
      this.placed = this.placed.slice(dropped);
      this.caret = Math.max(0, this.caret - dropped);
      this.anchor = undefined;
    }
  }

  private applyOne(edit: Edit, owner: Owner | undefined): void {
    switch (edit.kind) {
      case 'insert': {
        this.eraseSelection();
        this.placed.splice(this.caret, 0, ...[...edit.text].map((character) => ({ character, owner })));
        this.caret += [...edit.text].length;
        return;
      }
      case 'leave': {
        this.anchor = undefined;
        this.caret = this.placed.length;
        if (this.placed.length > 0 && this.placed.at(-1)!.character !== '\n') {
          this.placed.push({ character: '\n', owner: undefined });
          this.caret += 1;
        }
        return;
      }
      case 'select-all': {
        this.anchor = this.lineStart(this.caret);
        this.caret = this.lineEnd(this.caret);
        return;
      }
      case 'move': {
        if (edit.selecting) this.anchor ??= this.caret;
        else if (this.anchor !== undefined && (edit.to === 'left' || edit.to === 'right')) {
          // An arrow without Shift ends a selection at its side.
          const [start, end] = this.selection();
          this.anchor = undefined;
          this.caret = edit.to === 'left' ? start : end;
          return;
        } else this.anchor = undefined;
        this.caret = this.moved(this.caret, edit.to);
        return;
      }
      case 'erase': {
        if (this.anchor !== undefined && this.anchor !== this.caret) {
          this.eraseSelection();
          return;
        }
        this.anchor = undefined;
        const to = edit.direction === 'before' ? this.moved(this.caret, edit.word ? 'word-left' : 'left') : this.moved(this.caret, edit.word ? 'word-right' : 'right');
        const [start, end] = to < this.caret ? [to, this.caret] : [this.caret, to];
        this.placed.splice(start, end - start);
        this.caret = start;
        return;
      }
    }
  }

  private selection(): [number, number] {
    const anchor = this.anchor ?? this.caret;
    return anchor < this.caret ? [anchor, this.caret] : [this.caret, anchor];
  }

  private eraseSelection(): void {
    if (this.anchor === undefined) return;
    const [start, end] = this.selection();
    this.placed.splice(start, end - start);
    this.caret = start;
    this.anchor = undefined;
  }

  private moved(from: number, to: CaretMove): number {
    switch (to) {
      case 'line-start':
        return this.lineStart(from);
      case 'line-end':
        return this.lineEnd(from);
      case 'left':
        return from > this.lineStart(from) ? from - 1 : from;
      case 'right':
        return from < this.lineEnd(from) ? from + 1 : from;
      case 'word-left': {
        let at = from;
        const start = this.lineStart(from);
        while (at > start && this.placed[at - 1]!.character === ' ') at -= 1;
        while (at > start && this.placed[at - 1]!.character !== ' ') at -= 1;
        return at;
      }
      case 'word-right': {
        let at = from;
        const end = this.lineEnd(from);
        while (at < end && this.placed[at]!.character === ' ') at += 1;
        while (at < end && this.placed[at]!.character !== ' ') at += 1;
        return at;
      }
    }
  }

  private lineStart(from: number): number {
    let at = from;
    while (at > 0 && this.placed[at - 1]!.character !== '\n') at -= 1;
    return at;
  }

  private lineEnd(from: number): number {
    let at = from;
    while (at < this.placed.length && this.placed[at]!.character !== '\n') at += 1;
    return at;
  }
}
