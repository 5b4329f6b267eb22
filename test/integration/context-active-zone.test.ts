/**
 * The running turn's screens at the resolution they are worth (issue 15, item 2), over real storage and the
 * real request builder, step by step as the agent grows a turn: the present screen whole, the first screen and
 * the two before the present as reduced views, older ones folded to placeholders in chunks sized by the price
 * table; error frames whole; every reduced or folded frame named and retrievable in full; the converters'
 * low detail and downscaled copies; reduced views counted at their real cost; the cache boundaries inside the
 * running turn.
 */
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import type { ModelPricing } from '../../src/shared/pricing.js';
import type { Message } from '../../src/shared/messages.js';
import { dispatchToolCall } from '../../src/main/agent/tool-dispatch.js';
import { createGetHistoryImageTool } from '../../src/main/agent/tools/get-history-image-tool.js';
import { createToolRegistry } from '../../src/main/agent/tools/registry.js';
import type { ToolDefinition } from '../../src/main/agent/tools/tool-definition.js';
import { activeZoneShape, chunkCost, foldChunkFor, REDUCED_VIEW_SHARE } from '../../src/main/context/active-zone-shape.js';
import { modelImageSize } from '../../src/main/context/model-image-size.js';
import { buildRequest, type BuiltRequest } from '../../src/main/context/request-builder.js';
import { ShownImages } from '../../src/main/context/shown-images.js';
import { TurnRequestCache } from '../../src/main/context/turn-request-cache.js';
import { anthropicMessagesBody } from '../../src/main/llm/anthropic-messages-adapter.js';
import { cacheBreakpoints } from '../../src/main/llm/anthropic-cache-breakpoints.js';
import { toChatCompletionsMessages } from '../../src/main/llm/chat-completions-messages.js';
import { estimateImageTokens } from '../../src/main/llm/image-token-estimates.js';
import { FIT_EDGE, resolveModelProfile, type ModelProfile } from '../../src/main/llm/model-profiles.js';
import { toResponsesInput } from '../../src/main/llm/responses-input.js';
import type { ImageRecord, SessionRecord, Storage } from '../../src/main/storage/index.js';
import { screenshot } from '../helpers/turn-fixture.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-active-zone');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const automatic = (share: number): ModelPricing => ({
  inputPerMillion: 2,
  cachedInputPerMillion: 2 * share,
  outputPerMillion: 8,
  cacheWriteMultiplier: 1,
  cache: 'automatic',
  minimumCacheableTokens: 1024,
});
const GPT_41 = resolveModelProfile('gpt-4.1');
const CLAUDE = resolveModelProfile('claude-sonnet-4-5');
/** GPT-4.1's formula with a price table of the test's choosing (or none: no cache). */
function priced(pricing: ModelPricing | undefined): ModelProfile {
  const { pricing: _known, ...profile } = GPT_41;
  return pricing === undefined ? profile : { ...profile, pricing };
}

let callNumber = 0;

/** A running turn written as the agent loop writes it, one step at a time. */
class GrowingTurn {
  readonly screens: ImageRecord[] = [];
  private constructor(
    readonly session: SessionRecord,
    readonly turnId: string,
    private readonly size: { width: number; height: number },
  ) {}

  static async start(size = { width: 64, height: 48 }): Promise<GrowingTurn> {
    const session = storage.sessions.create({ title: 'Active zone' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Fill in the form' });
    const growing = new GrowingTurn(session, turn.id, size);
    growing.append({ role: 'user', parts: [{ type: 'text', text: 'Fill in the form' }] });
    const first = await screenshot(storage, session, turn.id, size);
    growing.screens.push(first);
    growing.append({ role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: first.id }] });
    return growing;
  }

