/**
 * What the 50-turn session (the context section's, bench/support/scripted-session.ts) costs on Anthropic,
 * where the prompt cache reads only at the breakpoints a request marks: writes at 1.25× the input price,
 * reads at 0.1×, the rest at 1× (bench/support/anthropic-prompt-cache.ts simulates the cache).
 *
 * The requests are built by the real request builder with a Claude model's profile (200k window, images by
 * Anthropic's pixel formula), and priced block by block as the Messages adapter sends them:
 * - Sightline: the breakpoints the adapter really places (anthropicMessagesBody → cacheBreakpoints), with
 *   compaction at each turn end as the agent runs it;
 * - keep-last-5 and keep-last-3: the same session, each given the best breakpoints a window can have
 *   (bench/support/window-cache-breakpoints.ts);
 * - for reference, Sightline's requests with a window's best breakpoints too (the best that knows only the next
 *   request), against the adapter's, which also prepare the next turn's first request (the settled turns' end).
 */
import type { ContextPolicy } from '../src/shared/context-policy.js';
import { compactTurn } from '../src/main/context/compact-turn.js';
import { EncodedImageCache } from '../src/main/context/encoded-image-cache.js';
import { estimateImageTokens } from '../src/main/llm/image-token-estimates.js';
import { formatMs, markdownTable, median, percent, percentile, thousands, type BenchSection } from './harness.js';
import { AnthropicPromptReader } from './support/anthropic-prompt-blocks.js';
import type { CacheUse } from './support/anthropic-prompt-cache.js';
import { cachedInputShare } from '../src/shared/pricing.js';
import {
  ADAPTER_BREAKPOINTS,
  ANTHROPIC_PRICING as PRICING,
  ANTHROPIC_PROFILE as PROFILE,
  anthropicRequest,
  anthropicTotalsOf,
  BEST_BREAKPOINTS,
  PricedPolicy,
} from './support/anthropic-priced-policy.js';
import { CALLS_PER_TURN, HEIGHT, makeScreenshots, playSession, temporaryStorage, TURNS, WIDTH } from './support/scripted-session.js';

/** Claude Sonnet 4.5's base input price, US dollars per million tokens (the profile's price table). */
const SONNET_INPUT_DOLLARS_PER_MILLION = PRICING.inputPerMillion;
/** Writes and reads as multiples of the input price, from the same table. */
const CACHE_WRITE_PRICE = PRICING.cacheWriteMultiplier;
const CACHE_READ_PRICE = Number(cachedInputShare(PRICING).toPrecision(6));
/** Share of a request read from the cache that counts as "almost all" (the aim). */
const MOSTLY_READ = 0.8;

interface Pass {
  policy: ContextPolicy;
  priced: PricedPolicy[];
}

/** Plays the session once, pricing each pass's request before every model call; Sightline's pass compacts at each turn end. */
async function playAndPrice(label: string, screenshots: Buffer[][], passes: readonly Pass[], compact: boolean): Promise<void> {
  const home = temporaryStorage(label);
  const reader = new AnthropicPromptReader(PROFILE);
  let imageCache = new EncodedImageCache();
  let callInTurn = 0;
  try {
    await playSession(home.storage, PROFILE.model, screenshots, new Map(), {
      beforeModelCall: async (turnId) => {
        for (const pass of passes) {
          const prompt = reader.read(await anthropicRequest(home.storage, turnId, pass.policy, { imageCache }));
          for (const priced of pass.priced) priced.add(prompt, callInTurn === 0);
        }
        callInTurn += 1;
      },
      afterTurn: async (turnId) => {
        if (compact) await compactTurn({ storage: home.storage, turnId });
        // One image cache per turn, as the agent keeps it.
        imageCache = new EncodedImageCache();
        reader.forgetImages();
        callInTurn = 0;
      },
    });
    for (const pass of passes) for (const priced of pass.priced) priced.finish();
  } finally {
    home.remove();
  }
}

// ---------------------------------------------------------------------------------------------------
// Reporting

function readShares(uses: readonly CacheUse[]): number[] {
  return uses.map((use) => use.cacheReadTokens / use.inputTokens);
}

/** What the first requests of turns share with the request before them but did not read (the adapter writes all it does not read). */
function missedAtTurnStarts(priced: PricedPolicy): { requests: number; sharedTokens: number; sharedShare: number; savable: number } {
  let requests = 0;
  let sharedTokens = 0;
  let inputTokens = 0;
  let unread = 0;
  priced.uses.forEach((use, index) => {
    if (priced.firstOfTurn[index] !== true) return;
    const shared = priced.sharedWithPrevious[index]!;
    requests += 1;
    sharedTokens += shared;
    inputTokens += use.inputTokens;
    unread += Math.max(0, shared - use.cacheReadTokens);
  });
  return { requests, sharedTokens, sharedShare: sharedTokens / inputTokens, savable: unread * (CACHE_WRITE_PRICE - CACHE_READ_PRICE) };
}

/** "12.3% more" or "4.5% less": the first figure against the second. */
function relativeDifference(figure: number, against: number): string {
  const change = figure / against - 1;
  return `${percent(Math.abs(change))} ${change > 0 ? 'more' : 'less'}`;
}

function dollars(equivalents: number): string {
  return `$${((equivalents * SONNET_INPUT_DOLLARS_PER_MILLION) / 1_000_000).toFixed(2)}`;
}

function shareRow(label: string, shares: readonly number[]): string[] {
  return [
    label,
    String(shares.length),
    percent(median(shares)),
    percent(percentile(shares, 0.1)),
    percent(Math.min(...shares)),
    percent(shares.filter((share) => share >= MOSTLY_READ).length / shares.length),
  ];
}

