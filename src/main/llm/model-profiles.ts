/**
 * What Sightline knows about a model without asking it: how much context it holds, what an image costs,
 * how large an image is worth sending and at which size, which coordinate space its clicks use, which
 * dialect it speaks, and what it can read and produce. Known models are matched by name (provider prefixes
 * such as `openai/` or `Qwen/` are ignored); anything else gets a default profile, and every field can be
 * overridden.
 */
import type { DialectName } from '../../shared/dialects.js';
import type { ModelPricing } from '../../shared/pricing.js';
import type { AnthropicComputerToolType } from '../../shared/providers.js';
import type { CoordinateSpace } from '../../shared/model-view.js';
import type { ImageTokenFormula } from './image-token-estimates.js';
import { modelRowFacts } from './model-table.js';
import type { SmartResizeParameters } from './smart-resize.js';

/**
 * The size a screenshot is sent at, once fitted to the longest edge worth sending (the profile's
 * `maxImageEdge` or `perception.maxImageEdge`, whichever is smaller): `fit-edge` sends the fitted size;
 * `smart-resize` then applies the model's own resize (Qwen2.5-VL, UI-TARS-1.5), so that the model's
 * processor leaves the image as it is and the points it names are pixels of the image sent.
 */
export type ImageSizing = { kind: 'fit-edge' } | ({ kind: 'smart-resize' } & SmartResizeParameters);

export const FIT_EDGE: ImageSizing = { kind: 'fit-edge' };

export type InputModality = 'text' | 'image' | 'audio' | 'file';
export type OutputModality = 'text' | 'image' | 'audio';

export interface ModelProfile {
  /** The model name the profile was resolved for. */
  model: string;
  /** The table entry that matched, or `default`. */
  family: string;
  contextWindow: number;
  imageTokens: ImageTokenFormula;
  /** Longest image edge worth sending; the provider shrinks anything larger anyway. */
  maxImageEdge: number;
  /** How the image sent is sized after fitting that edge. */
  imageSizing: ImageSizing;
  coordinateSpace: CoordinateSpace;
  /**
   * How the model is asked to act and answers (see src/shared/dialects.ts): the protocol it was trained on.
   * In a configured model's profile (configuredModelProfile), the dialect in effect: `model.dialect` when set,
   * and function-tools where this one needs another provider than the configured one.
   */
  dialect: DialectName;
  modalities: { input: readonly InputModality[]; output: readonly OutputModality[] };
  /**
   * The version of Anthropic's computer tool the model was trained on (Claude models only): what the
   * anthropic-computer dialect declares, with its beta header.
   */
  anthropicComputerTool?: AnthropicComputerToolType;
  /**
   * The model refuses a forced `tool_choice` (`any`, or a named tool) with a 400: Claude Opus 5.5, Fable 5.1 and
   * Mythos 5.1 (https://platform.claude.com/docs/en/api/errors, "Forced tool use not supported"). It is asked with
   * `auto` instead.
   */
  refusesForcedToolChoice?: boolean;
  /**
   * The model's thinking blocks are bound to the history before them, and a replayed block whose history changed
   * is refused unless the request says to drop it: Claude Fable 5.1 and Opus 5.5 (the errors page, "Thinking block
   * no longer matches the conversation").
   */
  boundThinking?: boolean;
  /**
   * Whether the model's Gemini computer_use tool takes ENVIRONMENT_DESKTOP: Gemini 3.5 Flash, the one model
   * Google's page names for the desktop (https://ai.google.dev/gemini-api/docs/generate-content/computer-use,
   * read 2026-11-28); the computer-use preview model knows ENVIRONMENT_BROWSER only.
   */
  computerUseDesktop?: boolean;
  /**
   * What the model's tokens cost and how its provider caches them (src/shared/pricing.ts), from the price list
   * by model name (model-table.ts); `model.pricing` replaces it. Absent for a model whose price Sightline does
   * not know: costs are then shown in tokens, and no cache is assumed.
   */
  pricing?: ModelPricing;
}

export { ANTHROPIC_COMPUTER_TOOL_TYPES, type AnthropicComputerToolType } from '../../shared/providers.js';

