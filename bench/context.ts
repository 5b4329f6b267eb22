/**
 * Context engineering: scripted sessions (1280×800 screenshots, stored as the agent stores them) rendered
 * through the real request builder under five policies in the same run: keep everything; keep the last 1
 * image (Midscene), 3 (Anthropic's computer-use demo), 5 (UI-TARS desktop); and Sightline (zones,
 * placeholders, compaction at each turn end). Three session shapes: 50 turns × 10 model calls, 10 × 30 and
 * 100 × 3. The window policies read one home that is never compacted; Sightline runs on its own home, where
 * the real compactTurn runs when each turn ends.
 *
 * Each session is priced under every price table (bench/support/price-tables.ts): no cache (a local model),
 * OpenAI's automatic cache at gpt-4o's 50%, gpt-4.1's 25% and gpt-5's 10% (simulated by OpenAI's rule,
 * bench/support/automatic-prompt-cache.ts), and Anthropic's explicit breakpoints at Claude Sonnet 4.5's table
 * (bench/support/anthropic-prompt-cache.ts: the adapter's real breakpoints for Sightline, the windows at their
 * best). The OpenAI tables price renderings with the gpt-4o profile (its 128k window and tile formula), so
 * they differ by price alone; the Anthropic table prices a rendering with Claude's profile. The windows' requests
 * are the same under every table; Sightline's active zone shapes its requests by the table's cache discount
 * (reduced views, chunk size), so Sightline is built once per table, with that table's prices on the profile.
 *
 * Per policy: cost, images whole per request, the largest request, how many of the latest screens each
 * request shows at full detail and as reduced views, and the share of earlier images the model can still get
 * back at the end. Aims, PASS/FAIL per price table and session shape. For the 50 × 10 session, timings too:
 * compaction per turn, cold read + rehydrate, request build, and memory as the session grows.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { DEFAULT_CONFIG } from '../src/shared/config.js';
import { compactTurn } from '../src/main/context/compact-turn.js';
import { EncodedImageCache } from '../src/main/context/encoded-image-cache.js';
import { TurnRequestCache } from '../src/main/context/turn-request-cache.js';
import { effectiveMaxImageEdge, modelImageSize } from '../src/main/context/model-image-size.js';
import { estimateImageTokens } from '../src/main/llm/image-token-estimates.js';
import { resolveModelProfile } from '../src/main/llm/model-profiles.js';
import type { ModelProfile } from '../src/main/llm/model-profiles.js';
import { decodeImageBytes } from '../src/main/perception/image-encoding.js';
import type { Storage } from '../src/main/storage/index.js';
import { formatMs, markdownTable, median, percent, percentile, thousands, type BenchSection } from './harness.js';
import { AnthropicPromptReader } from './support/anthropic-prompt-blocks.js';
import { ADAPTER_BREAKPOINTS, ANTHROPIC_PROFILE, anthropicRequest, BEST_BREAKPOINTS, PricedPolicy } from './support/anthropic-priced-policy.js';
import { FiguresRecorder, newFigures, retrievableShare, showsLatestScreens, type NamedPolicy, type PolicyFigures } from './support/policy-figures.js';
import { automaticEquivalents, breakpointEquivalents, cacheKindOf, describePriceTable, dollarsOf, PRICE_TABLES, type PriceTable } from './support/price-tables.js';
import { CONTEXT, DEFAULT_SHAPE, HEIGHT, makeScreenshots, playSession, sessionRequest, temporaryStorage, WIDTH, type SessionShape } from './support/scripted-session.js';

/** A 128k-window model with OpenAI's tile formula (gpt-4o). */
const PROFILE = resolveModelProfile('gpt-4o');
const MAX_IMAGE_EDGE = effectiveMaxImageEdge(PROFILE.maxImageEdge, DEFAULT_CONFIG.perception.maxImageEdge);
/** A screenshot as the builder renders it at full detail: a smaller image part is a reduced view. */
const FULL_DETAIL = modelImageSize(WIDTH, HEIGHT, MAX_IMAGE_EDGE, PROFILE.imageSizing);
/** The aim: every request shows at least this many of the latest screens. */
const LATEST_SCREENS_WANTED = 3;

