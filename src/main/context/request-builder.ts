/**
 * The request for the next model call, rendered from the database: Sightline's temporal context memory.
 *
 *   rows → zones (earlier turns folded, anchors whole for the most recent ones, pinned frames whole)
 *        → active zone (the present screen whole, the ones before it reduced, older ones folded in chunks)
 *        → history pictures (user pictures of earlier turns named by hash)
 *        → ephemeral context (appended to the latest user message, never stored)
 *        → token budget (fold the active turn's oldest images, then shrink the oldest turns to one line,
 *          then fold pinned frames)
 *        → pixels (each stored image read, encoded at the model's size, preceded by its id token)
 *
 * Every stage is a pure function of the rows, so the same rows always give the same bytes; and the
 * history part changes only when a turn ends (or the budget forces a fold), so within a turn each request
 * extends the previous one and their common prefix is byte-identical (prompt caches hold), apart from the
 * running turn's last screen, which the next request shows reduced, and a chunk of its older screens, which
 * fold together every few steps (active-zone.ts).
 *
 * That is also what lets the loop pass a TurnRequestCache: earlier turns are read and planned once per
 * turn, and each step reads only the running turn's new rows, so build time follows the turn, not the
 * session. The budget, the ephemeral context and the token report are still worked out per request.
 */
import { DEFAULT_CONFIG, type Config } from '../../shared/config.js';
import type { ContextPolicy } from '../../shared/context-policy.js';
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { TokenReport } from '../../shared/events.js';
import { systemText, type Message } from '../../shared/messages.js';
import { shownScreenshot, type ShownScreenshot } from '../../shared/model-view.js';
import { estimateImageTokens } from '../llm/image-token-estimates.js';
import type { CacheBoundaries, ModelRequest } from '../llm/model-adapter.js';
import type { ModelProfile } from '../llm/model-profiles.js';
import type { Storage } from '../storage/index.js';
import { earlierTurnsShape } from './earlier-turns-shape.js';
import { EncodedImageCache } from './encoded-image-cache.js';
import { injectEphemeral, type InjectionDebugLog } from './ephemeral-injection.js';
import { renderHistory, type SentImage } from './history-rendering.js';
import { GET_HISTORY_IMAGE_TOOL_NAME } from '../../shared/images.js';
import { answerUnansweredToolCalls, countImages, TokenEstimator, type MessageCostMemo, type PlannedMessage } from './planned-messages.js';
import { enforceBudget } from './token-budget.js';
import { estimateMessageTextTokens } from './token-estimates.js';
import { planSessionRows } from './session-rows.js';
import { loadTurnView } from './turn-folding.js';
import type { TurnRequestCache } from './turn-request-cache.js';
import { keepLastImages } from './zone-rendering.js';
import { activeZoneShape } from './active-zone-shape.js';
import { planActiveZone } from './active-zone.js';
import { imageSizingKey } from './model-image-size.js';
import { ShownImages } from './shown-images.js';

import { reducedEdge } from './image-reference.js';

export type ContextSettings = Config['context'];

/**
 * How history is rendered (config.context.policy, parsed). Sightline's own is the default; keep-all sends
 * every image whole in every turn (compacted ones read back from cold storage), keep-last sends only the N
 * most recent images of the whole request and drops the rest. Neither applies the budget.
 */
export type { ContextPolicy };

export interface BuildRequestInput {
  storage: Storage;
  sessionId: string;
  /** The turn the request is for; it must belong to the session. */
  turnId: string;
  profile: ModelProfile;
  /**
   * Longest edge of an image as sent (the smaller of the profile's and the configured limit); the profile's
   * image sizing then applies (a smart resize for models that name points in pixels of their own resize).
   */
  maxImageEdge: number;
  /** Rendered first; keep it the same throughout a turn, or the prompt cache breaks. */
  systemPrompt: string;
  /** Reuse one per turn so earlier screenshots are not re-encoded at every step. */
  imageCache?: EncodedImageCache;
  /**
   * Reuse one per turn so earlier turns are not read and planned again at every step (the build then
   * grows with the running turn, not the session). Without one, the whole session is read: same bytes.
   */
  turnCache?: TurnRequestCache;
  /** Context for this request only, appended to the latest user message (never stored). */
  ephemeral?: readonly EphemeralContext[];
  /** Where injection logs its lengths when debugged (SIGHTLINE_DEBUG_INJECTION=1). */
  injectionDebugLog?: InjectionDebugLog;
  /** config.context: anchor turns and the token budget. Defaults when absent. */
  context?: ContextSettings;
  policy?: ContextPolicy;
}

