/**
 * Context engineering: one scripted session of 50 turns × 10 model calls (1280×800 screenshots, stored as
 * the agent stores them) rendered through the real request builder and token estimator under five
 * policies in the same run:
 *   keep everything; keep the last 5 images (UI-TARS desktop); the last 3 (Anthropic's computer-use
 *   demo); the last 1 (Midscene); and Sightline (zones, placeholders, compaction at each turn end).
 * The four comparison policies read one home that is never compacted; Sightline runs on its own home,
 * where the real compactTurn runs when each turn ends.
 *
 * Per policy: total input tokens, visual tokens of earlier turns' images, a cache-adjusted cost (the part
 * of a request that repeats the previous request as a byte-identical prefix of whole messages counts at
 * 10%, as prompt caches bill it, the rest at 100%), the largest request against the 128k context window,
 * the images each request shows whole, and the share of earlier images the model can still get back at
 * the end (shown whole, or named by a placeholder and readable from storage). Then timings: compaction
 * per turn, cold read + rehydrate, request build, and memory as the session grows.
 */
import { createHash } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_CONFIG } from '../src/shared/config.js';
import type { Message } from '../src/shared/messages.js';
import { compactTurn } from '../src/main/context/compact-turn.js';
import { EncodedImageCache } from '../src/main/context/encoded-image-cache.js';
import { effectiveMaxImageEdge } from '../src/main/context/model-image-size.js';
import type { ContextPolicy } from '../src/main/context/request-builder.js';
import { estimateMessageTextTokens } from '../src/main/context/token-estimates.js';
import { estimateImageTokens } from '../src/main/llm/image-token-estimates.js';
import { resolveModelProfile } from '../src/main/llm/model-profiles.js';
import { decodeImageBytes } from '../src/main/perception/image-encoding.js';
import type { Storage } from '../src/main/storage/index.js';
import { formatMs, markdownTable, median, percent, percentile, thousands, type BenchSection } from './harness.js';
import {
  CALLS_PER_TURN,
  CONTEXT,
  HEIGHT,
  makeScreenshots,
  playSession,
  sessionRequest,
  temporaryStorage,
  TURNS,
  WIDTH,
} from './support/scripted-session.js';

/** A 128k-window model with OpenAI's tile formula (gpt-4o). */
const PROFILE = resolveModelProfile('gpt-4o');
const MAX_IMAGE_EDGE = effectiveMaxImageEdge(PROFILE.maxImageEdge, DEFAULT_CONFIG.perception.maxImageEdge);
const CACHED_TOKEN_PRICE = 0.1;

interface NamedPolicy {
  name: string;
  policy: ContextPolicy;
}

const COMPARISONS: NamedPolicy[] = [
  { name: 'keep everything', policy: { kind: 'keep-all' } },
  { name: 'keep last 5 (UI-TARS desktop)', policy: { kind: 'keep-last', images: 5 } },
  { name: 'keep last 3 (Anthropic demo)', policy: { kind: 'keep-last', images: 3 } },
  { name: 'keep last 1 (Midscene)', policy: { kind: 'keep-last', images: 1 } },
];
const SIGHTLINE: NamedPolicy = { name: 'Sightline', policy: { kind: 'sightline' } };

// ---------------------------------------------------------------------------------------------------
// Measuring requests

interface PolicyTotals {
  name: string;
  requests: number;
  inputTokens: number;
  earlierVisualTokens: number;
  cacheAdjustedTokens: number;
  largestRequest: number;
  overWindow: number;
  overBudget: number;
  imagesWhole: number;
  fewestImagesWhole: number;
  buildMs: number[];
  /** Per-message digests of the previous request, to find the shared prefix. */
  previousDigests: string[];
  finalRequest: Message[];
  retrievableShare: number;
}

function newTotals(name: string): PolicyTotals {
  return {
    name,
    requests: 0,
    inputTokens: 0,
    earlierVisualTokens: 0,
    cacheAdjustedTokens: 0,
    largestRequest: 0,
    overWindow: 0,
    overBudget: 0,
    imagesWhole: 0,
    fewestImagesWhole: Number.POSITIVE_INFINITY,
    buildMs: [],
    previousDigests: [],
    finalRequest: [],
    retrievableShare: 0,
  };
}

