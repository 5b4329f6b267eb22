/**
 * An older ended turn names its folded images in one line (captions.ts, `placeholderSheetText`) rather than
 * one captioned placeholder each: a line per image cost about 22 tokens, which over fifty turns of ten screens
 * was most of what a request carried beyond a fixed window's (docs/decisions/0034-earlier-turns-by-price.md). Every image stays named by id, so get_history_image still brings any of it back; the
 * step each belongs to is its place in the line, and each step's action is still in the turn's text.
 *
 * The line takes the place of the turn's first folded image; the others are left out. A message whose only
 * parts are placeholders keeps them inline, so that no message is left empty. Works on the folded form, which
 * is the same before and after compaction, so the line is too.
 */
import type { Message, MessagePart } from '../../shared/messages.js';
import { placeholderImageId, placeholderSheetText, type SheetEntry } from './captions.js';
import type { PlannedMessage } from './planned-messages.js';
import type { TurnView } from './turn-folding.js';

export function nameFoldedImagesInOneLine(messages: readonly PlannedMessage[], view: TurnView): PlannedMessage[] {
  const inTurn = (planned: PlannedMessage) => planned.zone === 'earlier' && planned.turnId === view.turn.id;
  const entries: SheetEntry[] = [];
  for (const planned of messages) {
    if (!inTurn(planned) || keepsPlaceholdersInline(planned.message)) continue;
    for (const imageId of placeholderIds(planned.message)) {
      entries.push({ imageId, errorFrame: view.anchors.get(imageId)?.includes('error') === true });
    }
  }
  if (entries.length === 0) return [...messages];
  const line: MessagePart = { type: 'text', text: placeholderSheetText(view.turn.sequence, entries) };
  let placed = false;
  return messages.map((planned) => {
    if (!inTurn(planned) || keepsPlaceholdersInline(planned.message)) return planned;
    const parts: MessagePart[] = [];
    for (const part of planned.message.parts) {
      if (!isPlaceholder(part)) parts.push(part);
      else if (!placed) {
        parts.push(line);
        placed = true;
      }
    }
    const changed = parts.length !== planned.message.parts.length || parts.includes(line);
    return changed ? { ...planned, message: { ...planned.message, parts } as Message } : planned;
  });
}

function keepsPlaceholdersInline(message: Message): boolean {
  return message.parts.length > 0 && message.parts.every(isPlaceholder);
}

function placeholderIds(message: Message): string[] {
  return message.parts.flatMap((part) => (part.type === 'text' ? (placeholderImageId(part.text) ?? []) : []));
}

function isPlaceholder(part: MessagePart): boolean {
  return part.type === 'text' && placeholderImageId(part.text) !== undefined;
}
