/**
 * What the requests of one turn share: the earlier turns, read and planned once. History changes only at a
 * turn boundary (ARCHITECTURE.md, "Zones"), so within a turn every step would otherwise re-read and re-fold
 * the whole session to get the same messages again, and build time would grow with the session. With
 * this cache a step reads only the messages written since the last one (all of the running turn), plus
 * the running turn's images and steps; the earlier turns' planned messages are reused as they are.
 *
 * Only planning before the budget is kept here. The token budget, the ephemeral context and the token
 * report are worked out again at every request, over the cached messages and the new ones alike, so a
 * budget fold or an injection is never hidden by the cache and never stored in it.
 *
 * The agent loop creates one per turn, next to the turn's EncodedImageCache; a new turn gets a new one,
 * so a compaction at the boundary is always seen. Should it be handed a different turn, session, storage,
 * anchor setting or set of pinned frames (a person pinned one while the turn runs), it starts over. When
 * the rows do not have the shape the cache relies on (a message of another turn written after the running
 * turn's first one), it plans the whole session, as a build without a cache does. Either way a build with the cache sends the same bytes as one without.
 */
import { FIT_EDGE, type ImageSizing } from '../llm/model-profiles.js';
import type { MessageRecord, Storage, TurnRecord } from '../storage/index.js';
import type { RenderedMessageMemo } from './history-rendering.js';
import { nameHistoryPictures } from './history-pictures.js';
import { ImageDescriptions } from './image-descriptions.js';
import { imageSizingKey } from './model-image-size.js';
import type { MessageCostMemo, PlannedMessage } from './planned-messages.js';
import { planSessionRows, requestRecords, type PlannedRows, type PlanRowsInput, type SessionPlan } from './session-rows.js';
import type { EarlierTurnsShape } from './earlier-turns-shape.js';
import type { TurnView } from './turn-folding.js';
import { planKeepAll, planSightline, type ZoneInput } from './zone-rendering.js';

interface EarlierHistory {
  storage: Storage;
  sessionId: string;
  turnId: string;
  earlierShape: EarlierTurnsShape;
  /** The pinned frames the earlier turns were planned with: a pin or unpin plans them again. */
  pinned: ReadonlySet<string>;
  /** Image rows and steps of earlier turns, as read once; each request's descriptions sit over these. */
  descriptions: ImageDescriptions;
  turns: readonly TurnRecord[];
  /** The session's messages before the running turn's first one. */
  records: readonly MessageRecord[];
  keepAll: PlannedMessage[];
  sightline: Promise<{ messages: PlannedMessage[]; earlierTurns: TurnView[] }> | undefined;
  /** The running turn's messages so far. */
  active: MessageRecord[];
  /** The sequence of the latest message read. */
  lastSequence: number;
  /** Whether a message of another turn follows one of the running turn's: then nothing is cached. */
  interleaved: boolean;
}

export class TurnRequestCache {
  private earlier: EarlierHistory | undefined;
  private readonly renderedBySize = new Map<string, RenderedMessageMemo>();
  private readonly costsByKind = new Map<string, MessageCostMemo>();

  /** The same plan as planSessionRows, reading only the rows written since the previous request. */
  async plan(input: PlanRowsInput): Promise<SessionPlan> {
    let earlier = this.current(input);
    if (!earlier.interleaved && !this.readNewRows(earlier)) earlier = this.fill(input);
    if (earlier.interleaved) return planSessionRows(input);

    // Fresh rows for the running turn; the earlier turns' image rows and steps as the cache read them.
    const descriptions = new ImageDescriptions(input.storage, { descriptions: earlier.descriptions, runningTurnId: input.turn.id });
    const activeInput: ZoneInput = {
      storage: input.storage,
      descriptions,
      activeTurn: input.turn,
      turns: earlier.turns,
      records: earlier.active,
      pinned: earlier.pinned,
    };
    let sightline: PlannedRows['sightline'];
    if (input.withSightline) {
      const planned = await this.earlierSightline(earlier);
      // The running turn's rows are planned whole and its pictures left as they are: nothing to fold or name.
      sightline = {
        messages: [...planned.messages, ...planSightline(activeInput, input.earlierTurns).messages],
        earlierTurns: planned.earlierTurns,
      };
    }
    const rows: PlannedRows = {
      keepAll: [...earlier.keepAll, ...planKeepAll(activeInput)],
      sightline,
      activeMessages: earlier.active.map((record) => record.message),
    };
    return { rows, descriptions };
  }

  /**
   * Drops what was read: rows already read were rewritten in place (a password or a spelled secret masked
   * where it was stored), which reading only the rows written since would never see.
   */
  forget(): void {
    this.earlier = undefined;
    this.renderedBySize.clear();
    this.costsByKind.clear();
  }