/**
 * A message's digest: sha256 of its serialization, in which each image's base64 stands as the digest of
 * that base64 (memoized per string: the encoded-image cache hands out the same string each time, so 50 MB
 * requests are never hashed byte by byte, yet two messages match only when every byte would).
 */
const dataDigests = new Map<string, string>();
function messageDigest(message: Message): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ ...message, parts: undefined }));
  for (const part of message.parts) {
    if (part.type === 'image' && part.data !== undefined) {
      let digest = dataDigests.get(part.data);
      if (digest === undefined) {
        digest = createHash('sha256').update(part.data).digest('hex');
        dataDigests.set(part.data, digest);
      }
      hash.update(JSON.stringify({ ...part, data: digest }));
    } else {
      hash.update(JSON.stringify(part));
    }
  }
  return hash.digest('hex');
}

function imageTokens(width: number, height: number): number {
  return estimateImageTokens(PROFILE.imageTokens, { width, height });
}

/** The estimator the builder uses: text at four characters a token, each image by the profile's formula. */
function messageTokens(message: Message): number {
  let total = estimateMessageTextTokens(message);
  for (const part of message.parts) {
    if (part.type === 'image' && part.data !== undefined && part.width !== undefined && part.height !== undefined) {
      total += imageTokens(part.width, part.height);
    }
  }
  return total;
}

function recordRequest(
  totals: PolicyTotals,
  messages: Message[],
  sentTokens: number,
  budgetTokens: number,
  turnNumber: number,
  imageTurns: ReadonlyMap<string, number>,
): void {
  const digests = messages.map(messageDigest);
  let shared = 0;
  while (shared < digests.length && shared < totals.previousDigests.length && digests[shared] === totals.previousDigests[shared]) shared += 1;
  const tokensPerMessage = messages.map(messageTokens);
  const prefixTokens = tokensPerMessage.slice(0, shared).reduce((sum, tokens) => sum + tokens, 0);
  const requestTokens = tokensPerMessage.reduce((sum, tokens) => sum + tokens, 0);
  let whole = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'image' || part.data === undefined) continue;
      whole += 1;
      const turn = part.imageId === undefined ? undefined : imageTurns.get(part.imageId);
      if (turn !== undefined && turn !== turnNumber) totals.earlierVisualTokens += imageTokens(part.width ?? WIDTH, part.height ?? HEIGHT);
    }
  }
  totals.requests += 1;
  totals.inputTokens += sentTokens;
  totals.cacheAdjustedTokens += requestTokens - (1 - CACHED_TOKEN_PRICE) * prefixTokens;
  totals.largestRequest = Math.max(totals.largestRequest, sentTokens);
  if (sentTokens > PROFILE.contextWindow) totals.overWindow += 1;
  if (sentTokens > budgetTokens) totals.overBudget += 1;
  totals.imagesWhole += whole;
  totals.fewestImagesWhole = Math.min(totals.fewestImagesWhole, whole);
  totals.previousDigests = digests;
  totals.finalRequest = messages;
}

const PLACEHOLDER_ID = /\[Visual_Placeholder: (img_[0-9a-f]{12})\]/g;

/** Earlier turns' images the model can still get back from the final request: shown whole, or named and readable. */
async function retrievableShare(storage: Storage, totals: PolicyTotals, imageTurns: ReadonlyMap<string, number>, sessionId: string): Promise<number> {
  const earlier = storage.images.listBySession(sessionId).filter((image) => (imageTurns.get(image.id) ?? TURNS) < TURNS);
  const named = new Set<string>();
  for (const message of totals.finalRequest) {
    for (const part of message.parts) {
      if (part.type === 'image' && part.imageId !== undefined) named.add(part.imageId);
      if (part.type === 'text') for (const match of part.text.matchAll(PLACEHOLDER_ID)) named.add(match[1]!);
    }
  }
  let retrievable = 0;
  for (const image of earlier) {
    if (!named.has(image.id)) continue;
    if ((await storage.images.retrieve(image.id)).status === 'ok') retrievable += 1;
  }
  return earlier.length === 0 ? 1 : retrievable / earlier.length;
}

