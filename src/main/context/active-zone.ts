/**
 * The running turn's screens at the resolution they are worth (ARCHITECTURE.md, "Zones"): the present screen
 * whole, the screens just before it and the turn's first one as reduced views, the older ones folded to
 * captioned placeholders in chunks of `foldChunk`, oldest first. Error frames and pinned frames stay whole.
 *
 * Chunks keep the request prefix still: as the turn grows, the screens that may fold only ever join the end
 * of the list, and a fold takes the oldest whole chunk of them, so the folded set grows a chunk at a time and
 * between two folds each request extends the previous one apart from its last screen (which becomes a reduced
 * view). A pure function of the messages, the turn's anchors and the shape: the same rows give the same bytes.
 *
 * For a model whose thinking is bound to the history before it (ActiveZoneShape.keepsSentScreens), every screen
 * stays whole instead: each request then extends the previous one exactly, which the last reply's thinking needs.
 *
 * Screens are the screenshots the agent showed (screen or browser images in the turn's messages). Images the
 * model asked for again (get_history_image results), crops and the user's pictures are left as they are.
 */
import { GET_HISTORY_IMAGE_TOOL_NAME } from '../../shared/images.js';
import type { Message, MessagePart } from '../../shared/messages.js';
import type { ActiveZoneShape } from './active-zone-shape.js';
import type { ImageDescriptions } from './image-descriptions.js';
import type { ActiveZoneMark, PlannedMessage } from './planned-messages.js';
import { isScreenshot, type AnchorReason } from './turn-anchors.js';
import { placeholderFor } from './turn-folding.js';

export type ScreenTreatment = 'full' | 'reduced' | 'folded';

export interface ActiveZoneInput {
  shape: ActiveZoneShape;
  /** The running turn's anchors (its first screenshot, its error frames). */
  anchors: ReadonlyMap<string, readonly AnchorReason[]>;
  /** Frames a person pinned (issue 16): whole wherever they first appear in the turn. */
  pinned?: ReadonlySet<string>;
  descriptions: ImageDescriptions;
}

/** One screen shown in the running turn: where it sits and how it goes. */
export interface ActiveScreen {
  messageIndex: number;
  partIndex: number;
  imageId: string;
  treatment: ScreenTreatment;
}

/** The planned messages with the running turn's screens at their resolution, and where the cache may rest. */
export function planActiveZone(messages: readonly PlannedMessage[], input: ActiveZoneInput): PlannedMessage[] {
  const screens = activeScreens(messages, input);
  if (screens.length === 0) return [...messages];
  const byMessage = new Map<number, ActiveScreen[]>();
  for (const screen of screens) byMessage.set(screen.messageIndex, [...(byMessage.get(screen.messageIndex) ?? []), screen]);
  const marks = cacheMarks(screens);
  return messages.map((planned, messageIndex) => {
    const mark = marks.get(messageIndex);
    const changed = (byMessage.get(messageIndex) ?? []).filter((screen) => screen.treatment !== 'full');
    if (changed.length === 0 && mark === undefined) return planned;
    if (changed.length === 0) return { ...planned, activeZoneMark: mark };
    const treatments = new Map(changed.map((screen) => [screen.partIndex, screen]));
    const parts = planned.message.parts.map((part, partIndex): MessagePart => {
      const screen = treatments.get(partIndex);
      if (screen === undefined || part.type !== 'image') return part;
      if (screen.treatment === 'reduced') return { ...part, resolution: 'reduced' };
      return { type: 'text', text: placeholderFor(screen.imageId, input.anchors.get(screen.imageId), input.descriptions) };
    });
    const message = { ...planned.message, parts } as Message;
    return mark === undefined ? { ...planned, message } : { ...planned, message, activeZoneMark: mark };
  });
}

/**
 * Every screen of the running turn in order, with its treatment. The last is the present screen (full); the
 * first copy of an error frame stays whole; the first screen and the `recentReducedViews` before the present
 * are reduced; the others fold, the oldest whole chunks of them.
 */
export function activeScreens(messages: readonly PlannedMessage[], input: ActiveZoneInput): ActiveScreen[] {
  const screens = screenPositions(messages, input.descriptions);
  // A bound model's last reply thinks over these screens as they were sent: changing one would cost it that thinking.
  if (input.shape.keepsSentScreens === true) return screens.map((position) => ({ ...position, treatment: 'full' }));
  const last = screens.length - 1;
  const recentFrom = last - input.shape.recentReducedViews;
  const wholeSeen = new Set<string>();
  const foldable: ActiveScreen[] = [];
  const planned = screens.map((position, index): ActiveScreen => {
    const pinned = input.pinned?.has(position.imageId) === true;
    const staysWhole = index === last || (staysWholeInTurn(input.anchors.get(position.imageId), pinned) && !wholeSeen.has(position.imageId));
    if (staysWhole) {
      wholeSeen.add(position.imageId);
      return { ...position, treatment: 'full' };
    }
    const screen: ActiveScreen = { ...position, treatment: 'reduced' };
    if (index > 0 && index < recentFrom) foldable.push(screen);
    return screen;
  });
  const folding = foldable.length - (foldable.length % input.shape.foldChunk);
  for (const screen of foldable.slice(0, folding)) screen.treatment = 'folded';
  return planned;
}

/**
 * Frames that never fold or shrink while their turn runs: error frames (the model should see what went wrong
 * as it was) and frames a person pinned (issue 16).
 */
function staysWholeInTurn(reasons: readonly AnchorReason[] | undefined, pinned: boolean): boolean {
  return pinned || reasons?.includes('error') === true;
}

function screenPositions(messages: readonly PlannedMessage[], descriptions: ImageDescriptions): Omit<ActiveScreen, 'treatment'>[] {
  const positions: Omit<ActiveScreen, 'treatment'>[] = [];
  messages.forEach((planned, messageIndex) => {
    const { message } = planned;
    if (planned.zone !== 'active' || (message.role === 'tool' && message.name === GET_HISTORY_IMAGE_TOOL_NAME)) return;
    message.parts.forEach((part, partIndex) => {
      if (part.type !== 'image' || part.imageId === undefined) return;
      const record = descriptions.record(part.imageId);
      if (record !== undefined && isScreenshot(record)) positions.push({ messageIndex, partIndex, imageId: part.imageId });
    });
  });
  return positions;
}

/**
 * Where the next requests of the turn may read a cached prefix from (request-builder.ts, cacheBoundariesOf):
 * the message before the present screen's (next time that screen is a reduced view), and the message before
 * the first screen a later fold may still change: the end of the folded chunks (before the first fold, of the
 * first screen's message), which the request that folds the next chunk repeats as it is.
 */
function cacheMarks(screens: readonly ActiveScreen[]): Map<number, ActiveZoneMark> {
  const marks = new Map<number, ActiveZoneMark>();
  const present = screens.at(-1)!;
  marks.set(present.messageIndex, 'present-screen');
  const firstChanging = screens.find((screen, index) => screen === present || (screen.treatment === 'reduced' && index > 0))!;
  const end = firstChanging.messageIndex - 1;
  if (end >= screens[0]!.messageIndex) marks.set(end, 'folded-chunks-end');
  return marks;
}
