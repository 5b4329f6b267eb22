/**
 * A request never exceeds its token budget. Over it, the builder gives up context in this order, each
 * step only as far as needed:
 *   1. the oldest images of the active turn become captioned placeholders, except its anchors (the first
 *      screenshot, error frames), frames a person pinned, the last three screenshots, and anything in the
 *      user's request;
 *   2. the oldest earlier turns shrink to one line each (request, status, outcome), their anchors with
 *      them; a pinned frame of such a turn stays, after the line;
 *   3. pinned frames become captioned placeholders, the oldest first: a person asked for them, so they
 *      go last (issue 16);
 * and if that is still too much, the request is not sent: a ContextBudgetError says by how much.
 *
 * The order is deterministic and each fold only adds to the previous ones as the turn grows, so a budget
 * fold breaks the prompt cache once, at the step that needed it.
 */
import type { Message, MessagePart } from '../../shared/messages.js';
import type { ImageDescriptions } from './image-descriptions.js';
import type { PlannedMessage, TokenEstimator } from './planned-messages.js';
import { isScreenshot } from './turn-anchors.js';
import { placeholderFor, type TurnView } from './turn-folding.js';
import { turnOutcomeText, turnSummaryLine } from './turn-summary.js';

/** Screenshots of the active turn that always stay whole, newest first. */
export const ALWAYS_WHOLE_RECENT_SCREENSHOTS = 3;

/** Even with everything folded that may be folded, the request would exceed its budget. */
export class ContextBudgetError extends Error {
  override name = 'ContextBudgetError';
  constructor(
    readonly neededTokens: number,
    readonly budgetTokens: number,
    budgetSource: string,
  ) {
    super(
      `The request needs about ${neededTokens} tokens even with every foldable image of this turn folded and every ` +
        `earlier turn reduced to one line, but the budget is ${budgetTokens} tokens (${budgetSource}). ` +
        'Shorten the request or its attached context, start a new session, or raise context.tokenBudget.',
    );
  }
}

export interface BudgetInput {
  messages: readonly PlannedMessage[];
  budgetTokens: number;
  /** Where the budget comes from, for the error message. */
  budgetSource: string;
  estimator: TokenEstimator;
  descriptions: ImageDescriptions;
  activeTurn: TurnView;
  /** Oldest first. */
  earlierTurns: readonly TurnView[];
  /** The session's pinned frames; none when absent. */
  pinned?: ReadonlySet<string>;
}

export interface BudgetOutcome {
  messages: PlannedMessage[];
  tokens: number;
  /** Images of the active turn folded to fit. */
  imagesFolded: number;
  /** Earlier turns reduced to one line. */
  turnsSummarized: number;
  /** Pinned frames folded to fit, after everything else. */
  pinnedFolded: number;
}

export function enforceBudget(input: BudgetInput): BudgetOutcome {
  const messages = [...input.messages];
  const costs = messages.map((planned) => input.estimator.message(planned.message));
  let tokens = costs.reduce((total, cost) => total + cost, 0);
  const outcome = (imagesFolded: number, turnsSummarized: number, pinnedFolded = 0): BudgetOutcome => ({
    messages,
    tokens,
    imagesFolded,
    turnsSummarized,
    pinnedFolded,
  });
  if (tokens <= input.budgetTokens) return outcome(0, 0);

  const fold = (candidate: ImagePosition) => {
    const planned = messages[candidate.messageIndex]!;
    const parts = planned.message.parts.map((part, index): MessagePart =>
      index === candidate.partIndex
        ? { type: 'text', text: placeholderFor(candidate.imageId, input.activeTurn.anchors.get(candidate.imageId), input.descriptions) }
        : part,
    );
    const message = { ...planned.message, parts } as Message;
    messages[candidate.messageIndex] = { ...planned, message };
    const cost = input.estimator.message(message);
    tokens += cost - costs[candidate.messageIndex]!;
    costs[candidate.messageIndex] = cost;
  };

  let imagesFolded = 0;
  for (const candidate of foldableActiveImages(messages, input)) {
    fold(candidate);
    imagesFolded += 1;
    if (tokens <= input.budgetTokens) return outcome(imagesFolded, 0);
  }

  let turnsSummarized = 0;
  for (const view of input.earlierTurns) {
    const indexes = messages.flatMap((planned, index) => (planned.zone === 'earlier' && planned.turnId === view.turn.id ? [index] : []));
    const first = indexes[0];
    if (first === undefined) continue;
    const line = turnSummaryLine(view.turn, view.turn.summary ?? turnOutcomeText(view.content.messages));
    const pinnedParts = pinnedImagesOf(indexes.map((index) => messages[index]!), input.pinned);
    const summary: PlannedMessage = {
      zone: 'earlier',
      turnId: view.turn.id,
      message: { role: 'user', parts: [{ type: 'text', text: line }, ...pinnedParts] },
    };
    const summaryCost = input.estimator.message(summary.message);
    tokens += summaryCost - indexes.reduce((total, index) => total + costs[index]!, 0);
    // Remove from the end so the earlier indexes stay valid, then put the line where the turn began.
    for (const index of [...indexes].reverse()) {
      messages.splice(index, 1);
      costs.splice(index, 1);
    }
    messages.splice(first, 0, summary);
    costs.splice(first, 0, summaryCost);
    turnsSummarized += 1;
    if (tokens <= input.budgetTokens) return outcome(imagesFolded, turnsSummarized);
  }

  let pinnedFolded = 0;
  for (const candidate of pinnedImages(messages, input.pinned)) {
    fold(candidate);
    pinnedFolded += 1;
    if (tokens <= input.budgetTokens) return outcome(imagesFolded, turnsSummarized, pinnedFolded);
  }
  throw new ContextBudgetError(tokens, input.budgetTokens, input.budgetSource);
}

