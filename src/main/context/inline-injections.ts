/**
 * Injections older clients pasted into the message itself. Before ephemeral context had its own channel
 * (ephemeral-injection.ts), a client appended the open note or the quoted text to the person's message
 * between fixed markers:
 *
 *   —————当前笔记————            —————当前引用体————
 *   …the note…                  …the quoted text…
 *   —————当前笔记如上————          —————当前引用体如上————
 *
 * Such a block is context for one request, not the person's words: stored, it would reach every later
 * turn, the timeline and compacted history. So a user message loses these blocks (and Sightline's own)
 * before it is stored.
 *
 * How the markers are read, and why:
 * - the dashes around a marker's words are matched as a run of any length, since clients differed in how
 *   many they drew; the words themselves must be exact;
 * - blocks nest (a quote inside a note): a block ends at the closing marker that balances its opening, so
 *   an inner block's end does not leave the rest of the outer block behind as text;
 * - an unterminated block runs to the end of the text: a client that lost the closing marker still meant
 *   everything after the opening as its injection, and keeping it would store that injection forever;
 * - a closing marker with no opening is removed on its own: it is marker syntax, not the person's words.
 */
import type { MessagePart, UserMessage } from '../../shared/messages.js';
import { stripInjectedBlocks, type InjectionDebugLog } from './ephemeral-injection.js';

type BlockKind = 'note' | 'quote';

const MARKER_PATTERN = /—+(当前笔记如上|当前引用体如上|当前笔记|当前引用体)—+/g;

const MARKER_WORDS: Record<string, { kind: BlockKind; opens: boolean }> = {
  当前笔记: { kind: 'note', opens: true },
  当前笔记如上: { kind: 'note', opens: false },
  当前引用体: { kind: 'quote', opens: true },
  当前引用体如上: { kind: 'quote', opens: false },
};

/** Whether the text holds any marker of an older client's block (a quick test before any work). */
export function hasInlineBlockMarker(text: string): boolean {
  return text.includes('当前笔记') || text.includes('当前引用体');
}

/**
 * Text with every note and quote block of an older client removed, markers included, and the line breaks
 * that joined each block to the text around it. Text without markers comes back as it was.
 */
export function stripInlineBlocks(text: string): string {
  if (!hasInlineBlockMarker(text)) return text;
  const kept: string[] = [];
  const open: BlockKind[] = [];
  let position = 0;
  let removed = false;
  for (const marker of text.matchAll(MARKER_PATTERN)) {
    const meaning = MARKER_WORDS[marker[1] ?? ''];
    if (meaning === undefined) continue;
    const start = marker.index;
    const end = start + marker[0].length;
    removed = true;
    if (meaning.opens) {
      if (open.length === 0) kept.push(text.slice(position, start));
      open.push(meaning.kind);
      position = end;
      continue;
    }
    const depth = open.lastIndexOf(meaning.kind);
    if (depth === -1) {
      // A stray closing marker outside any block of its kind: only the marker goes.
      if (open.length === 0) kept.push(text.slice(position, start));
      position = end;
      continue;
    }
    open.length = depth;
    position = end;
  }
  // An unterminated block takes the rest of the text with it.
  if (open.length === 0) kept.push(text.slice(position));
  return removed ? joinKept(kept) : text;
}

/** The pieces around removed blocks, joined with one line break where a block stood between two lines. */
function joinKept(pieces: readonly string[]): string {
  const lines = pieces
    .map((piece, index) => (index === 0 ? piece : piece.replace(/^[ \t]*\r?\n/, '')).replace(/\s+$/, ''))
    .filter((piece) => piece.trim() !== '');
  return lines.join('\n');
}

/** The lengths a cleaning reports in the debug log; never the content. */
export interface CleaningLengths {
  original: number;
  cleaned: number;
  stripped: number;
}

/**
 * The user's message as it is stored: Sightline's own injected blocks and older clients' note and quote
 * blocks removed from its text parts. A text part left empty is dropped. The debug log, when given, gets
 * the original, cleaned and stripped lengths whenever something was removed.
 */
export function cleanUserRequest(message: UserMessage, debugLog?: InjectionDebugLog): UserMessage {
  const parts: MessagePart[] = [];
  let original = 0;
  let cleaned = 0;
  for (const part of message.parts) {
    if (part.type !== 'text') {
      parts.push(part);
      continue;
    }
    const text = stripInlineBlocks(stripInjectedBlocks(part.text));
    original += part.text.length;
    cleaned += text.length;
    if (text === part.text) parts.push(part);
    else if (text.trim() !== '') parts.push({ ...part, text });
  }
  if (original === cleaned) return message;
  debugLog?.(describeCleaning({ original, cleaned, stripped: original - cleaned }));
  return { ...message, parts };
}

function describeCleaning(lengths: CleaningLengths): string {
  return (
    `inline injection cleaning: user message original ${lengths.original}, ` +
    `cleaned ${lengths.cleaned}, stripped ${lengths.stripped} characters`
  );
}