const SHAPES: readonly SessionShape[] = [DEFAULT_SHAPE, { turns: 10, callsPerTurn: 30 }, { turns: 100, callsPerTurn: 3 }];

const WINDOWS: NamedPolicy[] = [
  { name: 'keep-all', policy: { kind: 'keep-all' } },
  { name: 'keep-last-1', policy: { kind: 'keep-last', images: 1 } },
  { name: 'keep-last-3', policy: { kind: 'keep-last', images: 3 } },
  { name: 'keep-last-5', policy: { kind: 'keep-last', images: 5 } },
];
const SIGHTLINE: NamedPolicy = { name: 'Sightline', policy: { kind: 'sightline' } };
/** Sightline's default model's table: the one whose Sightline build the rows other than cost show. */
const DEFAULT_MODEL_TABLE = PRICE_TABLES.find((table) => table.model === DEFAULT_CONFIG.model.name) ?? PRICE_TABLES[0]!;

function imageTokens(width: number, height: number, reduced = false): number {
  return estimateImageTokens(PROFILE.imageTokens, { width, height, ...(reduced ? { detail: 'low' as const } : {}) });
}

/** The profile Sightline's requests are built with for a price table: gpt-4o's rendering, that table's prices. */
function profileFor(table: PriceTable | undefined): ModelProfile {
  if (table === undefined) return PROFILE;
  const { pricing: _pricing, ...rest } = PROFILE;
  return table.pricing === undefined ? rest : { ...rest, pricing: table.pricing };
}

/** Sightline's figures as built for a price table, or for the default model's table (the one the other rows show). */
function sightlineFor(policies: readonly PolicyFigures[], table: PriceTable = DEFAULT_MODEL_TABLE): PolicyFigures {
  return policies.find((figures) => figures.name === SIGHTLINE.name && figures.builtFor === table)!;
}

/** A policy's figures under a table: Sightline's as built for it, a window's (the same requests under every table). */
function figuresUnder(policies: readonly PolicyFigures[], column: PolicyFigures, table: PriceTable): PolicyFigures {
  return column.builtFor === undefined ? column : sightlineFor(policies, table);
}

function shapeName(shape: SessionShape): string {
  return `${shape.turns} turns × ${shape.callsPerTurn} model calls`;
}

// ---------------------------------------------------------------------------------------------------
// Playing a session

const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