  /** One computer call and its result: a new screen, or (`fails`) none and an error on the screen it was tried on. */
  async step(options: { errorResult?: boolean; fails?: boolean } = {}): Promise<void> {
    callNumber += 1;
    const callId = `call_zone_${callNumber}`;
    const action: ComputerAction = { action: 'click', x: 10 + callNumber, y: 20 };
    const seen = this.screens.at(-1)!;
    this.append({ role: 'assistant', parts: [{ type: 'text', text: `Step ${callNumber}.` }], toolCalls: [{ id: callId, name: 'computer', argumentsText: JSON.stringify(action) }] });
    if (options.fails === true) {
      this.append({ role: 'tool', toolCallId: callId, name: 'computer', parts: [{ type: 'text', text: 'The point is outside the screen.' }], isError: true });
      storage.steps.append({ sessionId: this.session.id, turnId: this.turnId, action, screenshotImageId: seen.id, result: { ok: false }, error: 'outside' });
      return;
    }
    const after = await screenshot(storage, this.session, this.turnId, this.size);
    this.screens.push(after);
    const failed = options.errorResult === true;
    this.append({
      role: 'tool',
      toolCallId: callId,
      name: 'computer',
      parts: [{ type: 'text', text: failed ? 'The page shows an error.' : 'done' }, { type: 'image', imageId: after.id }],
      ...(failed ? { isError: true } : {}),
    });
    storage.steps.append({
      sessionId: this.session.id,
      turnId: this.turnId,
      action,
      screenshotImageId: seen.id,
      result: { ok: !failed, screenshotImageId: after.id },
      ...(failed ? { error: 'The page shows an error.' } : {}),
    });
  }

  /** The model asks for an earlier image back: the real get_history_image tool, its result appended. */
  async recall(imageId: string): Promise<void> {
    callNumber += 1;
    const call = { id: `call_zone_${callNumber}`, name: 'get_history_image', argumentsText: JSON.stringify({ image_id: imageId }) };
    this.append({ role: 'assistant', parts: [], toolCalls: [call] });
    const registry = createToolRegistry([createGetHistoryImageTool() as unknown as ToolDefinition]);
    const outcome = await dispatchToolCall(registry, call, {
      sessionId: this.session.id,
      turnId: this.turnId,
      signal: new AbortController().signal,
      storage,
      emit: () => undefined,
      shown: undefined,
      // Shown at their own size: the recall result says nothing of a smaller copy.
      shownImages: ShownImages.of({ maxImageEdge: Number.POSITIVE_INFINITY, imageSizing: FIT_EDGE, coordinateSpace: 'pixels' }),
    });
    this.append({ role: 'tool', toolCallId: call.id, name: call.name, parts: outcome.result.parts });
  }

  build(profile: ModelProfile, extra: { turnCache?: TurnRequestCache; maxImageEdge?: number } = {}): Promise<BuiltRequest> {
    return buildRequest({
      storage,
      sessionId: this.session.id,
      turnId: this.turnId,
      profile,
      maxImageEdge: extra.maxImageEdge ?? 1280,
      systemPrompt: 'System.',
      ...(extra.turnCache === undefined ? {} : { turnCache: extra.turnCache }),
    });
  }

  private append(message: Message): void {
    storage.messages.append({ sessionId: this.session.id, turnId: this.turnId, message });
  }
}

const RECALL = 'get_history_image';

/** How the request shows each screen of the turn: F whole, R reduced view, X folded placeholder (recalls aside). */
function treatments(messages: readonly Message[], screens: readonly ImageRecord[]): string {
  return screens
    .map((screen) => {
      for (const message of messages) {
        if (message.role === 'tool' && message.name === RECALL) continue;
        for (const part of message.parts) {
          if (part.type === 'image' && part.imageId === screen.id) return part.resolution === 'reduced' ? 'R' : 'F';
          if (part.type === 'text' && part.text.startsWith(`[Visual_Placeholder: ${screen.id}] `)) return 'X';
        }
      }
      return '?';
    })
    .join('');
}