export interface BuiltRequest {
  /** Messages only; the caller adds tools and options. */
  request: ModelRequest & { messages: Message[] };
  tokenReport: TokenReport;
  /** The budget the request was held to (comparison policies are measured against it, not held to it). */
  budgetTokens: number;
  /**
   * The last screenshot in the request and how it was shown: what the model's coordinates in its reply
   * refer to. The loop hands it to each call of that reply; undefined when the request shows no screen.
   */
  shown: ShownScreenshot | undefined;
  /** How each image of the request was shown (and how any other would be): what crop boxes in the reply are in. */
  shownImages: ShownImages;

  /**
   * Encodes, while the model thinks, what the next request will need that this one did not: the present
   * screen's reduced view, which the next request shows once the action brings a new screen. Without it that
   * copy (a decode, a resize and an encode of a full frame) is made on the next step's path. Does nothing
   * without a turn's image cache or outside Sightline's zones. Never rejects: a failure meets the next build,
   * which reports it as it would have anyway.
   */
  prepareNextRequest: () => Promise<void>;
}

export async function buildRequest(input: BuildRequestInput): Promise<BuiltRequest> {
  const { storage } = input;
  const turn = storage.turns.get(input.turnId);
  if (turn === undefined || turn.sessionId !== input.sessionId) {
    throw new Error(`Turn ${input.turnId} does not belong to session ${input.sessionId}.`);
  }
  const settings = input.context ?? DEFAULT_CONFIG.context;
  const policy = input.policy ?? { kind: 'sightline' };
  const earlierTurns = earlierTurnsShape(input.profile.pricing, settings.anchorTurns);
  // Pins are rows like any other: read once per request, so the request stays a pure function of the rows.
  const pinned = storage.pins.pinnedIds(input.sessionId);
  const planInput = { storage, turn, earlierTurns, withSightline: policy.kind === 'sightline', pinned };
  const { rows, descriptions } = await (input.turnCache?.plan(planInput) ?? planSessionRows(planInput));
  const { imageSizing } = input.profile;
  const shape = activeZoneShape(input.profile, input.maxImageEdge);
  const costKind = `${input.maxImageEdge}/${imageSizingKey(imageSizing)}/${shape.reducedImageEdge}:${JSON.stringify(input.profile.imageTokens)}`;
  const estimator = new TokenEstimator(
    input.profile.imageTokens,
    input.maxImageEdge,
    descriptions,
    input.turnCache?.messageCosts(`planned:${costKind}`),
    imageSizing,
    shape.reducedImageEdge,
  );
  const system: PlannedMessage = { zone: 'system', turnId: null, message: systemText(input.systemPrompt) };
  const complete = (messages: readonly PlannedMessage[], debugLog?: InjectionDebugLog) =>
    withEphemeral([system, ...answerUnansweredToolCalls(messages)], input.ephemeral ?? [], debugLog);

  const keepAll = complete(rows.keepAll);
  const budget = budgetOf(settings, input.profile);
  let planned: PlannedMessage[];
  if (rows.sightline !== undefined) {
    const activeTurn = loadTurnView(storage, descriptions, turn, rows.activeMessages);
    const zoned = planActiveZone(rows.sightline.messages, { shape, anchors: activeTurn.anchors, pinned, descriptions });
    planned = enforceBudget({
      messages: complete(zoned, input.injectionDebugLog),
      budgetTokens: budget.tokens,
      budgetSource: budget.source,
      estimator,
      descriptions,
      activeTurn,
      earlierTurns: rows.sightline.earlierTurns,
      pinned,
    }).messages;
  } else {
    const all = rows.keepAll;
    planned = complete(policy.kind === 'keep-last' ? keepLastImages(all, policy.images) : all, input.injectionDebugLog);
  }

  const imageCache = input.imageCache ?? new EncodedImageCache();
  const history = await renderHistory(
    planned.map((entry) => entry.message),
    {
      images: storage.images,
      cache: imageCache,
      maxImageEdge: input.maxImageEdge,
      imageSizing,
      reducedImageEdge: shape.reducedImageEdge,
      ...(input.turnCache === undefined ? {} : { memo: input.turnCache.renderedMessages(input.maxImageEdge, imageSizing, shape.reducedImageEdge) }),
    },
  );
  const sentTokens = sentTokensOf(history.messages, estimator, input.profile, input.turnCache?.messageCosts(`sent:${costKind}`));
  const lastScreenshot = history.images.filter(showsPresentScreen).at(-1);
  return {
    request: { messages: history.messages, cacheBoundaries: cacheBoundariesOf(planned, rows.sightline === undefined ? undefined : settings.anchorTurns) },
    tokenReport: {
      sentTokens,
      keepEverythingTokens: Math.max(sentTokens, estimator.total(keepAll)),
      imagesSent: history.messages.reduce((total, message) => total + message.parts.filter((part) => part.type === 'image').length, 0),
      imagesFolded: Math.max(0, countImages(keepAll) - countImages(planned)),
    },
    budgetTokens: budget.tokens,
    shown: lastScreenshot === undefined ? undefined : shownScreenshot(lastScreenshot.imageId, lastScreenshot, input.profile.coordinateSpace),
    shownImages: ShownImages.of(
      { maxImageEdge: input.maxImageEdge, imageSizing, coordinateSpace: input.profile.coordinateSpace },
      history.images.map((image) => shownScreenshot(image.imageId, image, input.profile.coordinateSpace)),
    ),

    prepareNextRequest: async () => {
      if (input.imageCache === undefined || rows.sightline === undefined || lastScreenshot === undefined || shape.keepsSentScreens === true) return;
      const edge = reducedEdge(input.maxImageEdge, shape.reducedImageEdge);
      await imageCache.resolve(storage.images, lastScreenshot.imageId, edge, imageSizing).catch(() => undefined);
    },
  };
}

