/**
 * What the context section measures of one policy's requests over a scripted session: tokens (as the request
 * builder estimates them, for an OpenAI-style model), the images each request shows whole, how many of the
 * latest screens it shows at full detail and as reduced views, the prefix each request shares with earlier ones
 * (for the automatic cache), the same requests priced on Anthropic, and the share of earlier images the model
 * can still get back at the end.
 */
import type { ContextPolicy } from '../../src/shared/context-policy.js';
import type { ImagePart, Message } from '../../src/shared/messages.js';
import { imageIdsIn } from '../../src/main/context/captions.js';
import type { BuiltRequest } from '../../src/main/context/request-builder.js';
import type { Storage } from '../../src/main/storage/index.js';
import { AutomaticPromptCache, AutomaticPromptReader, type AutomaticCacheUse } from './automatic-prompt-cache.js';
import type { PricedPolicy } from './anthropic-priced-policy.js';
import type { PriceTable } from './price-tables.js';

export interface NamedPolicy {
  name: string;
  policy: ContextPolicy;
}

/** How many of the latest screens a request shows, newest first, without a gap. */
export interface LatestScreens {
  /** Of those, at full detail. */
  full: number;
  /** Of those, as reduced views. */
  reduced: number;
  newestAtFullDetail: boolean;
  /** Screens the session had taken when the request was built. */
  taken: number;
}

export interface PolicyFigures {
  name: string;
  policy: ContextPolicy;
  requests: number;
  inputTokens: number;
  earlierVisualTokens: number;
  largestRequest: number;
  overWindow: number;
  overBudget: number;
  imagesWhole: number;
  fewestImagesWhole: number;
  latest: LatestScreens[];
  buildMs: number[];
  automaticUses: AutomaticCacheUse[];
  anthropic: PricedPolicy;
  /** Whether each request was its turn's first. */
  firstOfTurn: boolean[];
  finalRequest: Message[];
  retrievableShare: number;
  /**
   * The price table the requests were built for, when the policy shapes them by price (Sightline's active zone
   * does: reduced views and chunk sizes follow the cache discount); such figures are priced under that table only.
   */
  builtFor?: PriceTable;
}

export function newFigures(named: NamedPolicy, anthropic: PricedPolicy, builtFor?: PriceTable): PolicyFigures {
  return {
    ...(builtFor === undefined ? {} : { builtFor }),
    firstOfTurn: [],
    name: named.name,
    policy: named.policy,
    requests: 0,
    inputTokens: 0,
    earlierVisualTokens: 0,
    largestRequest: 0,
    overWindow: 0,
    overBudget: 0,
    imagesWhole: 0,
    fewestImagesWhole: Number.POSITIVE_INFINITY,
    latest: [],
    buildMs: [],
    automaticUses: [],
    anthropic,
    finalRequest: [],
    retrievableShare: 0,
  };
}

/**
 * Whether an image part is a reduced view of its screen rather than the screen at full detail: marked so by the
 * request builder (`resolution: 'reduced'`, sent at low detail or as a downscaled copy), or sent smaller than the
 * full-detail rendering of that screenshot. The one place the bench decides it; every count below follows.
 */
export function isReducedView(part: ImagePart, fullDetail: { width: number; height: number }): boolean {
  if (part.resolution === 'reduced') return true;
  return part.width !== undefined && part.height !== undefined && (part.width < fullDetail.width || part.height < fullDetail.height);
}

/** Counts the latest screens a request shows, walking back from the newest until one is not shown at all. */
export function latestScreensShown(messages: readonly Message[], screens: readonly string[], fullDetail: { width: number; height: number }): LatestScreens {
  const shown = new Map<string, 'full' | 'reduced'>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'image' || part.data === undefined || part.imageId === undefined) continue;
      // A screen shown twice (recalled, say) counts at its best rendering.
      if (shown.get(part.imageId) !== 'full') shown.set(part.imageId, isReducedView(part, fullDetail) ? 'reduced' : 'full');
    }
  }
  const latest: LatestScreens = { full: 0, reduced: 0, newestAtFullDetail: shown.get(screens.at(-1) ?? '') === 'full', taken: screens.length };
  for (let index = screens.length - 1; index >= 0; index -= 1) {
    const rendering = shown.get(screens[index]!);
    if (rendering === undefined) break;
    latest[rendering] += 1;
  }
  return latest;
}