/**
 * Which computer tool each Claude model takes on the Claude API, first match wins (Anthropic's computer use tool
 * documentation, https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool, read
 * 2026-11-28: "Compatibility" lists the toolset computer_toolset_20260801 for Claude Fable 5 and 5.1, Mythos 5 and
 * 5.1, Opus 4.8 and 5, and Sonnet 5, and the models' migration guides add Opus 5.5, Sonnet 5.5 and Haiku 5.5, which
 * on the Claude API and Google Cloud refuse the earlier tools; "Earlier tool versions" lists computer_20251124 for
 * Opus 4.5, 4.6 and 4.7 and Sonnet 4.6, and computer_20250124 for Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4 and
 * Opus 4; computer_20241022 was Claude Sonnet 3.5's). A Claude model not listed is taken to be newer than the table.
 */
const ANTHROPIC_COMPUTER_TOOLS: ReadonlyArray<{ pattern: RegExp; toolType: AnthropicComputerToolType }> = [
  { pattern: /claude-3-5-sonnet|claude-3\.5-sonnet/, toolType: 'computer_20241022' },
  { pattern: /claude-3-7-sonnet|claude-3\.7-sonnet/, toolType: 'computer_20250124' },
  { pattern: /claude-(opus|sonnet|haiku)-4-[0-4](\b|-|$)|claude-(opus|sonnet|haiku)-4(-\d{8})?$|claude-(opus|sonnet)-4-\d{8}/, toolType: 'computer_20250124' },
  { pattern: /claude-(sonnet|haiku)-4-5/, toolType: 'computer_20250124' },
  { pattern: /claude-opus-4-[567](\b|-|$)|claude-sonnet-4-6(\b|-|$)/, toolType: 'computer_20251124' },
  { pattern: /claude-3/, toolType: 'computer_20241022' },
  { pattern: /claude/, toolType: 'computer_toolset_20260801' },
];

/**
 * Where the toolset is not served, the newest beta tool is: "Platforms other than the Claude API and Google Cloud
 * currently offer only the earlier beta tool versions", and Amazon Bedrock still takes computer_20251124 for the
 * models that refuse it elsewhere (the page above, "Compatibility"; Opus 5.5's migration guide). Bedrock's model
 * ids start `anthropic.` (or a region's `us.anthropic.`, `global.anthropic.` …).
 */
export const TOOLSET_ELSEWHERE: AnthropicComputerToolType = 'computer_20251124';

/** A Bedrock model id (`anthropic.claude-…`, `us.anthropic.claude-…`), or a Bedrock endpoint. */
export function isBedrock(model: string, baseUrl?: string): boolean {
  if (/(^|\.)anthropic\.claude/.test(normalizeModelName(model))) return true;
  if (baseUrl === undefined) return false;
  try {
    return /(^|\.)bedrock(-runtime)?[.-]/.test(new URL(baseUrl).hostname.toLowerCase());
  } catch {
    return false;
  }
}

export type ModelProfileOverrides = Partial<Omit<ModelProfile, 'model' | 'modalities'>> & {
  modalities?: Partial<ModelProfile['modalities']>;
};

/** An entry without `imageSizing` sends images at the fitted size (`fit-edge`). */
type ProfileEntry = Omit<ModelProfile, 'model' | 'imageSizing'> & { pattern: RegExp; imageSizing?: ImageSizing };

const OPENAI_VISION = { input: ['text', 'image', 'file'], output: ['text'] } as const;
const TEXT_ONLY = { input: ['text'], output: ['text'] } as const;
const AUDIO_CHAT = { input: ['text', 'audio'], output: ['text', 'audio'] } as const;

const openAiTiles = (baseTokens: number, tileTokens: number): ImageTokenFormula => ({
  kind: 'openai-tiles',
  baseTokens,
  tileTokens,
});
const openAiPatches = (multiplier: number): ImageTokenFormula => ({ kind: 'openai-patches', multiplier });
const DEFAULT_TILES = openAiTiles(85, 170);
/**
 * UI-TARS-1.5's smart resize: factor 28, 100 to 16384 patches of 28 × 28 px (78,400 to 12,845,056 pixels),
 * the constants of bytedance/UI-TARS codes/ui_tars/action_parser.py and README_coordinates.md.
 */