async function run(): Promise<string> {
  const started = performance.now();
  const screenshots = await makeScreenshots();
  const keepFive = new PricedPolicy('keep last 5 (UI-TARS desktop)', 'best for the window', BEST_BREAKPOINTS);
  const keepThree = new PricedPolicy('keep last 3 (Anthropic demo)', 'best for the window', BEST_BREAKPOINTS);
  const sightline = new PricedPolicy('Sightline', "the adapter's", ADAPTER_BREAKPOINTS);
  const sightlineBest = new PricedPolicy('Sightline (reference)', 'best one request ahead', BEST_BREAKPOINTS);
  await playAndPrice(
    'anthropic-windows',
    screenshots,
    [
      { policy: { kind: 'keep-last', images: 5 }, priced: [keepFive] },
      { policy: { kind: 'keep-last', images: 3 }, priced: [keepThree] },
    ],
    false,
  );
  await playAndPrice('anthropic-sightline', screenshots, [{ policy: { kind: 'sightline' }, priced: [sightline, sightlineBest] }], true);
  const elapsedMs = performance.now() - started;

  const reference = anthropicTotalsOf(keepThree.uses);
  const policies = [keepFive, keepThree, sightline, sightlineBest];
  const costTable = markdownTable(
    ['policy', 'breakpoints', 'input tokens', `cache writes (${CACHE_WRITE_PRICE}×)`, `cache reads (${CACHE_READ_PRICE}×)`, 'uncached (1×)', 'cost (input-token equivalents)', `cost at Claude Sonnet 4.5 ($${SONNET_INPUT_DOLLARS_PER_MILLION}/M input)`, 'vs keep-last-3', 'read share per request (median)'],
    policies.map((priced) => {
      const totals = anthropicTotalsOf(priced.uses);
      return [
        priced.name,
        priced.breakpoints,
        thousands(totals.inputTokens),
        thousands(totals.cacheWriteTokens),
        thousands(totals.cacheReadTokens),
        thousands(totals.uncachedTokens),
        thousands(totals.equivalents),
        dollars(totals.equivalents),
        `${(totals.equivalents / reference.equivalents).toFixed(2)}×`,
        percent(median(readShares(priced.uses))),
      ];
    }),
  );

  const shares = readShares(sightline.uses);
  const firsts = shares.filter((_share, index) => sightline.firstOfTurn[index] === true);
  const laters = shares.filter((_share, index) => sightline.firstOfTurn[index] !== true);
  const shareTable = markdownTable(
    ["Sightline's cache-read share per request (the adapter's breakpoints)", 'requests', 'median', 'p10', 'min', `requests ≥ ${MOSTLY_READ * 100}% read`],
    [shareRow('all requests', shares), shareRow('first request of a turn', firsts), shareRow('later requests of a turn', laters)],
  );

  const ours = anthropicTotalsOf(sightline.uses);
  const best = anthropicTotalsOf(sightlineBest.uses);
  const turnStarts = missedAtTurnStarts(sightline);
  const improved = ours.equivalents - turnStarts.savable;
  return [
    `The context section's session (${TURNS} turns × ${CALLS_PER_TURN} model calls, ${WIDTH}×${HEIGHT} screenshots) built for ${PROFILE.model} ` +
      `(${thousands(PROFILE.contextWindow)}-token window, ${thousands(estimateImageTokens(PROFILE.imageTokens, { width: WIDTH, height: HEIGHT }))} tokens a screenshot), ` +
      `${sightline.uses.length} requests per policy, priced by a simulation of Anthropic's prompt cache: writes ${CACHE_WRITE_PRICE}×, ` +
      `reads ${CACHE_READ_PRICE}× the input price; 20-block lookback, 1,024-token minimum, no expiry (requests seconds apart). ` +
      `Output tokens are left out (the same replies in every policy). Ran in ${formatMs(elapsedMs / 1000)} s.`,
    '',
    costTable,
    '',
    shareTable,
    '',
    `A window's best breakpoints: one on the longest prefix already written, one on the last block the next request shares ` +
      `(before the oldest whole image, which the next screenshot drops); nothing beyond it is ever read again. The reference row ` +
      `gives Sightline's requests the same placement, the best that knows only the next request: the adapter's breakpoints, which ` +
      `also write at a turn the prefix the next turn will keep, cost ${relativeDifference(ours.equivalents, best.equivalents)}.`,
    '',
    `The first request of a turn reads ${percent(median(firsts))} of its input (median): the turns settled before the turn that ` +
      `just ended, which compaction no longer changes. Beyond them the history did change (the ended turn was compacted, and the ` +
      `turn leaving the anchor turns folded its anchors). Those ${turnStarts.requests} requests share ` +
      `${thousands(turnStarts.sharedTokens)} tokens with the request before them (${percent(turnStarts.sharedShare)} of their input); ` +
      `reading all of it would save at most ${thousands(turnStarts.savable)} more input-token equivalents (Sightline at ` +
      `${thousands(improved)}, ${dollars(improved)}). The system prompt alone is not read: with the tools it comes to ` +
      `${thousands(sightline.systemPrefixTokens)} tokens here, under the 1,024-token minimum (Anthropic's own tool-use system prompt, ` +
      `not counted, would take it over).`,
    '',
    `Sightline costs less than keep-last-3 and keep-last-5 on this price table: ` +
      `${ours.equivalents < reference.equivalents && ours.equivalents < anthropicTotalsOf(keepFive.uses).equivalents ? 'PASS' : 'FAIL'} ` +
      `(${thousands(ours.equivalents)} vs ${thousands(reference.equivalents)} / ${thousands(anthropicTotalsOf(keepFive.uses).equivalents)}).`,
  ].join('\n');
}

export const section: BenchSection = { name: 'anthropic-cache', title: 'Anthropic prompt caching: cost over the 50-turn session', run };