interface SightlineTimings {
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

interface ShapeRun {
  shape: SessionShape;
  policies: PolicyFigures[];
  timings: SightlineTimings;
  elapsedMs: number;
}

/**
 * Plays one session on its own home, and before each model call builds every given policy's request twice
 * (gpt-4o's profile, measured and priced on the automatic tables; Claude's, priced on Anthropic's).
 * `imageCache` says how long an encoded-image cache lives: a turn, as the agent keeps it, or the whole session
 * (the same bytes, without re-encoding every earlier image at each turn for keep-all).
 */
async function playPolicies(
  label: string,
  screenshots: Buffer[][],
  figures: readonly PolicyFigures[],
  options: { compact: boolean; imageCache: 'turn' | 'session'; timings?: SightlineTimings },
): Promise<void> {
  const home = temporaryStorage(label);
  const imageTurns = new Map<string, number>();
  const recorder = new FiguresRecorder(imageTokens);
  const anthropicReader = new AnthropicPromptReader(ANTHROPIC_PROFILE);
  let cache = new EncodedImageCache();
  // One turn cache per policy and turn, as the agent keeps one per turn: both profiles' builds share it.
  let turnCaches = new Map(figures.map((policy) => [policy, new TurnRequestCache()]));
  let callInTurn = 0;
  try {
    const sessionId = await playSession(home.storage, PROFILE.model, screenshots, imageTurns, {
      beforeModelCall: async (turnId, turnNumber) => {
        const screens = [...imageTurns.keys()];
        for (const policy of figures) {
          const caches = { imageCache: cache, turnCache: turnCaches.get(policy)! };
          const started = performance.now();
          const built = await sessionRequest(home.storage, turnId, { profile: profileFor(policy.builtFor), policy: policy.policy, ...caches });
          const buildMs = performance.now() - started;
          recorder.record(policy, built, buildMs, { turnNumber, imageTurns, screens, contextWindow: PROFILE.contextWindow, fullDetail: FULL_DETAIL, imageTokens });
          policy.firstOfTurn.push(callInTurn === 0);
          // Anthropic's requests are built with Claude's own profile and prices: once per policy.
          if (policy.builtFor === undefined || cacheKindOf(policy.builtFor) === 'breakpoints') {
            policy.anthropic.add(anthropicReader.read(await anthropicRequest(home.storage, turnId, policy.policy, caches)), callInTurn === 0);
          }
        }
        callInTurn += 1;
      },
      afterTurn: async (turnId) => {
        callInTurn = 0;
        turnCaches = new Map(figures.map((policy) => [policy, new TurnRequestCache()]));
        if (options.compact) await compactAndTime(home.storage, turnId, options.timings);
        if (options.imageCache === 'turn') {
          cache = new EncodedImageCache();
          anthropicReader.forgetImages();
          recorder.forgetImages();
        }
        if (options.timings !== undefined) recordMemory(options.timings);
      },
    });
    for (const policy of figures) {
      policy.anthropic.finish();
      policy.retrievableShare = await retrievableShare(home.storage, policy, imageTurns, sessionId, screenshots.length);
    }
    if (options.timings !== undefined) await timeColdReads(home.storage, sessionId, options.timings);
  } finally {
    home.remove();
  }
}

async function compactAndTime(storage: Storage, turnId: string, timings: SightlineTimings | undefined): Promise<void> {
  const started = performance.now();
  let planned = started;
  let moved = started;
  await compactTurn({
    storage,
    turnId,
    seams: { afterPlan: () => void (planned = performance.now()), beforeRowUpdates: () => void (moved = performance.now()) },
  });
  const ended = performance.now();
  if (timings === undefined) return;
  timings.compactionMs.push(ended - started);
  timings.compactionPlanMs.push(planned - started);
  timings.compactionMoveMs.push(moved - planned);
  timings.compactionMarkMs.push(ended - moved);
}

function recordMemory(timings: SightlineTimings): void {
  collectGarbage();
  const memory = process.memoryUsage();
  timings.heapAfterTurn.push(memory.heapUsed);
  timings.rssAfterTurn.push(memory.rss);
}

/** Recall of folded screenshots: read back from cold storage (hash-checked) and made ready for a request. */
async function timeColdReads(storage: Storage, sessionId: string, timings: SightlineTimings): Promise<void> {
  const folded = storage.images.listBySession(sessionId).filter((image) => image.zone === 'offloaded');
  for (const image of folded.slice(0, 40)) {
    let started = performance.now();
    const resolved = await new EncodedImageCache().resolve(storage.images, image.id, MAX_IMAGE_EDGE);
    if (resolved.status !== 'ok') throw new Error(`folded image ${image.id} cannot be read back: ${resolved.reason}`);
    timings.coldReadMs.push(performance.now() - started);
    started = performance.now();
    const read = await storage.images.retrieve(image.id);
    if (read.status === 'ok') await decodeImageBytes(read.bytes);
    timings.coldDecodeMs.push(performance.now() - started);
  }
}

async function runShape(shape: SessionShape): Promise<ShapeRun> {
  const started = performance.now();
  const screenshots = await makeScreenshots(shape);
  const windows = WINDOWS.map((named) => newFigures(named, new PricedPolicy(named.name, 'best for the window', BEST_BREAKPOINTS)));
  // Sightline shapes its requests by the price table (the active zone), so it is built once per table.
  const sightline = PRICE_TABLES.map((table) => newFigures(SIGHTLINE, new PricedPolicy(SIGHTLINE.name, "the adapter's", ADAPTER_BREAKPOINTS), table));
  const timings: SightlineTimings = { compactionMs: [], compactionPlanMs: [], compactionMoveMs: [], compactionMarkMs: [], heapAfterTurn: [], rssAfterTurn: [], coldReadMs: [], coldDecodeMs: [] };
  await playPolicies('windows', screenshots, windows, { compact: false, imageCache: 'session' });
  await playPolicies('sightline', screenshots, sightline, { compact: true, imageCache: 'turn', timings });
  return { shape, policies: [...windows, ...sightline], timings, elapsedMs: performance.now() - started };
}

// ---------------------------------------------------------------------------------------------------
// Reporting

/** A policy's input cost under a price table, in input-token equivalents. */
function costOf(figures: PolicyFigures, table: PriceTable): number {
  return cacheKindOf(table) === 'breakpoints' ? breakpointEquivalents(figures.anthropic.uses, table) : automaticEquivalents(figures.automaticUses, table);
}

function costCell(figures: PolicyFigures, table: PriceTable): string {
  const equivalents = costOf(figures, table);
  const dollars = dollarsOf(equivalents, table);
  return `${(equivalents / 1_000_000).toFixed(2)}M${dollars === undefined ? '' : ` ($${dollars.toFixed(2)})`}`;
}

function meanAndMinimum(values: readonly number[]): string {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return `${mean.toFixed(1)} (${Math.min(...values)})`;
}

function verdict(pass: boolean): string {
  return pass ? '**PASS**' : '**FAIL**';
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One column per policy: the windows, and Sightline (as built for the default model's table outside the cost rows). */
function columnsOf(run: ShapeRun): PolicyFigures[] {
  return [...run.policies.filter((figures) => figures.builtFor === undefined), sightlineFor(run.policies)];
}

function figuresTable(run: ShapeRun): string {
  const policies = columnsOf(run);
  const rows: string[][] = PRICE_TABLES.map((table) => [
    `cost, ${describePriceTable(table)}`,
    ...policies.map((figures) => costCell(figuresUnder(run.policies, figures, table), table)),
  ]);
  rows.push(
    ['input tokens sent, as the request builder estimates them (gpt-4o rendering)', ...policies.map((figures) => thousands(figures.inputTokens))],
    ['images whole per request, mean (min)', ...policies.map((figures) => `${(figures.imagesWhole / figures.requests).toFixed(1)} (${figures.fewestImagesWhole})`)],
    [`largest request (of ${thousands(PROFILE.contextWindow)}), requests over`, ...policies.map((figures) => `${thousands(figures.largestRequest)} (${percent(figures.largestRequest / PROFILE.contextWindow)}), ${figures.overWindow}`)],
    ['latest screens at full detail per request, mean (min)', ...policies.map((figures) => meanAndMinimum(figures.latest.map((latest) => latest.full)))],
    ['latest screens as reduced views per request, mean (min)', ...policies.map((figures) => meanAndMinimum(figures.latest.map((latest) => latest.reduced)))],
    ['earlier images retrievable at the end', ...policies.map((figures) => percent(figures.retrievableShare))],
  );
  return markdownTable(['', ...policies.map((figures) => figures.name)], rows);
}

function aimsTable(run: ShapeRun): { table: string; failures: number } {
  const byName = (name: string) => run.policies.find((figures) => figures.name === name)!;
  const keepThree = byName('keep-last-3');
  const keepFive = byName('keep-last-5');
  const aims: Array<[string, string, boolean]> = PRICE_TABLES.map((table) => {
    const [cost, three, five] = [sightlineFor(run.policies, table), keepThree, keepFive].map((figures) => costOf(figures, table)) as [number, number, number];
    return [
      `costs less than keep-last-3 and keep-last-5 (${describePriceTable(table)})`,
      `${thousands(cost)} vs ${thousands(three)} / ${thousands(five)} (${(cost / three).toFixed(2)}× / ${(cost / five).toFixed(2)}×)`,
      cost < three && cost < five,
    ];
  });
  // The screens and retrievability aims hold for Sightline as built for every table: the worst build is reported.
  const builds = PRICE_TABLES.map((table) => sightlineFor(run.policies, table));
  const shortOf = (figures: PolicyFigures) => figures.latest.flatMap((latest, index) => (showsLatestScreens(latest, LATEST_SCREENS_WANTED) ? [] : [index]));
  const ours = builds.reduce((worst, figures) => (shortOf(figures).length > shortOf(worst).length ? figures : worst));
  const leastRetrievable = builds.reduce((worst, figures) => (figures.retrievableShare < worst.retrievableShare ? figures : worst));
  const shortIndexes = shortOf(ours);
  const shortFirstOfTurn = shortIndexes.filter((index) => ours.firstOfTurn[index] === true).length;
  const fewest = Math.min(...shortIndexes.map((index) => ours.latest[index]!.full + ours.latest[index]!.reduced));
  aims.push([
    `every request shows the ${LATEST_SCREENS_WANTED} latest screens, the newest at full detail, the others at least as reduced views (as built for every table)`,
    shortIndexes.length === 0
      ? `all ${ours.requests} requests of every build`
      : `${shortIndexes.length} of ${ours.requests} requests short (${shortFirstOfTurn} of them a turn's first request), showing as few as ${fewest} in a row; ` +
        `newest not at full detail in ${ours.latest.filter((latest) => !latest.newestAtFullDetail).length}`,
    shortIndexes.length === 0,
  ]);
  aims.push(['100% of earlier images retrievable (as built for every table)', percent(leastRetrievable.retrievableShare), leastRetrievable.retrievableShare === 1]);
  const failures = aims.filter(([, , pass]) => !pass).length;
  return { table: markdownTable(['Sightline aim', 'measured', ''], aims.map(([aim, measured, pass]) => [aim, measured, verdict(pass)])), failures };
}

/** The 50 × 10 session's own aims and timings, as before issue 15: budget, visual tokens, compaction, cold reads, memory. */
function detailSection(run: ShapeRun): string {
  const byName = (name: string) => run.policies.find((figures) => figures.name === name)!;
  const ours = sightlineFor(run.policies);
  const keepAll = byName('keep-all');
  const { timings } = run;
  const visualCut = 1 - ours.earlierVisualTokens / keepAll.earlierVisualTokens;
  const heapEarly = median(timings.heapAfterTurn.slice(5, 15));
  const heapLate = median(timings.heapAfterTurn.slice(-10));
  const rssEarly = median(timings.rssAfterTurn.slice(5, 15));
  const rssLate = median(timings.rssAfterTurn.slice(-10));
  const memoryFlat = heapLate <= heapEarly * 1.25 + 8 * 1024 * 1024;
  const compactionP95 = percentile(timings.compactionMs, 0.95);
  const coldMedian = median(timings.coldReadMs);
  const aims: Array<[string, string, boolean]> = [
    ["earlier turns' visual tokens ≥ 95% below keep-everything", `${percent(visualCut)} below`, visualCut >= 0.95],
    ['no request over budget', `${ours.overBudget} of ${ours.requests} over ${thousands(PROFILE.contextWindow - CONTEXT.outputReserveTokens)}`, ours.overBudget === 0],
    ['compaction per turn < 100 ms (p95)', `median ${formatMs(median(timings.compactionMs))} ms, p95 ${formatMs(compactionP95)} ms, max ${formatMs(Math.max(...timings.compactionMs))} ms`, compactionP95 < 100],
    ['cold read + rehydrate < 20 ms (median)', `median ${formatMs(coldMedian)} ms, max ${formatMs(Math.max(...timings.coldReadMs))} ms`, coldMedian < 20],
    ['memory flat as the session grows', `heap after GC ${megabytes(heapEarly)} (turns 6–15) → ${megabytes(heapLate)} (turns 41–50); RSS ${megabytes(rssEarly)} → ${megabytes(rssLate)}`, memoryFlat],
  ];
  const stages = [
    ['  of which: plan (captions, journal)', timings.compactionPlanMs],
    ['  of which: files to cold storage', timings.compactionMoveMs],
    ['  of which: rows marked', timings.compactionMarkMs],
  ] as const;
  const timingTable = markdownTable(
    ['timing (Sightline)', 'median ms', 'p95 ms', 'max ms'],
    [
      ['compaction at turn end (compactTurn)', formatMs(median(timings.compactionMs)), formatMs(compactionP95), formatMs(Math.max(...timings.compactionMs))],
      ...stages.map(([label, values]) => [label, formatMs(median(values)), formatMs(percentile(values, 0.95)), formatMs(Math.max(...values))]),
      ['cold read + rehydrate (read, hash check, ready for a request)', formatMs(coldMedian), formatMs(percentile(timings.coldReadMs, 0.95)), formatMs(Math.max(...timings.coldReadMs))],
      ['cold read + decode to RGBA (what crop_image and re-encoding start from)', formatMs(median(timings.coldDecodeMs)), formatMs(percentile(timings.coldDecodeMs, 0.95)), formatMs(Math.max(...timings.coldDecodeMs))],
      ['request build (buildRequest)', formatMs(median(ours.buildMs)), formatMs(percentile(ours.buildMs, 0.95)), formatMs(Math.max(...ours.buildMs))],
    ],
  );
  const memoryRows = [1, 10, 20, 30, 40, 50].map((turn) => [String(turn), megabytes(timings.heapAfterTurn[turn - 1] ?? Number.NaN), megabytes(timings.rssAfterTurn[turn - 1] ?? Number.NaN)]);
  return [
    markdownTable(['Sightline aim (this session)', 'measured', ''], aims.map(([aim, measured, pass]) => [aim, measured, verdict(pass)])),
    '',
    timingTable,
    '',
    markdownTable(['after turn', 'heap used (after GC)', 'RSS'], memoryRows),
  ].join('\n');
}

function shapeSection(run: ShapeRun, withDetails: boolean): { text: string; failures: number } {
  const aims = aimsTable(run);
  const requests = run.policies[0]!.requests;
  const lines = [
    `### ${shapeName(run.shape)} (${requests} requests per policy, ${run.shape.turns * run.shape.callsPerTurn} screenshots; ran in ${formatMs(run.elapsedMs / 1000)} s)`,
    '',
    figuresTable(run),
    '',
    aims.table,
  ];
  if (withDetails) lines.push('', detailSection(run));
  return { text: lines.join('\n'), failures: aims.failures };
}

async function run(): Promise<string> {
  const runs: ShapeRun[] = [];
  for (const shape of SHAPES) runs.push(await runShape(shape));
  const sections = runs.map((shapeRun, index) => shapeSection(shapeRun, index === 0));
  const failures = sections.reduce((sum, section) => sum + section.failures, 0);
  return [
    `Model profile ${PROFILE.model} for the requests measured and priced on the automatic tables (${thousands(PROFILE.contextWindow)}-token window, ` +
      `${thousands(imageTokens(WIDTH, HEIGHT))} tokens a ${WIDTH}×${HEIGHT} screenshot at full detail), ${ANTHROPIC_PROFILE.model} for Anthropic's ` +
      `(${thousands(estimateImageTokens(ANTHROPIC_PROFILE.imageTokens, { width: WIDTH, height: HEIGHT }))} tokens a screenshot); anchor turns ${CONTEXT.anchorTurns}. ` +
      'Cost is input only (the replies are the same under every policy), as millions of input tokens at full price, dollars where the table has a price. ' +
      'Automatic caches: a request reads the longest prefix it shares with any earlier request, from the table\'s minimum (1,024) in 128-token steps ' +
      '(OpenAI\'s rule). Anthropic: writes and reads at the breakpoints, Sightline with the adapter\'s, each window with the best it can have. ' +
      'A "latest screen" is one of the session\'s screenshots, newest first; the columns count those a request shows without a gap, at full detail and ' +
      'as reduced views (marked so by the request builder: low detail, or a downscaled copy). Sightline is built once per price table, ' +
      `since its active zone follows the cache discount; outside the cost rows its column shows the build for ${DEFAULT_MODEL_TABLE.model}, Sightline's default model. ` +
      'A window forgets the images it drops (no id, no way back), so its ' +
      'retrievable share is what its final request still shows. Keep-last-1 sees only the present screen; it is there for reference.',
    '',
    ...sections.map((section) => section.text).join('\n\n').split('\n'),
    '',
    `Sightline aims: ${failures === 0 ? 'all PASS' : `${failures} FAIL`} over ${PRICE_TABLES.length} price tables and ${SHAPES.length} session shapes.`,
  ].join('\n');
}

export const section: BenchSection = { name: 'context', title: 'Context engineering: five policies, three session shapes, five price tables', run };