/** Whether a request meets the aim: the newest screen at full detail, and the `wanted` latest (or all taken, if fewer) shown at least reduced. */
export function showsLatestScreens(latest: LatestScreens, wanted: number): boolean {
  return latest.newestAtFullDetail && latest.full + latest.reduced >= Math.min(wanted, latest.taken);
}

export interface RequestContext {
  turnNumber: number;
  /** Each screenshot's turn, in the order they were taken. */
  imageTurns: ReadonlyMap<string, number>;
  screens: readonly string[];
  contextWindow: number;
  fullDetail: { width: number; height: number };
  imageTokens: ImageTokenCount;
}

/** What an image part costs as sent: its size, and whether it goes as a reduced view (OpenAI's low detail). */
export type ImageTokenCount = (width: number, height: number, reduced: boolean) => number;

/** Adds one built request (OpenAI-style profile) to a policy's figures, and sends it to the policy's automatic cache. */
export class FiguresRecorder {
  private readonly caches = new Map<PolicyFigures, AutomaticPromptCache>();
  private readonly reader: AutomaticPromptReader;

  constructor(imageTokens: ImageTokenCount) {
    this.reader = new AutomaticPromptReader(imageTokens);
  }

  /** Lets the images' strings go (at a turn's end, when the image cache does). */
  forgetImages(): void {
    this.reader.forgetImages();
  }

  record(figures: PolicyFigures, built: BuiltRequest, buildMs: number, context: RequestContext): void {
    const { messages } = built.request;
    const sentTokens = built.tokenReport.sentTokens;
    let cache = this.caches.get(figures);
    if (cache === undefined) {
      cache = new AutomaticPromptCache();
      this.caches.set(figures, cache);
    }
    figures.automaticUses.push(cache.send(this.reader.read(messages)));
    let whole = 0;
    for (const message of messages) {
      for (const part of message.parts) {
        if (part.type !== 'image' || part.data === undefined) continue;
        whole += 1;
        const turn = part.imageId === undefined ? undefined : context.imageTurns.get(part.imageId);
        if (turn !== undefined && turn !== context.turnNumber) figures.earlierVisualTokens += context.imageTokens(part.width ?? 0, part.height ?? 0, part.resolution === 'reduced');
      }
    }
    figures.requests += 1;
    figures.inputTokens += sentTokens;
    figures.largestRequest = Math.max(figures.largestRequest, sentTokens);
    if (sentTokens > context.contextWindow) figures.overWindow += 1;
    if (sentTokens > built.budgetTokens) figures.overBudget += 1;
    figures.imagesWhole += whole;
    figures.fewestImagesWhole = Math.min(figures.fewestImagesWhole, whole);
    figures.latest.push(latestScreensShown(messages, context.screens, context.fullDetail));
    figures.buildMs.push(buildMs);
    figures.finalRequest = messages;
  }
}

/**
 * Earlier turns' images the model can still get back from the final request: shown whole, or named (by a
 * placeholder or an id token) and readable from storage. A window drops an image with its id, so what it
 * dropped is gone.
 */
export async function retrievableShare(storage: Storage, figures: PolicyFigures, imageTurns: ReadonlyMap<string, number>, sessionId: string, lastTurn: number): Promise<number> {
  const earlier = storage.images.listBySession(sessionId).filter((image) => (imageTurns.get(image.id) ?? lastTurn) < lastTurn);
  const named = new Set<string>();
  for (const message of figures.finalRequest) {
    for (const part of message.parts) {
      if (part.type === 'image' && part.imageId !== undefined) named.add(part.imageId);
      if (part.type === 'text') for (const imageId of imageIdsIn(part.text)) named.add(imageId);
    }
  }
  let retrievable = 0;
  for (const image of earlier) {
    if (!named.has(image.id)) continue;
    if ((await storage.images.retrieve(image.id)).status === 'ok') retrievable += 1;
  }
  return earlier.length === 0 ? 1 : retrievable / earlier.length;
}
