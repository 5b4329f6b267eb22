/**
 * The fake Messages API's prompt-cache simulation follows Anthropic's rules (test/helpers/fake-anthropic-prompt-cache.ts):
 * prefixes cached at breakpoints in the order tools → system → messages, a later request reading the longest
 * one written at or up to 20 blocks before one of its breakpoints, nothing cached under the minimum length,
 * at most four breakpoints, and usage split into reads, writes and the rest.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FakePromptCache, canonicalJson } from '../helpers/fake-anthropic-prompt-cache.js';

const MARK = { type: 'ephemeral' };
/** 4,000 characters: a thousand-odd tokens at four characters per token. */
const LONG = 'x'.repeat(4000);

function text(value: string, marked = false): Record<string, unknown> {
  return { type: 'text', text: value, ...(marked ? { cache_control: MARK } : {}) };
}

function request(messages: Array<{ role: string; content: unknown[] }>, system: unknown[] = [text(LONG, true)]): Record<string, unknown> {
  return { model: 'claude-sonnet-4-5', max_tokens: 100, tools: [{ name: 'finish', input_schema: { type: 'object' } }], system, messages };
}

/** Tokens of one block as the simulation counts them (its canonical JSON, at four characters per token). */
function tokensOf(block: Record<string, unknown>): number {
  const { cache_control: _mark, ...rest } = block;
  return Math.ceil(canonicalJson(rest).length / 4);
}

describe('the fake prompt cache', () => {
  it('writes at the breakpoints, then reads all the last request wrote when the breakpoint moves to a newer message', async () => {
    const cache = new FakePromptCache();
    const task = text('Open the settings', true);
    const first = await cache.use(request([{ role: 'user', content: [task] }]));
    expect(first.ok && first.usage.cacheReadInputTokens).toBe(0);
    const written = first.ok ? first.usage.cacheCreationInputTokens : 0;
    expect(written).toBeGreaterThan(1000);
    expect(first.ok && first.usage.inputTokens).toBe(0);

    const reply = { type: 'tool_use', id: 'toolu_1', name: 'finish', input: {} };
    const result = { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'done' }] };
    const unmarked = text('Open the settings');
    const second = await cache.use(request([{ role: 'user', content: [unmarked] }, { role: 'assistant', content: [reply] }, { role: 'user', content: [{ ...result, cache_control: MARK }] }]));
    expect(second).toEqual({
      ok: true,
      usage: { cacheReadInputTokens: written, cacheCreationInputTokens: tokensOf(reply) + tokensOf(result), inputTokens: 0 },
    });
  });

  it('counts what follows the last breakpoint as input, and reads nothing once the prefix changes', async () => {
    const cache = new FakePromptCache();
    const messages = [{ role: 'user', content: [text('first', true), text('after the breakpoint')] }];
    const first = await cache.use(request(messages));
    expect(first.ok && first.usage.inputTokens).toBe(tokensOf(text('after the breakpoint')));
    const again = await cache.use(request(messages));
    expect(again.ok && again.usage.cacheCreationInputTokens).toBe(0);
    expect(again.ok && again.usage.cacheReadInputTokens).toBe(first.ok ? first.usage.cacheCreationInputTokens : -1);
    // Another system prompt: tools come before it, so only they could match, and they were never a breakpoint.
    const changed = await cache.use(request(messages, [text(`${LONG}!`, true)]));
    expect(changed.ok && changed.usage.cacheReadInputTokens).toBe(0);
  });

  it('compares content, not key order or where the breakpoint marks were', async () => {
    const cache = new FakePromptCache();
    await cache.use(request([{ role: 'user', content: [text('a', true)] }]));
    const reordered = await cache.use({
      messages: [{ content: [{ text: 'a', type: 'text' }, text('b', true)], role: 'user' }],
      system: [{ cache_control: MARK, text: LONG, type: 'text' }],
      tools: [{ input_schema: { type: 'object' }, name: 'finish' }],
      max_tokens: 100,
      model: 'claude-sonnet-4-5',
    });
    expect(reordered.ok && reordered.usage.cacheReadInputTokens).toBeGreaterThan(1000);
    expect(reordered.ok && reordered.usage.cacheCreationInputTokens).toBe(tokensOf(text('b')));
  });

  it('caches nothing shorter than the minimum cacheable length, and looks back at most 20 blocks', async () => {
    const short = new FakePromptCache();
    const tiny = request([{ role: 'user', content: [text('hi', true)] }], [text('be brief', true)]);
    expect(await short.use(tiny)).toMatchObject({ ok: true, usage: { cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } });
    expect(await short.use(tiny)).toMatchObject({ ok: true, usage: { cacheReadInputTokens: 0, cacheCreationInputTokens: 0 } });

    const cache = new FakePromptCache({ minimumCacheableTokens: 1 });
    const start = [text('0', true)];
    await cache.use(request([{ role: 'user', content: start }], [text('system')]));
    const blocks = (count: number) => [text('0'), ...Array.from({ length: count }, (_, index) => text(String(index + 1), index === count - 1))];
    const near = await cache.use(request([{ role: 'user', content: blocks(20) }], [text('system')]));
    expect(near.ok && near.usage.cacheReadInputTokens).toBeGreaterThan(0);
    const far = new FakePromptCache({ minimumCacheableTokens: 1 });
    await far.use(request([{ role: 'user', content: start }], [text('system')]));
    const tooFar = await far.use(request([{ role: 'user', content: blocks(21) }], [text('system')]));
    expect(tooFar.ok && tooFar.usage.cacheReadInputTokens).toBe(0);
  });

  it('refuses more than four breakpoints and a cache_control it does not know, as the API does', async () => {
    const cache = new FakePromptCache();
    const five = request([{ role: 'user', content: [text('1', true), text('2', true), text('3', true), text('4', true)] }]);
    expect(await cache.use(five)).toEqual({ ok: false, message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' });
    const wrong = request([{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'persistent' } }] }]);
    expect(await cache.use(wrong)).toMatchObject({ ok: false });
    const hour = request([{ role: 'user', content: [{ type: 'text', text: 'x', cache_control: { type: 'ephemeral', ttl: '1h' } }] }]);
    expect(await cache.use(hour)).toMatchObject({ ok: true });
  });

  it('counts an image at width × height / 750 tokens, inside a tool result too', async () => {
    const png = await sharp({ create: { width: 300, height: 250, channels: 3, background: '#fff' } }).png().toBuffer();
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } };
    const cache = new FakePromptCache();
    const withImage = await cache.use(request([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [image] }] }], []));
    const withoutData = { type: 'tool_result', tool_use_id: 't', content: [{ ...image, source: { ...image.source, data: '' } }] };
    expect(withImage.ok && withImage.usage.inputTokens).toBe(
      tokensOf({ name: 'finish', input_schema: { type: 'object' } }) + tokensOf(withoutData) + (300 * 250) / 750,
    );
  });
});
