/**
 * The zones of a request (ARCHITECTURE.md, "Zones"). The active turn goes whole. Earlier turns keep their
 * text. The most recent `anchorTurns` of them show their anchors (first and last screen whole or reduced, as
 * the price table says: earlier-turns-shape.ts; error frames whole) and a captioned placeholder for each other
 * image; older turns name all their folded images in one line (placeholder-sheets.ts). Frames a person pinned
 * stay whole in every turn. Rows without a turn (older data) go as they are.
 *
 * An earlier turn renders the same whether its compaction has run or not (see turn-folding.ts), and which
 * turns count as recent changes only when a turn ends: within a turn, the history part of every request
 * is the same bytes.
 *
 * The comparison policies of the benchmark render from the same rows: keep-all expands every placeholder
 * back into its image; keep-last-N then drops all image parts but the N most recent, as agents that trim
 * screenshots do.
 */
import type { Message, MessagePart } from '../../shared/messages.js';
import type { MessageRecord, Storage, TurnRecord } from '../storage/index.js';
import { placeholderImageId } from './captions.js';
import type { EarlierTurnsShape } from './earlier-turns-shape.js';
import type { ImageDescriptions } from './image-descriptions.js';
import { nameFoldedImagesInOneLine } from './placeholder-sheets.js';
import type { PlannedMessage } from './planned-messages.js';
import { isScreenshot } from './turn-anchors.js';
import { foldedParts, loadTurnView, type TurnView } from './turn-folding.js';

export interface ZoneInput {
  storage: Storage;
  descriptions: ImageDescriptions;
  activeTurn: TurnRecord;
  /** The session's turns, in order. */
  turns: readonly TurnRecord[];
  /** The session's messages, in order. */
  records: readonly MessageRecord[];
  /** The session's pinned frames (issue 16); none when absent. */
  pinned?: ReadonlySet<string>;
}

export interface ZonedHistory {
  messages: PlannedMessage[];
  /** Earlier turns that have messages, oldest first: what the token budget may reduce to one line each. */
  earlierTurns: TurnView[];
}

/**
 * How many screens before its last the most recent earlier turn shows as reduced views: the handover. At a
 * turn's start the running turn has one screen; with the previous turn's last (an anchor, whole) and the one
 * before it reduced, a request still shows the three latest screens, as every request of a turn does (the
 * present whole, the two before at least reduced: active-zone.ts). It changes only when a turn ends, like the
 * rest of the earlier turns, so the prompt cache keeps it.
 */
export const HANDOVER_REDUCED_VIEWS = 1;

export function planSightline(input: ZoneInput, shape: EarlierTurnsShape): ZonedHistory {
  const earlierTurns = loadEarlierTurns(input);
  const recent = new Set(earlierTurns.slice(Math.max(0, earlierTurns.length - shape.anchorTurns)).map((view) => view.turn.id));
  const latestEarlier = earlierTurns.at(-1);
  const reducedViews = new Map(
    earlierTurns.filter((view) => recent.has(view.turn.id)).map((view) => [view.turn.id, reducedViewsOf(view, view === latestEarlier, shape)]),
  );
  const views = new Map(earlierTurns.map((view) => [view.turn.id, view]));
  let messages = input.records.map((record): PlannedMessage => {
    const planned = plannedOf(record, input.activeTurn);
    const view = record.turnId === null ? undefined : views.get(record.turnId);
    if (planned.zone !== 'earlier' || view === undefined) return planned;
    const reduced = reducedViews.get(view.turn.id);
    const parts = foldedParts(record.message, {
      anchors: view.anchors,
      anchorsWhole: recent.has(view.turn.id),
      descriptions: input.descriptions,
      ...(input.pinned === undefined ? {} : { pinned: input.pinned }),
      ...(reduced === undefined ? {} : { reducedViews: reduced }),
    });
    return { ...planned, message: { ...record.message, parts } as Message };
  });
  for (const view of earlierTurns) if (!recent.has(view.turn.id)) messages = nameFoldedImagesInOneLine(messages, view);
  return { messages, earlierTurns };
}

/** Every image whole, wherever it is: placeholders of compacted turns become their images again. */
export function planKeepAll(input: ZoneInput): PlannedMessage[] {
  return input.records.map((record) => {
    const planned = plannedOf(record, input.activeTurn);
    const parts = record.message.parts.map((part): MessagePart => {
      const imageId = part.type === 'text' ? placeholderImageId(part.text) : undefined;
      return imageId === undefined ? part : { type: 'image', imageId };
    });
    return { ...planned, message: { ...record.message, parts } as Message };
  });
}

/** Only the `count` most recent image parts of the whole request remain; older ones are dropped, not replaced. */
export function keepLastImages(messages: readonly PlannedMessage[], count: number): PlannedMessage[] {
  let remaining = Math.max(0, count);
  const kept = [...messages].reverse().map((planned) => {
    const parts = [...planned.message.parts].reverse().filter((part) => {
      if (part.type !== 'image') return true;
      if (remaining === 0) return false;
      remaining -= 1;
      return true;
    });
    return { ...planned, message: { ...planned.message, parts: parts.reverse() } as Message };
  });
  return kept.reverse();
}

function plannedOf(record: MessageRecord, activeTurn: TurnRecord): PlannedMessage {
  const zone = record.turnId === null ? 'legacy' : record.turnId === activeTurn.id ? 'active' : 'earlier';
  return { zone, turnId: record.turnId, message: record.message };
}

/**
 * A recent earlier turn's screens shown as reduced views: its first and last when the price table wants the
 * anchors reduced (error frames stay whole), and for the latest such turn the handover.
 */
function reducedViewsOf(view: TurnView, latest: boolean, shape: EarlierTurnsShape): Set<string> {
  const reduced = latest ? handoverViews(view) : new Set<string>();
  if (shape.anchorResolution === 'reduced') {
    for (const [imageId, reasons] of view.anchors) if (!reasons.includes('error')) reduced.add(imageId);
  }
  return reduced;
}

/** The screens just before a turn's last one that are not anchors already (those are shown as anchors). */
function handoverViews(view: TurnView): Set<string> {
  const screens = view.content.images.filter(isScreenshot).map((image) => image.id);
  return new Set(screens.slice(0, -1).slice(-HANDOVER_REDUCED_VIEWS).filter((imageId) => !view.anchors.has(imageId)));
}

function loadEarlierTurns(input: ZoneInput): TurnView[] {
  const messagesByTurn = new Map<string, Message[]>();
  for (const record of input.records) {
    if (record.turnId === null || record.turnId === input.activeTurn.id) continue;
    const list = messagesByTurn.get(record.turnId) ?? [];
    list.push(record.message);
    messagesByTurn.set(record.turnId, list);
  }
  return input.turns
    .filter((turn) => messagesByTurn.has(turn.id))
    .map((turn) => loadTurnView(input.storage, input.descriptions, turn, messagesByTurn.get(turn.id)));
}