/**
 * Where the stable history ends: the last message before the running turn (the system prompt when there are
 * no earlier turns) and, under Sightline's zones (`anchorTurns` given), the ends of the turns that compaction
 * will not change again, now and as the previous turn saw them; within the running turn, the end of its
 * folded chunks and the last message before the present screen (what the next request repeats as it is).
 * Rendering keeps the planned messages one for one, so the indexes hold in the request.
 */
export function cacheBoundariesOf(planned: readonly PlannedMessage[], anchorTurns?: number): CacheBoundaries {
  const firstActive = planned.findIndex((entry) => entry.zone === 'active');
  const earlierTurnsEnd = (firstActive === -1 ? planned.length : firstActive) - 1;
  if (earlierTurnsEnd < 0) return {};
  if (anchorTurns === undefined) return { earlierTurnsEnd };
  const runningTurn = runningTurnBoundaries(planned);
  const earlierTurnIds = [...new Set(planned.flatMap((entry) => (entry.zone === 'earlier' && entry.turnId !== null ? [entry.turnId] : [])))];
  // At a turn's end one turn joins the settled ones: the one that leaves the anchor turns.
  const settled = earlierTurnIds.slice(0, Math.max(0, earlierTurnIds.length - anchorTurns));
  const settledTurnsEnd = prefixEnd(planned, new Set(settled));
  const previouslySettledTurnsEnd = prefixEnd(planned, new Set(settled.slice(0, -1)));
  return {
    earlierTurnsEnd,
    ...(settledTurnsEnd === undefined ? {} : { settledTurnsEnd }),
    ...(previouslySettledTurnsEnd === undefined ? {} : { previouslySettledTurnsEnd }),
    ...runningTurn,
  };
}