describe('the shape of the active zone', () => {
  it('takes the chunk from the price table: larger as cached input gets cheaper, one without a cache', () => {
    expect(foldChunkFor(automatic(0.1), 2)).toBe(4);
    expect(foldChunkFor(automatic(0.25), 2)).toBe(2);
    expect(foldChunkFor(automatic(0.5), 2)).toBe(1);
    expect(foldChunkFor(undefined, 2)).toBe(1);
    expect(foldChunkFor({ ...automatic(0.1), cache: 'none' }, 2)).toBe(1);
    // Anthropic: writes at 1.25× make a fold dearer (five), Anthropic's 20-block lookback caps it at six.
    expect(foldChunkFor(CLAUDE.pricing, 2)).toBe(5);
    expect(foldChunkFor({ ...CLAUDE.pricing!, cachedInputPerMillion: 0.003 }, 2)).toBe(6);
    // The formula of docs/decisions/0032-running-turn-reduced-views.md: the chosen chunk is the cheapest, ties going to the smaller.
    for (const share of [0.1, 0.25, 0.5, 1]) {
      const chosen = foldChunkFor(share === 1 ? undefined : automatic(share), 2);
      for (let chunk = 1; chunk <= 8; chunk += 1) expect(chunkCost(chosen, 2, share, 1)).toBeLessThanOrEqual(chunkCost(chunk, 2, share, 1) + 1e-9);
    }
  });

  it("sizes a reduced view by the profile's formula: OpenAI's low-detail copy, else a small share of a screenshot", () => {
    expect(activeZoneShape(GPT_41, 1280)).toEqual({ recentReducedViews: 2, foldChunk: 2, reducedImageEdge: 512 });
    expect(activeZoneShape(GPT_41, 400).reducedImageEdge).toBe(400);
    for (const profile of [CLAUDE, resolveModelProfile('ui-tars-1.5-7b'), resolveModelProfile('gpt-4.1-mini')]) {
      const { reducedImageEdge } = activeZoneShape(profile, 1280);
      const cost = (edge: number) => estimateImageTokens(profile.imageTokens, modelImageSize(1280, 800, edge, profile.imageSizing));
      expect(cost(reducedImageEdge), profile.model).toBeLessThanOrEqual(cost(1280) * REDUCED_VIEW_SHARE);
      expect(cost(reducedImageEdge + 8), profile.model).toBeGreaterThan(cost(1280) * REDUCED_VIEW_SHARE);
    }
  });
});

