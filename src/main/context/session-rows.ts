/**
 * The rows a request is planned from, planned as far as they can be before the budget: every message of
 * the session with its zone (earlier turns folded, user pictures of earlier turns named), and the same
 * messages with every image whole (what keeping everything would cost).
 *
 * `planSessionRows` reads and plans the whole session; a TurnRequestCache (turn-request-cache.ts) gives the
 * same result by planning earlier turns once per turn and only the running turn's rows at each step.
 */
import type { Message } from '../../shared/messages.js';
import type { MessageRecord, Storage, TurnRecord } from '../storage/index.js';
import type { EarlierTurnsShape } from './earlier-turns-shape.js';
import { stripInjectedFromMessages } from './ephemeral-injection.js';
import { nameGeneratedMediaInRecords } from './generated-media-placeholders.js';
import { nameHistoryPictures } from './history-pictures.js';
import { ImageDescriptions } from './image-descriptions.js';
import type { PlannedMessage } from './planned-messages.js';
import type { TurnView } from './turn-folding.js';
import { planKeepAll, planSightline, type ZoneInput } from './zone-rendering.js';

export interface PlannedRows {
  /** Every message with each image whole (placeholders of compacted turns expanded again). */
  keepAll: PlannedMessage[];
  /** Sightline's zones with history pictures named; only when asked for. */
  sightline: { messages: PlannedMessage[]; earlierTurns: TurnView[] } | undefined;
  /** The running turn's messages, in order. */
  activeMessages: Message[];
}

export interface PlanRowsInput {
  storage: Storage;
  turn: TurnRecord;
  earlierTurns: EarlierTurnsShape;
  withSightline: boolean;
  /** The session's pinned frames, read once for the request (issue 16). */
  pinned: ReadonlySet<string>;
}

export interface SessionPlan {
  rows: PlannedRows;
  /** The image rows and captions the request goes on with (the budget folds with them). */
  descriptions: ImageDescriptions;
}

/** Reads every message, turn and image row of the session and plans them. */
export async function planSessionRows(input: PlanRowsInput): Promise<SessionPlan> {
  const { storage, turn } = input;
  const descriptions = new ImageDescriptions(storage);
  descriptions.remember(storage.images.listBySession(turn.sessionId));
  const zoneInput: ZoneInput = {
    storage,
    descriptions,
    activeTurn: turn,
    turns: storage.turns.listBySession(turn.sessionId),
    records: requestRecords(storage.messages.listBySession(turn.sessionId)),
    pinned: input.pinned,
  };
  let sightline: PlannedRows['sightline'];
  if (input.withSightline) {
    const zoned = planSightline(zoneInput, input.earlierTurns);
    const messages = await nameHistoryPictures(zoned.messages, { storage, sessionId: turn.sessionId, descriptions });
    sightline = { messages, earlierTurns: zoned.earlierTurns };
  }
  const rows: PlannedRows = {
    keepAll: planKeepAll(zoneInput),
    sightline,
    activeMessages: zoneInput.records.filter((record) => record.turnId === turn.id).map((record) => record.message),
  };
  return { rows, descriptions };
}

/**
 * Stored rows as a request reads them: injected blocks cut out, and media the model generated named in
 * text (generated-media-placeholders.ts), before any zone looks at their parts.
 */
export function requestRecords(records: readonly MessageRecord[]): MessageRecord[] {
  return nameGeneratedMediaInRecords(stripInjected(records));
}

/** Older data may hold injected blocks; they are cut out before this request's own are appended. */
export function stripInjected(records: readonly MessageRecord[]): MessageRecord[] {
  const stripped = stripInjectedFromMessages(records.map((record) => record.message));
  return records.map((record, index) => ({ ...record, message: stripped[index] ?? record.message }));
}