const UI_TARS_SMART_RESIZE: ImageSizing = { kind: 'smart-resize', factor: 28, minPixels: 100 * 28 * 28, maxPixels: 16384 * 28 * 28 };
/**
 * Qwen2.5-VL's: factor 28 (patch_size 14 × merge_size 2), min_pixels 3136 and max_pixels 12845056 from its
 * preprocessor_config.json, as the Qwen2.5-VL cookbook's computer_use notebook passes them to smart_resize.
 */
const QWEN_2_5_VL_SMART_RESIZE: ImageSizing = { kind: 'smart-resize', factor: 28, minPixels: 3136, maxPixels: 12_845_056 };
/** Qwen-VL: 14 px patches merged 2×2, so 28 px per token; Qwen's default pixel range (4 to 16384 tokens). */
const QWEN_28_PATCHES: ImageTokenFormula = {
  kind: 'patches',
  patchSize: 28,
  tokensPerPatch: 1,
  rounding: 'nearest',
  minPatches: 4,
  maxPatches: 16384,
};

/** Gemini: 258 tokens per 768 px tile. */
const GEMINI_IMAGE_TOKENS: ImageTokenFormula = { kind: 'patches', patchSize: 768, tokensPerPatch: 258, rounding: 'up', minPatches: 1, maxPatches: 64 };