describe('the active zone, step by step', () => {
  it('shows the present screen whole, the first and the two before it reduced, and folds the rest four at a time at a 10% cache price', async () => {
    const profile = priced(automatic(0.1));
    const turn = await GrowingTurn.start();
    const expected = ['F', 'RF', 'RRF', 'RRRF', 'RRRRF', 'RRRRRF', 'RRRRRRF', 'RXXXXRRF', 'RXXXXRRRF', 'RXXXXRRRRF', 'RXXXXRRRRRF', 'RXXXXXXXXRRF'];
    const seen: string[] = [];
    for (const [index] of expected.entries()) {
      if (index > 0) await turn.step();
      seen.push(treatments((await turn.build(profile)).request.messages, turn.screens));
    }
    expect(seen).toEqual(expected);
  });

  it('folds every step without a cache, and every two at GPT-4.1’s 25%', async () => {
    const turn = await GrowingTurn.start();
    for (let step = 0; step < 6; step += 1) await turn.step();
    expect(treatments((await turn.build(priced(undefined))).request.messages, turn.screens)).toBe('RXXXRRF');
    expect(treatments((await turn.build(priced(automatic(0.25)))).request.messages, turn.screens)).toBe('RXXRRRF');
    await turn.step();
    expect(treatments((await turn.build(priced(undefined))).request.messages, turn.screens)).toBe('RXXXXRRF');
    expect(treatments((await turn.build(priced(automatic(0.25)))).request.messages, turn.screens)).toBe('RXXXXRRF');
  });

  it('changes the prefix of consecutive requests only at the present screen, and at a fold only after the folded chunks’ end', async () => {
    const profile = priced(automatic(0.1));
    const turn = await GrowingTurn.start();
    const cache = new TurnRequestCache();
    const built: BuiltRequest[] = [];
    for (let step = 0; step < 12; step += 1) {
      if (step > 0) await turn.step();
      built.push(await turn.build(profile, { turnCache: cache }));
    }
    for (let index = 1; index < built.length; index += 1) {
      const previous = built[index - 1]!.request;
      const current = built[index]!.request;
      const boundaries = previous.cacheBoundaries!;
      // The next request repeats this one up to the message before its present screen…
      const stableEnd = boundaries.nextStepPrefixEnd!;
      const folded = treatments(current.messages, turn.screens).replace(/[^X]/g, '').length > treatments(previous.messages, turn.screens).replace(/[^X]/g, '').length;
      const repeatedThrough = folded ? (boundaries.foldedChunksEnd ?? boundaries.earlierTurnsEnd!) : stableEnd;
      expect(JSON.stringify(current.messages.slice(0, repeatedThrough + 1)), `request ${index}`).toBe(JSON.stringify(previous.messages.slice(0, repeatedThrough + 1)));
      // …and the message after it does change (it shows that screen reduced now).
      expect(JSON.stringify(current.messages[stableEnd + 1])).not.toBe(JSON.stringify(previous.messages[stableEnd + 1]));
      // A fold keeps what the previous chunks' end held, and moves that end forward.
      if (folded && boundaries.foldedChunksEnd !== undefined) expect(current.cacheBoundaries!.foldedChunksEnd).toBeGreaterThan(boundaries.foldedChunksEnd);
    }
    // Folds happen at two requests of the twelve (eight screens folded), so the prefix is stable in between.
    const foldedCounts = built.map((request) => treatments(request.request.messages, turn.screens).replace(/[^X]/g, '').length);
    expect(foldedCounts).toEqual([0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 8]);
    // The end of what no fold changes: from the second request (the first screen reduced) to the first fold, the
    // message before the second screen's (the call that led to it); then the folded chunks' end, moving at folds only.
    const chunkEnds = built.map((request) => request.request.cacheBoundaries?.foldedChunksEnd);
    expect(chunkEnds[0]).toBeUndefined();
    const firstScreenMessage = built[1]!.request.messages.findIndex((message) => message.parts.some((part) => part.type === 'image' && part.imageId === turn.screens[0]!.id));
    expect(built[1]!.request.messages[firstScreenMessage + 1]!.role).toBe('assistant');
    expect(chunkEnds.slice(1, 7)).toEqual(Array.from({ length: 6 }, () => firstScreenMessage + 1));
    expect(new Set(chunkEnds.slice(7, 11)).size).toBe(1);
    expect(chunkEnds[7]).toBeGreaterThan(firstScreenMessage);
    expect(chunkEnds[11]).toBeGreaterThan(chunkEnds[10]!);
    // The same rows give the same bytes with and without the turn's cache.
    expect(JSON.stringify((await turn.build(profile)).request)).toBe(JSON.stringify(built.at(-1)!.request));
  });

  it('keeps every screen as it was sent for a model whose thinking is bound to its history: each request extends the last', async () => {
    const bound = resolveModelProfile('claude-opus-5-5');
    expect(bound.boundThinking).toBe(true);
    expect(activeZoneShape(bound, 1280).keepsSentScreens).toBe(true);
    expect(activeZoneShape(CLAUDE, 1280).keepsSentScreens).toBeUndefined();
    const turn = await GrowingTurn.start();
    const built: BuiltRequest[] = [];
    for (let step = 0; step < 10; step += 1) {
      if (step > 0) await turn.step();
      built.push(await turn.build(bound));
    }
    // Ten screens, none reduced or folded (the same turn on Sonnet 4.5 folds and reduces them).
    expect(treatments(built.at(-1)!.request.messages, turn.screens)).toBe('F'.repeat(10));
    expect(treatments((await turn.build(CLAUDE)).request.messages, turn.screens)).not.toBe('F'.repeat(10));
    for (let index = 1; index < built.length; index += 1) {
      const previous = built[index - 1]!.request.messages;
      expect(JSON.stringify(built[index]!.request.messages.slice(0, previous.length)), `request ${index + 1}`).toBe(JSON.stringify(previous));
    }
  });

  it('keeps error frames whole wherever the chunks fold, and the first screen visible', async () => {
    const profile = priced(undefined);
    const turn = await GrowingTurn.start();
    await turn.step();
    await turn.step({ errorResult: true });
    await turn.step();
    await turn.step({ fails: true });
    await turn.step();
    await turn.step();
    await turn.step();
    // Screens: s0, s1, s2 (an error result), s3 (a failed step was tried on it), s4, s5, s6.
    expect(treatments((await turn.build(profile)).request.messages, turn.screens)).toBe('RXFFRRF');
    const built = await turn.build(profile);
    const errorPlaceholders = built.request.messages.flatMap((message) => message.parts).filter((part) => part.type === 'text' && part.text.endsWith('error frame'));
    expect(errorPlaceholders).toEqual([]);
  });

  it("names each reduced view's id in its text and gives a reduced or folded frame back in full with get_history_image", async () => {
    const profile = priced(automatic(0.1));
    const turn = await GrowingTurn.start({ width: 640, height: 400 });
    for (let step = 0; step < 8; step += 1) await turn.step();
    const before = await turn.build(profile);
    expect(treatments(before.request.messages, turn.screens)).toBe('RXXXXRRRF');
    const reduced = turn.screens[6]!;
    const folded = turn.screens[2]!;
    for (const message of before.request.messages) {
      message.parts.forEach((part, index) => {
        if (part.type !== 'image' || part.resolution !== 'reduced') return;
        expect(message.parts[index - 1]).toEqual({ type: 'text', text: `<${part.imageId}> (reduced view; get_history_image ${part.imageId} shows it in full)` });
        expect(part).toMatchObject({ width: 512, height: 320 });
      });
    }
    expect(before.request.messages.some((message) => message.parts.some((part) => part.type === 'text' && part.text.startsWith(`[Visual_Placeholder: ${folded.id}] step `)))).toBe(true);

    await turn.recall(reduced.id);
    await turn.recall(folded.id);
    const after = await turn.build(profile);
    const recalled = after.request.messages.filter((message) => message.role === 'tool' && message.name === RECALL);
    expect(recalled).toHaveLength(2);
    for (const [message, frame] of [[recalled[0]!, reduced], [recalled[1]!, folded]] as const) {
      const image = message.parts.find((part) => part.type === 'image')!;
      expect(image).toMatchObject({ imageId: frame.id, width: 640, height: 400 });
      expect(image.type === 'image' ? image.resolution : 'none').toBeUndefined();
      const read = await storage.images.read(frame.id);
      if (read.status !== 'ok') throw new Error('unreadable');
      const sent = await sharp(Buffer.from(image.type === 'image' ? image.data! : '', 'base64')).raw().toBuffer();
      expect(sent.equals(await sharp(read.bytes).raw().toBuffer())).toBe(true);
    }
    // A recalled frame is the past: the present screen is still the latest screenshot, shown whole.
    expect(after.shown?.imageId).toBe(turn.screens.at(-1)!.id);
    expect(treatments(after.request.messages, turn.screens)).toBe('RXXXXRRRF');
  });
});

