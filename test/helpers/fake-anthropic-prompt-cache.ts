/**
 * Anthropic's prompt caching, simulated for the fake Messages API server (fake-anthropic-server.ts), so a
 * test can see which requests would read from the cache and how much, from the breakpoints the adapter
 * really placed. The rules are those of Anthropic's "Prompt caching" guide,
 * https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching:
 *
 * - "Cache prefixes are created in the following order: tools, system, then messages": a request is a list of
 *   blocks (each tool, each system block, each content block of each message), and a breakpoint — a block with
 *   `cache_control` — caches the prefix of that list up to and including its block.
 * - At most 4 breakpoints per request; more is a 400 invalid_request_error ("A maximum of 4 blocks with
 *   cache_control may be provided"), and `cache_control` is `{type: "ephemeral"}` with an optional `ttl` of
 *   "5m" or "1h".
 * - A prefix shorter than the model's "minimum cacheable prompt length" is not cached even when marked
 *   (1024 tokens for Claude Sonnet 4.5, Sonnet 4, Opus 4.1, Opus 4 and Sonnet 3.7: the default here).
 * - "The system automatically checks for cache hits at all previous content block boundaries (up to
 *   approximately 20 blocks before your explicit breakpoint)": a later request reads the longest prefix, ending
 *   at one of its breakpoints or at most 20 blocks before one, that an earlier request wrote. That is how a
 *   conversation whose breakpoint moves to its newest message each request reads all the last one wrote.
 * - Usage: `cache_read_input_tokens` are the tokens read, `cache_creation_input_tokens` those written past
 *   them up to the last breakpoint, and `input_tokens` the rest, after the last breakpoint ("total input
 *   tokens = cache_read_input_tokens + cache_creation_input_tokens + input_tokens").
 *
 * What is approximate, and why it does not matter for what tests assert (which prefixes match, and that a
 * read is the whole of what an earlier request wrote):
 * - Token counts are estimates: a block's canonical JSON, images left out, at 4 characters per token, plus
 *   each image at width × height / 750 tokens (the "Vision" guide's estimate,
 *   https://docs.anthropic.com/en/docs/build-with-claude/vision), at the size sent (no resize is modelled).
 * - Prefixes compare as canonical JSON (keys sorted, `cache_control` left out: moving a breakpoint does not
 *   change the content before it), together with the model name and each block's message index and role.
 * - Entries never expire (the 5-minute lifetime outlasts any test), and tool_choice, thinking settings and
 *   other parameters the guide says invalidate parts of the cache are not compared.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';

export interface PromptCacheOptions {
  /** Anthropic's minimum cacheable prompt length for the model; default 1024 (Claude Sonnet 4.5). */
  minimumCacheableTokens?: number;
  /** How many blocks before a breakpoint the cache looks for an earlier entry; default 20. */
  lookbackBlocks?: number;
}

export interface CacheUsage {
  inputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
}

export type CacheOutcome = { ok: true; usage: CacheUsage } | { ok: false; message: string };

export const MAX_BREAKPOINTS = 4;
export const CHARACTERS_PER_TOKEN = 4;
export const PIXELS_PER_IMAGE_TOKEN = 750;

interface PromptBlock {
  /** What the block is, as prefixes compare it: canonical JSON with where it stands, without its cache_control. */
  canonical: string;
  tokens: number;
  cacheControl: unknown;
}

/** The prompt cache of one fake server: what its requests wrote, by prefix. */
export class FakePromptCache {
  private readonly written = new Set<string>();
  private readonly minimumTokens: number;
  private readonly lookback: number;

  constructor(options: PromptCacheOptions = {}) {
    this.minimumTokens = options.minimumCacheableTokens ?? 1024;
    this.lookback = options.lookbackBlocks ?? 20;
  }

  /** Reads and writes the cache for one request body, as the API would, and says what its usage reports. */
  async use(body: Record<string, unknown>): Promise<CacheOutcome> {
    const blocks = await promptBlocks(body);
    const breakpoints = blocks.flatMap((block, index) => (block.cacheControl === undefined ? [] : [index + 1]));
    if (breakpoints.length > MAX_BREAKPOINTS) {
      return { ok: false, message: `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.` };
    }
    const invalid = blocks.find((block) => block.cacheControl !== undefined && !isValidCacheControl(block.cacheControl));
    if (invalid !== undefined) return { ok: false, message: `cache_control: invalid value ${JSON.stringify(invalid.cacheControl)}` };

    const prefixKeys = prefixHashes(String(body.model), blocks);
    const prefixTokens = [0];
    for (const block of blocks) prefixTokens.push(prefixTokens.at(-1)! + block.tokens);
    const readEnd = this.longestWrittenPrefix(breakpoints, prefixKeys);
    const cacheable = breakpoints.filter((end) => prefixTokens[end]! >= this.minimumTokens);
    const writeEnd = Math.max(readEnd, ...cacheable);
    for (const end of cacheable) this.written.add(prefixKeys[end]!);
    const total = prefixTokens.at(-1)!;
    const read = prefixTokens[readEnd]!;
    const creation = prefixTokens[writeEnd]! - read;
    return { ok: true, usage: { inputTokens: total - read - creation, cacheReadInputTokens: read, cacheCreationInputTokens: creation } };
  }