// First match wins, so specific names come before the families that contain them.
const KNOWN_MODELS: readonly ProfileEntry[] = [
  {
    family: 'openai-audio',
    pattern: /^(gpt-4o(-mini)?-(audio|realtime)|gpt-audio|gpt-realtime)/,
    contextWindow: 128_000,
    imageTokens: DEFAULT_TILES,
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: AUDIO_CHAT,
  },
  {
    family: 'gpt-4o-mini',
    pattern: /^gpt-4o-mini/,
    contextWindow: 128_000,
    imageTokens: openAiTiles(2833, 5667),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-4o',
    pattern: /^(chatgpt-)?gpt-4o|^chatgpt-4o/,
    contextWindow: 128_000,
    imageTokens: DEFAULT_TILES,
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-4.1-mini',
    pattern: /^gpt-4\.1-mini/,
    contextWindow: 1_047_576,
    imageTokens: openAiPatches(1.62),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-4.1-nano',
    pattern: /^gpt-4\.1-nano/,
    contextWindow: 1_047_576,
    imageTokens: openAiPatches(2.46),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-4.1',
    pattern: /^gpt-4\.1/,
    contextWindow: 1_047_576,
    imageTokens: DEFAULT_TILES,
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    // The GA `computer` tool's models: OpenAI's computer use guide (developers.openai.com/api/docs/guides/
    // tools-computer-use, read 2026-11-28) trains gpt-5.4 and the models after it for the Responses API's
    // built-in `computer` tool, and its deprecations page names gpt-5.4-mini as computer-use-preview's
    // substitute. Nano, chat and codex variants are not named there: they keep function-tools.
    family: 'gpt-5.4-mini',
    pattern: /^gpt-(5\.([4-9]|[1-9]\d)|[6-9](\.\d+)?)-mini/,
    contextWindow: 400_000,
    imageTokens: openAiPatches(1.62),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'openai-computer',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-5.4',
    pattern: /^gpt-(5\.([4-9]|[1-9]\d)|[6-9](\.\d+)?)(?!.*-(nano|chat|codex|audio|realtime))(-|$)/,
    contextWindow: 400_000,
    imageTokens: openAiTiles(70, 140),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'openai-computer',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-5-mini',
    pattern: /^gpt-5(\.\d+)?-mini/,
    contextWindow: 400_000,
    imageTokens: openAiPatches(1.62),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-5-nano',
    pattern: /^gpt-5(\.\d+)?-nano/,
    contextWindow: 400_000,
    imageTokens: openAiPatches(2.46),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'gpt-5',
    pattern: /^gpt-5/,
    contextWindow: 400_000,
    imageTokens: openAiTiles(70, 140),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'o4-mini',
    pattern: /^o4-mini/,
    contextWindow: 200_000,
    imageTokens: openAiPatches(1.72),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'openai-text-reasoning',
    pattern: /^o[13]-mini/,
    contextWindow: 200_000,
    imageTokens: DEFAULT_TILES,
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: TEXT_ONLY,
  },
  {
    family: 'o1-o3',
    pattern: /^o[13](-pro)?($|-\d)/,
    contextWindow: 200_000,
    imageTokens: openAiTiles(75, 150),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: OPENAI_VISION,
  },
  {
    family: 'computer-use-preview',
    pattern: /^computer-use-preview/,
    contextWindow: 8_192,
    imageTokens: openAiTiles(65, 129),
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    // OpenAI's computer tool over the Responses API (model.api: responses).
    dialect: 'openai-computer',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    family: 'claude',
    pattern: /claude/,
    contextWindow: 200_000,
    imageTokens: { kind: 'anthropic-pixels' },
    maxImageEdge: 1568,
    coordinateSpace: 'pixels',
    // Anthropic's own computer tool, which needs Anthropic's API: behind an OpenAI-compatible gateway a Claude
    // model speaks function-tools instead (configuredDialect in create-model-adapter.ts).
    dialect: 'anthropic-computer',
    modalities: { input: ['text', 'image', 'file'], output: ['text'] },
  },
  {
    // Gemini's computer-use preview model: 128k input tokens, Gemini's computer_use tool, the browser only ("Gemini
    // 2.5 Computer Use model and tool ... in the browser", ENVIRONMENT_BROWSER:
    // https://docs.cloud.google.com/vertex-ai/generative-ai/docs/computer-use, read 2026-11-28).
    family: 'gemini-computer-use',
    pattern: /gemini-2\.5-computer-use/,
    contextWindow: 128_000,
    imageTokens: GEMINI_IMAGE_TOKENS,
    maxImageEdge: 3072,
    coordinateSpace: 'normalized-1000',
    dialect: 'gemini-computer-use',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    // Gemini 3.5 Flash: computer_use built in, with the streamlined functions and their `intent`, for the
    // browser, mobile and desktop environments ("Gemini 3.5 Flash is the recommended model for Computer Use":
    // https://ai.google.dev/gemini-api/docs/generate-content/computer-use, read 2026-11-28). No Google page read
    // says the same of any other 3.x name (3.5 Pro, 3.5 Flash-Lite, 3.6, 3.7, 3.8), so none is claimed here: they
    // fall to the plain `gemini` row below (function-tools). Gemini 3 Flash and 3/3.1 Pro were claimed to carry
    // computer_use for the browser: no Google page read says so, and the claim is gone with its row.
    family: 'gemini-3.5',
    pattern: /gemini-3\.5-flash(?!-lite)(?!.*-image)/,
    contextWindow: 1_048_576,
    imageTokens: GEMINI_IMAGE_TOKENS,
    maxImageEdge: 3072,
    coordinateSpace: 'normalized-1000',
    dialect: 'gemini-computer-use',
    computerUseDesktop: true,
    modalities: { input: ['text', 'image', 'audio', 'file'], output: ['text'] },
  },
  {
    family: 'gemini',
    pattern: /gemini/,
    contextWindow: 1_048_576,
    imageTokens: GEMINI_IMAGE_TOKENS,
    maxImageEdge: 3072,
    coordinateSpace: 'normalized-1000',
    dialect: 'function-tools',
    modalities: { input: ['text', 'image', 'audio', 'file'], output: ['text'] },
  },
  {
    family: 'qwen3-vl',
    pattern: /qwen3-?vl/,
    contextWindow: 262_144,
    // Qwen3-VL: 16 px patches merged 2×2.
    imageTokens: { ...QWEN_28_PATCHES, patchSize: 32 },
    maxImageEdge: 2048,
    // Qwen3-VL names points 0–1000 whatever the image size, so its own resize changes nothing for Sightline.
    coordinateSpace: 'normalized-1000',
    dialect: 'qwen-computer-use',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    family: 'ui-tars-1.5',
    pattern: /ui-tars-1\.5/,
    contextWindow: 128_000,
    imageTokens: QWEN_28_PATCHES,
    maxImageEdge: 2048,
    // Absolute pixels of its smart-resized image: sent at that size, they are pixels of the image sent.
    imageSizing: UI_TARS_SMART_RESIZE,
    coordinateSpace: 'pixels',
    dialect: 'ui-tars',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    // UI-TARS 1.0 (UI-TARS-7B/72B-SFT/DPO) and Doubao-1.5-UI-TARS (`<point>x y</point>`): 0–1000.
    family: 'ui-tars',
    pattern: /ui-tars/,
    contextWindow: 32_768,
    imageTokens: QWEN_28_PATCHES,
    maxImageEdge: 2048,
    coordinateSpace: 'normalized-1000',
    dialect: 'ui-tars',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    family: 'qwen-vl',
    pattern: /qwen2(\.5)?-?vl|qwen-vl/,
    contextWindow: 128_000,
    imageTokens: QWEN_28_PATCHES,
    maxImageEdge: 2048,
    // Absolute pixels of its resized image, whose size the prompt states: sent at that size.
    imageSizing: QWEN_2_5_VL_SMART_RESIZE,
    coordinateSpace: 'pixels',
    dialect: 'qwen-computer-use',
    modalities: { input: ['text', 'image'], output: ['text'] },
  },
  {
    family: 'text-only',
    pattern: /^(gpt-3\.5|deepseek-(chat|reasoner|r1|v3)|qwq|mixtral|qwen2\.5(?!-?vl)|qwen3(?!-?vl)|llama-?3(\.1)?(?![.\d]|-?vision))/,
    contextWindow: 32_768,
    imageTokens: DEFAULT_TILES,
    maxImageEdge: 2048,
    coordinateSpace: 'pixels',
    dialect: 'function-tools',
    modalities: TEXT_ONLY,
  },
];

