/**
 * A policy's requests priced on Anthropic (Claude Sonnet 4.5's profile and price table), shared by the context
 * section's price tables and the anthropic-cache section: the request the real builder renders, with the tools
 * the anthropic-computer dialect declares, read as the Messages adapter sends it (anthropic-prompt-blocks.ts)
 * and sent through a simulated prompt cache (anthropic-prompt-cache.ts) with one of two breakpoint placements:
 * the adapter's own, or the best a window can have (window-cache-breakpoints.ts), which looks one request ahead.
 */
import type { ContextPolicy } from '../../src/shared/context-policy.js';
import type { ModelPricing } from '../../src/shared/pricing.js';
import type { EncodedImageCache } from '../../src/main/context/encoded-image-cache.js';
import type { TurnRequestCache } from '../../src/main/context/turn-request-cache.js';
import type { ModelRequest, ModelToolDeclaration } from '../../src/main/llm/model-adapter.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import { toModelTool } from '../../src/main/agent/tools/model-tool-schema.js';
import { createCropImageTool } from '../../src/main/agent/tools/crop-image-tool.js';
import { createFinishTool } from '../../src/main/agent/tools/finish-tool.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import type { Storage } from '../../src/main/storage/index.js';
import type { AnthropicPrompt } from './anthropic-prompt-blocks.js';
import { AnthropicPromptCache, inputTokenEquivalents, type CacheUse, type PromptPrefixes } from './anthropic-prompt-cache.js';
import { HEIGHT, sessionRequest, WIDTH } from './scripted-session.js';
import { bestWindowBreakpoints } from './window-cache-breakpoints.js';

export const ANTHROPIC_PROFILE = resolveModelProfile('claude-sonnet-4-5');

/** Claude Sonnet 4.5's price table (the profile's): what the Anthropic rows are priced by. */
export const ANTHROPIC_PRICING: ModelPricing = (() => {
  if (ANTHROPIC_PROFILE.pricing === undefined) throw new Error(`The model profile of ${ANTHROPIC_PROFILE.model} has no price table.`);
  return ANTHROPIC_PROFILE.pricing;
})();

/** The tools the anthropic-computer dialect declares: Claude's computer tool at the size of the image sent, and Sightline's own. */
const TOOLS: ModelToolDeclaration[] = [
  {
    name: 'computer',
    description: "Claude's computer tool.",
    parameters: { type: 'object' },
    native: { kind: 'anthropic-computer', toolType: ANTHROPIC_PROFILE.anthropicComputerTool ?? 'computer_20250124', displayWidth: WIDTH, displayHeight: HEIGHT },
  },
  toModelTool(createFinishTool()),
  toModelTool(createGetHistoryImageTool()),
  toModelTool(createCropImageTool()),
];

/** The request a policy sends to Claude before this model call, tools included. */
export async function anthropicRequest(
  storage: Storage,
  turnId: string,
  policy: ContextPolicy,
  caches: { imageCache: EncodedImageCache; turnCache?: TurnRequestCache },
): Promise<ModelRequest> {
  const built = await sessionRequest(storage, turnId, { profile: ANTHROPIC_PROFILE, policy, ...caches });
  return { ...built.request, tools: TOOLS, toolChoice: 'auto' };
}

export type Placement = (cache: AnthropicPromptCache, prompt: AnthropicPrompt, next: PromptPrefixes | undefined) => number[];
export const ADAPTER_BREAKPOINTS: Placement = (_cache, prompt) => prompt.adapterBreakpoints;
export const BEST_BREAKPOINTS: Placement = (cache, prompt, next) => bestWindowBreakpoints(cache, prompt.prefixes, next);

/** One policy's requests through its own cache, each sent once the next is known (the best placement looks one request ahead). */
export class PricedPolicy {
  readonly uses: CacheUse[] = [];
  readonly firstOfTurn: boolean[] = [];
  /** Per request, the tokens of its prefix that the request before it also held: what it could read at best. */
  readonly sharedWithPrevious: number[] = [];
  private readonly cache = new AnthropicPromptCache({ minimumCacheableTokens: ANTHROPIC_PRICING.minimumCacheableTokens });
  private pending: { prompt: AnthropicPrompt; firstOfTurn: boolean } | undefined;
  private previous: PromptPrefixes | undefined;
  /** The tokens up to the adapter's first breakpoint (the tools and system prompt) in the first request. */
  systemPrefixTokens = 0;

  constructor(
    readonly name: string,
    readonly breakpoints: string,
    private readonly placement: Placement,
  ) {}

  add(prompt: AnthropicPrompt, firstOfTurn: boolean): void {
    const { prefixes } = prompt;
    if (this.previous === undefined) this.systemPrefixTokens = prefixes.tokensThrough[(prompt.adapterBreakpoints[0] ?? -1) + 1]!;
    this.sharedWithPrevious.push(this.previous === undefined ? 0 : prefixes.tokensThrough[prefixes.sharedBlocks(this.previous)]!);
    this.previous = prefixes;
    this.sendPending(prefixes);
    this.pending = { prompt, firstOfTurn };
  }

  finish(): void {
    this.sendPending(undefined);
  }

  private sendPending(next: PromptPrefixes | undefined): void {
    if (this.pending === undefined) return;
    const { prompt, firstOfTurn } = this.pending;
    this.uses.push(this.cache.send(prompt.prefixes, this.placement(this.cache, prompt, next)));
    this.firstOfTurn.push(firstOfTurn);
    this.pending = undefined;
  }
}

export interface AnthropicTotals {
  inputTokens: number;
  cacheWriteTokens: number;
  cacheReadTokens: number;
  uncachedTokens: number;
  /** Input tokens at the base input price that cost the same: writes 1.25×, reads 0.1×, the rest 1×. */
  equivalents: number;
}

export function anthropicTotalsOf(uses: readonly CacheUse[]): AnthropicTotals {
  const totals: AnthropicTotals = { inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, uncachedTokens: 0, equivalents: 0 };
  for (const use of uses) {
    totals.inputTokens += use.inputTokens;
    totals.cacheWriteTokens += use.cacheWriteTokens;
    totals.cacheReadTokens += use.cacheReadTokens;
    totals.uncachedTokens += use.uncachedTokens;
    totals.equivalents += inputTokenEquivalents(use, ANTHROPIC_PRICING);
  }
  return totals;
}