  /** The end (a count of blocks) of the longest prefix an earlier request wrote, looked for back from each breakpoint. */
  private longestWrittenPrefix(breakpoints: readonly number[], prefixKeys: readonly string[]): number {
    let longest = 0;
    for (const end of breakpoints) {
      for (let boundary = end; boundary >= Math.max(1, end - this.lookback); boundary -= 1) {
        if (this.written.has(prefixKeys[boundary]!)) {
          longest = Math.max(longest, boundary);
          break;
        }
      }
    }
    return longest;
  }
}

function isValidCacheControl(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { type, ttl, ...rest } = value as Record<string, unknown>;
  return type === 'ephemeral' && (ttl === undefined || ttl === '5m' || ttl === '1h') && Object.keys(rest).length === 0;
}

/** keys[k] names the prefix of the first k blocks (keys[0]: the model alone). */
function prefixHashes(model: string, blocks: readonly PromptBlock[]): string[] {
  const keys = [createHash('sha256').update(model).digest('hex')];
  for (const block of blocks) keys.push(createHash('sha256').update(keys.at(-1)!).update('\n').update(block.canonical).digest('hex'));
  return keys;
}

/** The request as the cache sees it: tools, then system, then every message's content blocks. */
async function promptBlocks(body: Record<string, unknown>): Promise<PromptBlock[]> {
  const entries: Array<{ where: unknown; block: unknown }> = [];
  for (const tool of asArray(body.tools)) entries.push({ where: 'tools', block: tool });
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : asArray(body.system);
  for (const block of system) entries.push({ where: 'system', block });
  asArray(body.messages).forEach((message, index) => {
    const { role, content } = message as { role?: unknown; content?: unknown };
    const blocks = typeof content === 'string' ? [{ type: 'text', text: content }] : asArray(content);
    for (const block of blocks) entries.push({ where: { message: index, role }, block });
  });
  return Promise.all(
    entries.map(async ({ where, block }) => {
      const cacheControl = (block as { cache_control?: unknown } | null)?.cache_control;
      const withoutMark = withoutCacheControl(block);
      const canonical = canonicalJson({ where, block: withoutMark });
      const textTokens = Math.ceil(canonicalJson(withoutImageData(withoutMark)).length / CHARACTERS_PER_TOKEN);
      return { canonical, tokens: textTokens + (await imageTokens(block)), cacheControl };
    }),
  );
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function withoutCacheControl(block: unknown): unknown {
  if (typeof block !== 'object' || block === null) return block;
  const { cache_control: _mark, ...rest } = block as Record<string, unknown>;
  return rest;
}

/** Keys sorted at every level, so two requests holding the same content compare equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(Object.keys(record).sort().map((key) => [key, sortedKeys(record[key])]));
}

/** The block with base64 image data emptied: images are counted by their pixels, not their characters. */
function withoutImageData(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutImageData);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  if (record.type === 'base64' && typeof record.data === 'string') return { ...record, data: '' };
  return Object.fromEntries(Object.entries(record).map(([key, inner]) => [key, withoutImageData(inner)]));
}

/** Every base64 image in the block (tool results hold theirs inside), at width × height / 750 tokens. */
async function imageTokens(value: unknown): Promise<number> {
  if (Array.isArray(value)) return (await Promise.all(value.map(imageTokens))).reduce((sum, tokens) => sum + tokens, 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  const source = record.source as { type?: unknown; data?: unknown } | undefined;
  if (record.type === 'image' && source?.type === 'base64' && typeof source.data === 'string') {
    const { width = 0, height = 0 } = await sharp(Buffer.from(source.data, 'base64')).metadata();
    return Math.ceil((width * height) / PIXELS_PER_IMAGE_TOKEN);
  }
  return imageTokens(Object.values(record));
}