  /** Rendered messages kept by message, for the requests of this turn at one image size (edges and sizing). */
  renderedMessages(maxImageEdge: number, sizing: ImageSizing = FIT_EDGE, reducedImageEdge: number = maxImageEdge): RenderedMessageMemo {
    const key = `${maxImageEdge}/${imageSizingKey(sizing)}/${reducedImageEdge}`;
    let memo = this.renderedBySize.get(key);
    if (memo === undefined) {
      memo = new WeakMap();
      this.renderedBySize.set(key, memo);
    }
    return memo;
  }

  /**
   * Message costs kept by message for the requests of this turn. `kind` names everything else the cost
   * depends on (which estimate, the image formula, the image size).
   */
  messageCosts(kind: string): MessageCostMemo {
    let memo = this.costsByKind.get(kind);
    if (memo === undefined) {
      memo = new WeakMap();
      this.costsByKind.set(kind, memo);
    }
    return memo;
  }

  private current(input: PlanRowsInput): EarlierHistory {
    const earlier = this.earlier;
    const { storage, turn } = input;
    const same =
      earlier !== undefined &&
      earlier.storage === storage &&
      earlier.sessionId === turn.sessionId &&
      earlier.turnId === turn.id &&
      earlier.earlierShape.anchorTurns === input.earlierTurns.anchorTurns &&
      earlier.earlierShape.anchorResolution === input.earlierTurns.anchorResolution &&
      sameMembers(earlier.pinned, input.pinned);
    return same ? earlier : this.fill(input);
  }

  /** Reads the whole session once and splits it at the running turn's first message. */
  private fill({ storage, turn, earlierTurns: earlierShape, pinned }: PlanRowsInput): EarlierHistory {
    this.renderedBySize.clear();
    this.costsByKind.clear();
    const records = requestRecords(storage.messages.listBySession(turn.sessionId));
    const firstActive = records.findIndex((record) => record.turnId === turn.id);
    const split = firstActive === -1 ? records.length : firstActive;
    const active = records.slice(split);
    const descriptions = new ImageDescriptions(storage);
    const turns = storage.turns.listBySession(turn.sessionId);
    const earlierRecords = records.slice(0, split);
    this.earlier = {
      storage,
      sessionId: turn.sessionId,
      turnId: turn.id,
      earlierShape,
      pinned: new Set(pinned),
      descriptions,
      turns,
      records: earlierRecords,
      keepAll: planKeepAll({ storage, descriptions, activeTurn: turn, turns, records: earlierRecords }),
      sightline: undefined,
      active,
      lastSequence: records.at(-1)?.sequence ?? 0,
      interleaved: active.some((record) => record.turnId !== turn.id),
    };
    return this.earlier;
  }

  /** Appends the running turn's new messages; false when a new message belongs elsewhere (plan again from scratch). */
  private readNewRows(earlier: EarlierHistory): boolean {
    const rows = earlier.storage.messages.listBySessionAfter(earlier.sessionId, earlier.lastSequence);
    if (rows.some((record) => record.turnId !== earlier.turnId)) return false;
    earlier.active.push(...requestRecords(rows));
    earlier.lastSequence = rows.at(-1)?.sequence ?? earlier.lastSequence;
    return true;
  }

  private earlierSightline(earlier: EarlierHistory): Promise<{ messages: PlannedMessage[]; earlierTurns: TurnView[] }> {
    earlier.sightline ??= (async () => {
      const activeTurn = earlier.turns.find((turn) => turn.id === earlier.turnId);
      if (activeTurn === undefined) throw new Error(`Turn ${earlier.turnId} is not among its session's turns.`);
      const zoneInput: ZoneInput = {
        storage: earlier.storage,
        descriptions: earlier.descriptions,
        activeTurn,
        turns: earlier.turns,
        records: earlier.records,
        pinned: earlier.pinned,
      };
      const zoned = planSightline(zoneInput, earlier.earlierShape);
      const messages = await nameHistoryPictures(zoned.messages, {
        storage: earlier.storage,
        sessionId: earlier.sessionId,
        descriptions: earlier.descriptions,
      });
      return { messages, earlierTurns: zoned.earlierTurns };
    })();
    // A failed read is not kept: the next request tries again, as a build without the cache would.
    earlier.sightline.catch(() => {
      if (this.earlier === earlier) earlier.sightline = undefined;
    });
    return earlier.sightline;
  }
}

function sameMembers(first: ReadonlySet<string>, second: ReadonlySet<string>): boolean {
  return first.size === second.size && [...first].every((member) => second.has(member));
}