/** The whole pinned frames among a turn's messages, each once, in order: what its one-line summary keeps. */
function pinnedImagesOf(turnMessages: readonly PlannedMessage[], pinned: ReadonlySet<string> | undefined): MessagePart[] {
  if (pinned === undefined || pinned.size === 0) return [];
  const kept = new Set<string>();
  for (const planned of turnMessages) {
    for (const part of planned.message.parts) {
      if (part.type === 'image' && part.imageId !== undefined && pinned.has(part.imageId)) kept.add(part.imageId);
    }
  }
  return [...kept].map((imageId): MessagePart => ({ type: 'image', imageId }));
}

/** Every whole image of a pinned frame in the request, oldest first, outside the user's request of the running turn. */
function pinnedImages(messages: readonly PlannedMessage[], pinned: ReadonlySet<string> | undefined): ImagePosition[] {
  if (pinned === undefined || pinned.size === 0) return [];
  const requestIndex = messages.findIndex((planned) => planned.zone === 'active' && planned.message.role === 'user');
  const positions: ImagePosition[] = [];
  messages.forEach((planned, messageIndex) => {
    if (messageIndex === requestIndex) return;
    planned.message.parts.forEach((part, partIndex) => {
      if (part.type === 'image' && part.imageId !== undefined && pinned.has(part.imageId)) positions.push({ messageIndex, partIndex, imageId: part.imageId });
    });
  });
  return positions;
}

interface ImagePosition {
  messageIndex: number;
  partIndex: number;
  imageId: string;
}

/** Images of the active turn that may fold, oldest first. */
function foldableActiveImages(messages: readonly PlannedMessage[], input: BudgetInput): ImagePosition[] {
  const positions: ImagePosition[] = [];
  const requestIndex = messages.findIndex((planned) => planned.zone === 'active' && planned.message.role === 'user');
  messages.forEach((planned, messageIndex) => {
    if (planned.zone !== 'active' || messageIndex === requestIndex) return;
    planned.message.parts.forEach((part, partIndex) => {
      if (part.type === 'image' && part.imageId !== undefined) positions.push({ messageIndex, partIndex, imageId: part.imageId });
    });
  });
  const screenshots = positions.filter((position) => {
    const record = input.descriptions.record(position.imageId);
    return record !== undefined && isScreenshot(record);
  });
  const lastScreenshots = new Set(screenshots.slice(-ALWAYS_WHOLE_RECENT_SCREENSHOTS));
  // An anchor (or a pinned frame) stays whole where it first appears; where a result shows it again (a
  // computer call's output that must hold the unchanged screen), that copy folds like any other image.
  const request = messages[requestIndex]?.message.parts ?? [];
  const anchorsSeen = new Set(request.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : [])));
  return positions.filter((position) => {
    const reasons = input.activeTurn.anchors.get(position.imageId);
    const pinned = input.pinned?.has(position.imageId) === true;
    const isAnchor = pinned || reasons?.includes('first') === true || reasons?.includes('error') === true;
    const firstCopy = isAnchor && !anchorsSeen.has(position.imageId);
    if (isAnchor) anchorsSeen.add(position.imageId);
    return !lastScreenshots.has(position) && !firstCopy;
  });
}