/** The active zone's marks as indexes (active-zone.ts); a boundary before the first message is none. */
function runningTurnBoundaries(planned: readonly PlannedMessage[]): Pick<CacheBoundaries, 'foldedChunksEnd' | 'nextStepPrefixEnd'> {
  const foldedChunksEnd = planned.findIndex((entry) => entry.activeZoneMark === 'folded-chunks-end');
  const presentScreen = planned.findLastIndex((entry) => entry.activeZoneMark === 'present-screen');
  return {
    ...(foldedChunksEnd === -1 ? {} : { foldedChunksEnd }),
    ...(presentScreen <= 0 ? {} : { nextStepPrefixEnd: presentScreen - 1 }),
  };
}

/**
 * The last message of the request's leading run of messages from these turns (the system prompt and messages
 * without a turn count among them): a prefix only, since a message after another turn's would not stay put.
 * Undefined when no turn's message is in that run.
 */
function prefixEnd(planned: readonly PlannedMessage[], turnIds: ReadonlySet<string>): number | undefined {
  let end: number | undefined;
  for (const [index, entry] of planned.entries()) {
    if (entry.zone === 'system' || entry.zone === 'legacy') continue;
    if (entry.turnId === null || !turnIds.has(entry.turnId)) break;
    end = index;
  }
  return end;
}

/** Injection keeps the number and order of messages: it only appends parts to the latest user message. */
function withEphemeral(
  messages: readonly PlannedMessage[],
  contexts: readonly EphemeralContext[],
  debugLog: InjectionDebugLog | undefined,
): PlannedMessage[] {
  const injected = injectEphemeral(
    messages.map((planned) => planned.message),
    contexts,
    debugLog === undefined ? {} : { debugLog },
  );
  // Only the message that carries the context changes; the others stay the same objects (the turn's
  // caches know them by identity).
  return messages.map((planned, index) => {
    const message = injected[index] ?? planned.message;
    return message === planned.message ? planned : { ...planned, message };
  });
}

/** config.context.tokenBudget, else the model's context window less what the reply needs. */
function budgetOf(settings: ContextSettings, profile: ModelProfile): { tokens: number; source: string } {
  if (settings.tokenBudget !== undefined) return { tokens: settings.tokenBudget, source: 'context.tokenBudget' };
  return {
    tokens: Math.max(1, profile.contextWindow - settings.outputReserveTokens),
    source: `the ${profile.model} context window of ${profile.contextWindow} tokens less ${settings.outputReserveTokens} kept for the reply`,
  };
}

/** Text is an estimate (characters / 4); a stored image at the size it was encoded to; an inline one as the estimator counts it. */
function sentTokensOf(messages: readonly Message[], estimator: TokenEstimator, profile: ModelProfile, memo?: MessageCostMemo): number {
  let total = 0;
  for (const message of messages) {
    let cost = memo?.get(message);
    if (cost === undefined) {
      cost = sentTokensOfMessage(message, estimator, profile);
      memo?.set(message, cost);
    }
    total += cost;
  }
  return total;
}

function sentTokensOfMessage(message: Message, estimator: TokenEstimator, profile: ModelProfile): number {
  let total = estimateMessageTextTokens(message);
  for (const part of message.parts) {
    if (part.type !== 'image') continue;
    const stored = part.imageId !== undefined && part.width !== undefined && part.height !== undefined;
    // A reduced view's copy is already at its size; its detail is low where the formula has low detail.
    const detail = part.resolution === 'reduced' ? { detail: 'low' as const } : {};
    total += stored ? estimateImageTokens(profile.imageTokens, { width: part.width!, height: part.height!, ...detail }) : estimator.image(part);
  }
  return total;
}

/**
 * The screen as it is now is the latest screenshot the agent itself showed: in a turn's request or a
 * computer action's result, whichever dialect's computer tool made it (`computer`, Qwen's `computer_use` …).
 * A screenshot brought back by the recall tool (get_history_image) is the past: taking it as the present
 * would map the next click through the wrong view and record the wrong screen on the step.
 */
function showsPresentScreen(image: SentImage): boolean {
  const isScreenshot = image.source === 'screen' || image.source === 'browser';
  const carriedAsPresent = image.carrier.role === 'user' || (image.carrier.role === 'tool' && image.carrier.toolName !== GET_HISTORY_IMAGE_TOOL_NAME);
  return isScreenshot && carriedAsPresent;
}