describe('reduced views on the wire and in the estimates', () => {
  it("goes to OpenAI at low detail, in Chat Completions and in the Responses API; the present screen at OpenAI's default", async () => {
    const turn = await GrowingTurn.start({ width: 640, height: 400 });
    await turn.step();
    const { messages } = (await turn.build(GPT_41)).request;
    const chatImages = JSON.stringify(toChatCompletionsMessages(messages)).match(/"image_url":\{[^}]*\}/g)!;
    expect(chatImages).toHaveLength(2);
    expect(chatImages[0]).toMatch(/"detail":"low"\}$/);
    expect(chatImages[1]).not.toContain('detail');
    const input = JSON.stringify(toResponsesInput(messages, GPT_41.model));
    expect([...input.matchAll(/"type":"input_image","image_url":"[^"]*","detail":"(\w+)"/g)].map((match) => match[1])).toEqual(['low', 'auto']);
  });

  it('goes to Anthropic as a downscaled copy costing a small share of the full screenshot', async () => {
    const turn = await GrowingTurn.start({ width: 1280, height: 800 });
    await turn.step();
    const built = await turn.build(CLAUDE);
    const body = anthropicMessagesBody(built.request, CLAUDE);
    const images = [...JSON.stringify(body).matchAll(/"type":"image","source":\{"type":"base64","media_type":"image\/\w+","data":"([^"]+)"/g)].map((match) => match[1]!);
    expect(images).toHaveLength(2);
    expect(JSON.stringify(body)).not.toContain('"detail"');
    const sizes = await Promise.all(images.map(async (data) => sharp(Buffer.from(data, 'base64')).metadata()));
    const { reducedImageEdge } = activeZoneShape(CLAUDE, 1280);
    const reduced = modelImageSize(1280, 800, reducedImageEdge, CLAUDE.imageSizing);
    expect(sizes.map((metadata) => [metadata.width, metadata.height])).toEqual([[reduced.width, reduced.height], [1280, 800]]);
    const full = estimateImageTokens(CLAUDE.imageTokens, { width: 1280, height: 800 });
    expect(estimateImageTokens(CLAUDE.imageTokens, reduced)).toBeLessThanOrEqual(full * REDUCED_VIEW_SHARE);
  });

  it('counts a reduced view at its real cost: the base tokens at low detail, the copy’s size elsewhere', async () => {
    const turn = await GrowingTurn.start({ width: 1280, height: 800 });
    const alone = (await turn.build(GPT_41)).tokenReport.sentTokens;
    await turn.step();
    const built = await turn.build(GPT_41);
    // The first screen's message: "The screen now:" and the text before its image, the longer one of a reduced view.
    const label = (id: string) =>
      Math.ceil(`The screen now:<${id}> (reduced view; get_history_image ${id} shows it in full)`.length / 4) - Math.ceil(`The screen now:<${id}>`.length / 4);
    const first = turn.screens[0]!.id;
    // The first screen went whole in the first request; now it costs OpenAI's base tokens alone (85): keeping
    // everything whole would cost its tiles instead.
    const full = estimateImageTokens(GPT_41.imageTokens, { width: 1280, height: 800 });
    expect(full).toBe(1105);
    expect(built.tokenReport.keepEverythingTokens - built.tokenReport.sentTokens).toBe(full - 85 - label(first));
    // The request grew by the new screen whole and the step's text, and shrank by the first screen's reduction.
    const growth = built.tokenReport.sentTokens - alone;
    expect(growth - full - (85 - full) - label(first)).toBeGreaterThan(0);
    expect(growth - full - (85 - full) - label(first)).toBeLessThan(40);

    const claude = await turn.build(CLAUDE);
    const reduced = modelImageSize(1280, 800, activeZoneShape(CLAUDE, 1280).reducedImageEdge, CLAUDE.imageSizing);
    const claudeFull = estimateImageTokens(CLAUDE.imageTokens, { width: 1280, height: 800 });
    expect(claude.tokenReport.keepEverythingTokens - claude.tokenReport.sentTokens).toBe(
      claudeFull - estimateImageTokens(CLAUDE.imageTokens, reduced) - label(first),
    );
  });
});

describe("Anthropic's breakpoints inside the running turn", () => {
  it('rest before the present screen and at the folded chunks’ end, the previously settled turns giving way', async () => {
    const turn = await GrowingTurn.start();
    for (let step = 0; step < 8; step += 1) await turn.step();
    const { request } = await turn.build(CLAUDE);
    const boundaries = request.cacheBoundaries!;
    expect(boundaries.foldedChunksEnd).toBeDefined();
    const presentIndex = request.messages.findIndex((message) => message.parts.some((part) => part.type === 'image' && part.imageId === turn.screens.at(-1)!.id));
    expect(boundaries.nextStepPrefixEnd).toBe(presentIndex - 1);
    // A first turn: the earlier turns end at the system prompt, which keeps its own breakpoint.
    expect(boundaries.earlierTurnsEnd).toBe(0);
    const breakpoints = cacheBreakpoints(request.messages, boundaries);
    expect(breakpoints).toEqual({ systemPrompt: true, messageIndexes: [boundaries.foldedChunksEnd, boundaries.nextStepPrefixEnd] });
    // The present screen's message is not marked: the next request shows it reduced, a write would be wasted.
    expect(breakpoints.messageIndexes).not.toContain(request.messages.length - 1);
    // With all five ends apart, the previously settled turns' end is the one left out (a turn's first request,
    // which has no folded chunk, keeps it) and the system prompt's too.
    const ends = { previouslySettledTurnsEnd: 1, settledTurnsEnd: 2, earlierTurnsEnd: 3 };
    const { foldedChunksEnd, nextStepPrefixEnd } = boundaries as Required<typeof boundaries>;
    expect(cacheBreakpoints(request.messages, { ...ends, foldedChunksEnd, nextStepPrefixEnd })).toEqual({
      systemPrompt: false,
      messageIndexes: [2, 3, foldedChunksEnd, nextStepPrefixEnd],
    });
    expect(cacheBreakpoints(request.messages, { ...ends, nextStepPrefixEnd })).toEqual({ systemPrompt: false, messageIndexes: [1, 2, 3, nextStepPrefixEnd] });
  });
});
