/**
 * The request for the next model call, rendered from the database: the system prompt, then every message
 * of the session in order, with stored image ids resolved to pixels at the model's size.
 *
 * This is the plain builder: everything is sent whole. Compaction (placeholders for folded images, anchor
 * frames, a token budget) belongs on top of it: it changes which rows and parts reach `renderHistory`,
 * not how they are rendered, and it changes them only at a turn boundary, so that within a turn each
 * request extends the previous one and their common prefix is byte-identical.
 */
import type { EphemeralContext } from '../../shared/ephemeral.js';
import type { TokenReport } from '../../shared/events.js';
import { systemText, type Message } from '../../shared/messages.js';
import { estimateImageTokens } from '../llm/image-token-estimates.js';
import type { ModelRequest } from '../llm/model-adapter.js';
import type { ModelProfile } from '../llm/model-profiles.js';
import type { ModelView } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { EncodedImageCache, type EncodedImage } from './encoded-image-cache.js';
import { injectEphemeral, stripInjectedFromMessages, type InjectionDebugLog } from './ephemeral-injection.js';
import { renderHistory } from './history-rendering.js';
import { estimateMessageTextTokens } from './token-estimates.js';

export interface BuildRequestInput {
  storage: Storage;
  sessionId: string;
  /** The turn the request is for; it must belong to the session. */
  turnId: string;
  profile: ModelProfile;
  /** Longest edge of an image as sent (the smaller of the profile's and the configured limit). */
  maxImageEdge: number;
  /** Rendered first; keep it the same throughout a turn, or the prompt cache breaks. */
  systemPrompt: string;
  /** Reuse one per turn so earlier screenshots are not re-encoded at every step. */
  imageCache?: EncodedImageCache;
  /** Context for this request only, appended to the latest user message (never stored). */
  ephemeral?: readonly EphemeralContext[];
  /** Where injection logs its lengths when debugged (SIGHTLINE_DEBUG_INJECTION=1). */
  injectionDebugLog?: InjectionDebugLog;
}

export interface BuiltRequest {
  /** Messages only; the caller adds tools and options. */
  request: ModelRequest & { messages: Message[] };
  tokenReport: TokenReport;
  /** How the last screenshot in the request relates to its frame: what the model's coordinates refer to. */
  lastView: ModelView | undefined;
  /** The id of that screenshot. */
  lastScreenshotId: string | undefined;
}

export async function buildRequest(input: BuildRequestInput): Promise<BuiltRequest> {
  const turn = input.storage.turns.get(input.turnId);
  if (turn === undefined || turn.sessionId !== input.sessionId) {
    throw new Error(`Turn ${input.turnId} does not belong to session ${input.sessionId}.`);
  }
  const records = input.storage.messages.listBySession(input.sessionId);
  const history = await renderHistory(records, {
    images: input.storage.images,
    cache: input.imageCache ?? new EncodedImageCache(),
    maxImageEdge: input.maxImageEdge,
  });
  // Older data may hold injected blocks; they are cut out before this request's own are appended.
  const messages: Message[] = injectEphemeral(
    [systemText(input.systemPrompt), ...stripInjectedFromMessages(history.messages)],
    input.ephemeral ?? [],
    input.injectionDebugLog === undefined ? {} : { debugLog: input.injectionDebugLog },
  );
  const lastScreenshot = history.images.filter(isScreenshot).at(-1);
  return {
    request: { messages },
    tokenReport: tokenReportFor(messages, history.images, input.profile),
    lastView: lastScreenshot === undefined ? undefined : viewOf(lastScreenshot, input.profile),
    lastScreenshotId: lastScreenshot?.imageId,
  };
}

function isScreenshot(image: EncodedImage): boolean {
  return image.source === 'screen' || image.source === 'browser';
}

function viewOf(image: EncodedImage, profile: ModelProfile): ModelView {
  return {
    frameWidth: image.frameWidth,
    frameHeight: image.frameHeight,
    imageWidth: image.width,
    imageHeight: image.height,
    coordinateSpace: profile.coordinateSpace,
  };
}

/** Text is an estimate (characters / 4); images follow the profile's formula. Nothing is folded yet. */
function tokenReportFor(messages: readonly Message[], images: readonly EncodedImage[], profile: ModelProfile): TokenReport {
  const textTokens = messages.reduce((total, message) => total + estimateMessageTextTokens(message), 0);
  const imageTokens = images.reduce(
    (total, image) => total + estimateImageTokens(profile.imageTokens, { width: image.width, height: image.height }),
    0,
  );
  const sentTokens = textTokens + imageTokens;
  return { sentTokens, keepEverythingTokens: sentTokens, imagesSent: images.length, imagesFolded: 0 };
}