/** Unknown models are assumed to see images (Sightline is useless to one that cannot): override if not. */
const DEFAULT_PROFILE: Omit<ModelProfile, 'model'> = {
  family: 'default',
  contextWindow: 128_000,
  imageTokens: DEFAULT_TILES,
  maxImageEdge: 2048,
  imageSizing: FIT_EDGE,
  coordinateSpace: 'pixels',
  dialect: 'function-tools',
  modalities: { input: ['text', 'image'], output: ['text'] },
};

export function resolveModelProfile(model: string, overrides: ModelProfileOverrides = {}): ModelProfile {
  const name = normalizeModelName(model);
  const entry = KNOWN_MODELS.find((candidate) => candidate.pattern.test(name));
  const base = entry === undefined ? DEFAULT_PROFILE : withoutPattern(entry);
  const anthropicComputerTool = base.family === 'claude' ? anthropicComputerToolFor(name) : undefined;
  const claudeTraits = base.family === 'claude' ? claudeThinkingTraits(name) : {};
  // The model table's row: its price, and the context window its page states where the family's differs.
  const facts = modelRowFacts(name);
  return {
    ...base,
    ...(anthropicComputerTool === undefined ? {} : { anthropicComputerTool }),
    ...claudeTraits,
    ...facts,
    ...overrides,
    model,
    modalities: { ...base.modalities, ...overrides.modalities },
  };
}

/** The computer tool version a Claude model (by normalized name) takes; on Bedrock, the newest beta tool in place of the toolset. */
export function anthropicComputerToolFor(normalizedName: string): AnthropicComputerToolType | undefined {
  const toolType = ANTHROPIC_COMPUTER_TOOLS.find((candidate) => candidate.pattern.test(normalizedName))?.toolType;
  return toolType === 'computer_toolset_20260801' && isBedrock(normalizedName) ? TOOLSET_ELSEWHERE : toolType;
}

/** What a Claude model refuses of forced tool use and replayed thinking (the profile fields above, with their pages). */
function claudeThinkingTraits(normalizedName: string): Pick<ModelProfile, 'refusesForcedToolChoice' | 'boundThinking'> {
  return {
    ...(/claude-(opus-5-5|fable-5-1|mythos-5-1)/.test(normalizedName) ? { refusesForcedToolChoice: true } : {}),
    ...(/claude-(opus-5-5|fable-5-1)/.test(normalizedName) ? { boundThinking: true } : {}),
  };
}

/** `openai/gpt-4.1` and `Qwen/Qwen2.5-VL-7B-Instruct` name the same models as `gpt-4.1` and `qwen2.5-vl-7b-instruct`. */
function normalizeModelName(model: string): string {
  const lower = model.trim().toLowerCase();
  return lower.slice(lower.lastIndexOf('/') + 1);
}

function withoutPattern(entry: ProfileEntry): Omit<ModelProfile, 'model'> {
  const { pattern: _pattern, imageSizing = FIT_EDGE, ...profile } = entry;
  return { ...profile, imageSizing };
}