// ---------------------------------------------------------------------------------------------------
// The two passes

const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

interface SightlineRun {
  totals: PolicyTotals;
  compactionMs: number[];
  /** compactTurn's three stages: plan (captions, journal), file moves to cold storage, row updates. */
  compactionPlanMs: number[];
  compactionMoveMs: number[];
  compactionMarkMs: number[];
  heapAfterTurn: number[];
  rssAfterTurn: number[];
  coldReadMs: number[];
  coldDecodeMs: number[];
}

/** Builds the request a policy would send before this model call, and adds its figures to the totals. */
async function measureRequest(
  storage: Storage,
  turnId: string,
  request: { policy: ContextPolicy; cache: EncodedImageCache; totals: PolicyTotals; turnNumber: number; imageTurns: Map<string, number> },
): Promise<void> {
  const started = performance.now();
  const built = await sessionRequest(storage, turnId, { profile: PROFILE, policy: request.policy, imageCache: request.cache });
  request.totals.buildMs.push(performance.now() - started);
  recordRequest(request.totals, built.request.messages, built.tokenReport.sentTokens, built.budgetTokens, request.turnNumber, request.imageTurns);
}

async function runComparisons(screenshots: Buffer[][]): Promise<PolicyTotals[]> {
  const home = temporaryStorage('windows');
  const imageTurns = new Map<string, number>();
  const all = COMPARISONS.map((named) => newTotals(named.name));
  let cache = new EncodedImageCache();
  try {
    const sessionId = await playSession(home.storage, PROFILE.model, screenshots, imageTurns, {
      beforeModelCall: async (turnId, turnNumber) => {
        for (const [index, named] of COMPARISONS.entries()) {
          await measureRequest(home.storage, turnId, { policy: named.policy, cache, totals: all[index]!, turnNumber, imageTurns });
        }
      },
      // One cache per turn, as the agent keeps it.
      afterTurn: async () => {
        cache = new EncodedImageCache();
      },
    });
    for (const totals of all) totals.retrievableShare = await retrievableShare(home.storage, totals, imageTurns, sessionId);
    return all;
  } finally {
    home.remove();
  }
}

async function runSightline(screenshots: Buffer[][]): Promise<SightlineRun> {
  const home = temporaryStorage('sightline');
  const imageTurns = new Map<string, number>();
  const totals = newTotals(SIGHTLINE.name);
  const run: SightlineRun = { totals, compactionMs: [], compactionPlanMs: [], compactionMoveMs: [], compactionMarkMs: [], heapAfterTurn: [], rssAfterTurn: [], coldReadMs: [], coldDecodeMs: [] };
  let cache = new EncodedImageCache();
  try {
    const sessionId = await playSession(home.storage, PROFILE.model, screenshots, imageTurns, {
      beforeModelCall: async (turnId, turnNumber) => {
        await measureRequest(home.storage, turnId, { policy: SIGHTLINE.policy, cache, totals, turnNumber, imageTurns });
      },
      afterTurn: async (turnId) => {
        const started = performance.now();
        let planned = started;
        let moved = started;
        await compactTurn({
          storage: home.storage,
          turnId,
          seams: { afterPlan: () => void (planned = performance.now()), beforeRowUpdates: () => void (moved = performance.now()) },
        });
        const ended = performance.now();
        run.compactionMs.push(ended - started);
        run.compactionPlanMs.push(planned - started);
        run.compactionMoveMs.push(moved - planned);
        run.compactionMarkMs.push(ended - moved);
        cache = new EncodedImageCache();
        collectGarbage();
        const memory = process.memoryUsage();
        run.heapAfterTurn.push(memory.heapUsed);
        run.rssAfterTurn.push(memory.rss);
      },
    });
    totals.retrievableShare = await retrievableShare(home.storage, totals, imageTurns, sessionId);
    // Recall of folded screenshots: read back from cold storage (hash-checked) and made ready for a request.
    const folded = home.storage.images.listBySession(sessionId).filter((image) => image.zone === 'offloaded');
    for (const image of folded.slice(0, 40)) {
      let started = performance.now();
      const resolved = await new EncodedImageCache().resolve(home.storage.images, image.id, MAX_IMAGE_EDGE);
      if (resolved.status !== 'ok') throw new Error(`folded image ${image.id} cannot be read back: ${resolved.reason}`);
      run.coldReadMs.push(performance.now() - started);
      started = performance.now();
      const read = await home.storage.images.retrieve(image.id);
      if (read.status === 'ok') await decodeImageBytes(read.bytes);
      run.coldDecodeMs.push(performance.now() - started);
    }
    return run;
  } finally {
    home.remove();
  }
}

