/**
 * How the session's next request will carry each of its stored images (issue 16, "the timeline shows what
 * the model saw"): whole, as a reduced view, or folded to a placeholder (or, under keep-last, left out).
 * The timeline draws a frame whole when the next request sends it whole, and otherwise says where its
 * pixels are.
 *
 * Planned with the request builder's own stages from the same rows, up to the pixels: the zones of the
 * earlier turns (anchors of recent turns, the handover, pinned frames) and, while a turn runs, its active
 * zone. When no turn runs, the next request is a new turn's first: every turn is an earlier one. The token
 * budget is not applied: it depends on the next turn's request and context, which do not exist yet, and it
 * folds only when a request would not fit.
 */
import type { ContextPolicy } from '../../shared/context-policy.js';
import type { NextRequestTreatment } from '../../shared/images.js';
import type { Storage, TurnRecord } from '../storage/index.js';
import type { ActiveZoneShape } from './active-zone-shape.js';
import { planActiveZone } from './active-zone.js';
import { imageIdsIn } from './captions.js';
import type { EarlierTurnsShape } from './earlier-turns-shape.js';
import { ImageDescriptions } from './image-descriptions.js';
import type { PlannedMessage } from './planned-messages.js';
import { stripInjected } from './session-rows.js';
import { loadTurnView } from './turn-folding.js';
import { keepLastImages, planKeepAll, planSightline, type ZoneInput } from './zone-rendering.js';

export interface NextRequestInput {
  storage: Storage;
  sessionId: string;
  /** How the earlier turns are shown, as the configured model's price table gives it (earlier-turns-shape.ts). */
  earlierTurns: EarlierTurnsShape;
  policy: ContextPolicy;
  /** The running turn's shape, as the configured model's profile gives it (active-zone-shape.ts). */
  shape: ActiveZoneShape;
}

/**
 * Each stored image the session's messages name, by id, with how the next request carries it; an image named
 * twice counts as its best treatment. Images no message names (rows written without their messages) are
 * left out: the request says nothing of them.
 */
export function nextRequestImages(input: NextRequestInput): Map<string, NextRequestTreatment> {
  const { storage, sessionId } = input;
  const turns = storage.turns.listBySession(sessionId);
  const latest = turns.at(-1);
  if (latest === undefined) return new Map();
  const running = latest.status === 'running' ? latest : undefined;
  // The turn the next request belongs to: the running one, or a new one that no row belongs to yet.
  const activeTurn: TurnRecord = running ?? { ...latest, id: `${latest.id}:next`, status: 'running' };
  const descriptions = new ImageDescriptions(storage);
  descriptions.remember(storage.images.listBySession(sessionId));
  const pinned = storage.pins.pinnedIds(sessionId);
  const zoneInput: ZoneInput = {
    storage,
    descriptions,
    activeTurn,
    turns,
    records: stripInjected(storage.messages.listBySession(sessionId)),
    pinned,
  };
  let planned: PlannedMessage[];
  if (input.policy.kind === 'sightline') {
    planned = planSightline(zoneInput, input.earlierTurns).messages;
    if (running !== undefined) {
      const activeMessages = zoneInput.records.filter((record) => record.turnId === running.id).map((record) => record.message);
      const view = loadTurnView(storage, descriptions, running, activeMessages);
      planned = planActiveZone(planned, { shape: input.shape, anchors: view.anchors, pinned, descriptions });
    }
  } else if (input.policy.kind === 'keep-last') {
    // What keep-last leaves out is not sent at all: folded, as far as the timeline is concerned.
    const all = planKeepAll(zoneInput);
    const left = new Map([...treatmentsOf(all).keys()].map((imageId) => [imageId, 'folded' as const]));
    return new Map([...left, ...treatmentsOf(keepLastImages(all, input.policy.images))]);
  } else {
    planned = planKeepAll(zoneInput);
  }
  return treatmentsOf(planned);
}

const RANK: Record<NextRequestTreatment, number> = { folded: 0, reduced: 1, whole: 2 };

function treatmentsOf(planned: readonly PlannedMessage[]): Map<string, NextRequestTreatment> {
  const treatments = new Map<string, NextRequestTreatment>();
  const note = (imageId: string, treatment: NextRequestTreatment) => {
    const known = treatments.get(imageId);
    if (known === undefined || RANK[treatment] > RANK[known]) treatments.set(imageId, treatment);
  };
  for (const { message } of planned) {
    for (const part of message.parts) {
      if (part.type === 'image' && part.imageId !== undefined) note(part.imageId, part.resolution === 'reduced' ? 'reduced' : 'whole');
      else if (part.type === 'text') {
        // A placeholder, or an older turn's line of them: every image it names is folded.
        for (const folded of imageIdsIn(part.text)) note(folded, 'folded');
      }
    }
  }
  return treatments;
}