// ---------------------------------------------------------------------------------------------------
// Reporting

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function verdict(pass: boolean): string {
  return pass ? '**PASS**' : '**FAIL**';
}

async function run(): Promise<string> {
  const generation = performance.now();
  const screenshots = await makeScreenshots();
  const generationMs = performance.now() - generation;

  const comparisons = await runComparisons(screenshots);
  const sightline = await runSightline(screenshots);
  const policies = [...comparisons, sightline.totals];
  const byName = (name: string) => policies.find((totals) => totals.name === name)!;
  const keepAll = byName('keep everything');
  const keepFive = byName('keep last 5 (UI-TARS desktop)');
  const keepThree = byName('keep last 3 (Anthropic demo)');
  const ours = sightline.totals;

  const policyTable = markdownTable(
    ['policy', 'input tokens', 'earlier turns\' visual tokens', 'cache-adjusted tokens', 'largest request (of 128k)', 'over 128k', 'images whole per request (min)', 'earlier images retrievable', 'build ms (median / p95)'],
    policies.map((totals) => [
      totals.name,
      thousands(totals.inputTokens),
      thousands(totals.earlierVisualTokens),
      thousands(totals.cacheAdjustedTokens),
      `${thousands(totals.largestRequest)} (${percent(totals.largestRequest / PROFILE.contextWindow)})`,
      String(totals.overWindow),
      `${(totals.imagesWhole / totals.requests).toFixed(1)} (${totals.fewestImagesWhole})`,
      percent(totals.retrievableShare),
      `${formatMs(median(totals.buildMs))} / ${formatMs(percentile(totals.buildMs, 0.95))}`,
    ]),
  );

  const visualCut = 1 - ours.earlierVisualTokens / keepAll.earlierVisualTokens;
  const heapEarly = median(sightline.heapAfterTurn.slice(5, 15));
  const heapLate = median(sightline.heapAfterTurn.slice(-10));
  const rssEarly = median(sightline.rssAfterTurn.slice(5, 15));
  const rssLate = median(sightline.rssAfterTurn.slice(-10));
  const memoryFlat = heapLate <= heapEarly * 1.25 + 8 * 1024 * 1024;
  const compactionP95 = percentile(sightline.compactionMs, 0.95);
  const coldMedian = median(sightline.coldReadMs);

  const aims: Array<[string, string, boolean]> = [
    [
      'cache-adjusted cost below keep-last-3 and keep-last-5',
      `${thousands(ours.cacheAdjustedTokens)} vs ${thousands(keepThree.cacheAdjustedTokens)} / ${thousands(keepFive.cacheAdjustedTokens)}`,
      ours.cacheAdjustedTokens < keepThree.cacheAdjustedTokens && ours.cacheAdjustedTokens < keepFive.cacheAdjustedTokens,
    ],
    [
      'more images whole per request than keep-last-3 and keep-last-5',
      `${(ours.imagesWhole / ours.requests).toFixed(1)} vs ${(keepThree.imagesWhole / keepThree.requests).toFixed(1)} / ${(keepFive.imagesWhole / keepFive.requests).toFixed(1)}`,
      ours.imagesWhole / ours.requests > keepThree.imagesWhole / keepThree.requests &&
        ours.imagesWhole / ours.requests > keepFive.imagesWhole / keepFive.requests,
    ],
    ['earlier turns\' visual tokens ≥ 95% below keep-everything', `${percent(visualCut)} below`, visualCut >= 0.95],
    ['no request over budget', `${ours.overBudget} of ${ours.requests} over ${thousands(PROFILE.contextWindow - CONTEXT.outputReserveTokens)}`, ours.overBudget === 0],
    ['100% of earlier images retrievable', percent(ours.retrievableShare), ours.retrievableShare === 1],
    ['compaction per turn < 100 ms (p95)', `median ${formatMs(median(sightline.compactionMs))} ms, p95 ${formatMs(compactionP95)} ms, max ${formatMs(Math.max(...sightline.compactionMs))} ms`, compactionP95 < 100],
    ['cold read + rehydrate < 20 ms (median)', `median ${formatMs(coldMedian)} ms, max ${formatMs(Math.max(...sightline.coldReadMs))} ms`, coldMedian < 20],
    ['memory flat as the session grows', `heap after GC ${megabytes(heapEarly)} (turns 6–15) → ${megabytes(heapLate)} (turns 41–50); RSS ${megabytes(rssEarly)} → ${megabytes(rssLate)}`, memoryFlat],
  ];
  const aimTable = markdownTable(['aim', 'measured', ''], aims.map(([aim, measured, pass]) => [aim, measured, verdict(pass)]));

  const memoryRows = [1, 10, 20, 30, 40, 50].map((turn) => [
    String(turn),
    megabytes(sightline.heapAfterTurn[turn - 1] ?? Number.NaN),
    megabytes(sightline.rssAfterTurn[turn - 1] ?? Number.NaN),
  ]);
  const timingTable = markdownTable(
    ['timing (Sightline)', 'median ms', 'p95 ms', 'max ms'],
    [
      ['compaction at turn end (compactTurn)', formatMs(median(sightline.compactionMs)), formatMs(compactionP95), formatMs(Math.max(...sightline.compactionMs))],
      ...(
        [
          ['  of which: plan (captions, journal)', sightline.compactionPlanMs],
          ['  of which: files to cold storage', sightline.compactionMoveMs],
          ['  of which: rows marked', sightline.compactionMarkMs],
        ] as const
      ).map(([label, values]) => [label, formatMs(median(values)), formatMs(percentile(values, 0.95)), formatMs(Math.max(...values))]),
      ['cold read + rehydrate (read, hash check, ready for a request)', formatMs(coldMedian), formatMs(percentile(sightline.coldReadMs, 0.95)), formatMs(Math.max(...sightline.coldReadMs))],
      ['cold read + decode to RGBA (what crop_image and re-encoding start from)', formatMs(median(sightline.coldDecodeMs)), formatMs(percentile(sightline.coldDecodeMs, 0.95)), formatMs(Math.max(...sightline.coldDecodeMs))],
      ['request build (buildRequest)', formatMs(median(ours.buildMs)), formatMs(percentile(ours.buildMs, 0.95)), formatMs(Math.max(...ours.buildMs))],
    ],
  );

  return [
    `${TURNS} turns × ${CALLS_PER_TURN} model calls = ${ours.requests} requests per policy; ${TURNS * CALLS_PER_TURN} screenshots of ${WIDTH}×${HEIGHT} ` +
      `(made in ${formatMs(generationMs)} ms); model profile ${PROFILE.model} (${thousands(PROFILE.contextWindow)}-token window, ` +
      `${thousands(imageTokens(WIDTH, HEIGHT))} tokens a screenshot); anchor turns ${CONTEXT.anchorTurns}. Cached prefix tokens count ` +
      `${CACHED_TOKEN_PRICE * 100}%: the prefix is the run of whole messages identical to the previous request's.`,
    '',
    policyTable,
    '',
    'Keep-last-1 is cheapest and sees only the present screen; it is reported for reference. A window policy forgets the images it drops ' +
      '(no id, no way back), so its retrievable share is what its final request still shows.',
    '',
    aimTable,
    '',
    timingTable,
    '',
    markdownTable(['after turn', 'heap used (after GC)', 'RSS'], memoryRows),
  ].join('\n');
}

export const section: BenchSection = { name: 'context', title: 'Context engineering: five policies over one 50-turn session', run };
