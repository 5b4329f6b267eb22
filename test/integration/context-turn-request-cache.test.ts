/**
 * The turn's request cache: a build with it sends the same bytes as a build without it, at every step of
 * a multi-turn session (compaction at each turn boundary, a failed step, a user picture, ephemeral context,
 * a token budget tight enough to fold images and whole turns, rows of other turns written mid-turn); and
 * through the real loop, a step reads no row of an earlier turn, however many turns came before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { EphemeralContext } from '../../src/shared/ephemeral.js';
import { userText, type Message, type MessagePart } from '../../src/shared/messages.js';
import { compactTurn } from '../../src/main/context/compact-turn.js';
import { EncodedImageCache } from '../../src/main/context/encoded-image-cache.js';
import { buildRequest, type BuildRequestInput, type BuiltRequest } from '../../src/main/context/request-builder.js';
import { TurnRequestCache } from '../../src/main/context/turn-request-cache.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { SessionRecord, Storage, TurnRecord } from '../../src/main/storage/index.js';
import { computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { screenshot } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-turn-cache');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');
const NOTE: EphemeralContext = { type: 'note', content: 'The save button is blue.' };

/** A session written step by step the way the loop writes it, with a build before every model call. */
class ScriptedSession {
  readonly session: SessionRecord;
  private calls = 0;
  private seen: string | undefined;

  constructor(private readonly into: Storage) {
    this.session = into.sessions.create({ title: 'Turn cache' });
  }

  async startTurn(request: string, extraParts: MessagePart[] = []): Promise<TurnRecord> {
    const turn = this.into.turns.start({ sessionId: this.session.id, userRequest: request });
    this.append(turn.id, { role: 'user', parts: [{ type: 'text', text: request }, ...extraParts] });
    const first = await screenshot(this.into, this.session, turn.id);
    this.append(turn.id, { role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: first.id }] });
    this.seen = first.id;
    return turn;
  }

  async step(turnId: string, options: { fails?: boolean } = {}): Promise<void> {
    this.calls += 1;
    const callId = `call_cache_${this.calls}`;
    const action = { action: 'click' as const, x: 10 + this.calls, y: 20 };
    this.append(turnId, { role: 'assistant', parts: [{ type: 'text', text: `Click ${this.calls}.` }], toolCalls: [{ id: callId, name: 'computer', argumentsText: JSON.stringify(action) }] });
    if (options.fails === true) {
      this.append(turnId, { role: 'tool', toolCallId: callId, name: 'computer', parts: [{ type: 'text', text: 'Outside the screen.' }], isError: true });
      this.into.steps.append({ sessionId: this.session.id, turnId, action, screenshotImageId: this.seen ?? null, result: { ok: false }, error: 'Outside the screen.' });
      return;
    }
    const after = await screenshot(this.into, this.session, turnId);
    this.append(turnId, { role: 'tool', toolCallId: callId, name: 'computer', parts: [{ type: 'text', text: 'done' }, { type: 'image', imageId: after.id }] });
    this.into.steps.append({ sessionId: this.session.id, turnId, action, screenshotImageId: this.seen ?? null, result: { ok: true, screenshotImageId: after.id } });
    this.seen = after.id;
  }

  async endTurn(turnId: string, summary: string): Promise<void> {
    this.calls += 1;
    const callId = `call_cache_${this.calls}`;
    this.append(turnId, { role: 'assistant', parts: [], toolCalls: [{ id: callId, name: 'finish', argumentsText: JSON.stringify({ summary, success: true }) }] });
    this.append(turnId, { role: 'tool', toolCallId: callId, name: 'finish', parts: [{ type: 'text', text: 'Turn finished.' }] });
    this.into.steps.append({ sessionId: this.session.id, turnId, action: { tool: 'finish', arguments: { summary } }, result: { ok: true } });
    this.into.turns.end(turnId, 'finished');
    // Compaction at the turn boundary, as the turn-end hook runs it.
    await compactTurn({ storage: this.into, turnId });
  }

  append(turnId: string | null, message: Message): void {
    this.into.messages.append({ sessionId: this.session.id, turnId, message });
  }
}

interface Caches {
  turnCache: TurnRequestCache;
  imageCache: EncodedImageCache;
}

/** Everything a build returns, or the error it threw, as text to compare. */
async function outcomeOf(build: Promise<BuiltRequest>): Promise<string> {
  try {
    const built = await build;
    return JSON.stringify(built);
  } catch (error) {
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

interface SessionRun {
  /** [with the cache, without] at every step. */
  pairs: [string, string][];
}

/** Four turns of four steps with builds before every model call; one cache per turn unless `shareCache`. */
async function runSession(options: { tokenBudget?: number; shareCache?: boolean }): Promise<SessionRun> {
  const scripted = new ScriptedSession(storage);
  const picture = await storage.images.put({
    sessionId: scripted.session.id,
    turnId: null,
    bytes: await makePng({ width: 40, height: 30, seed: 7 }),
    mime: 'image/png',
    width: 40,
    height: 30,
    source: 'user',
  });
  const pairs: [string, string][] = [];
  const shared: Caches = { turnCache: new TurnRequestCache(), imageCache: new EncodedImageCache() };
  const turns: { request: string; failing?: number; parts?: MessagePart[]; ephemeral?: EphemeralContext[] }[] = [
    { request: 'Open the settings', parts: [{ type: 'image', imageId: picture.id }] },
    { request: 'Change the theme', failing: 1 },
    { request: 'Save the file', ephemeral: [NOTE] },
    { request: 'Close the window' },
  ];
  for (const plan of turns) {
    const turn = await scripted.startTurn(plan.request, plan.parts);
    const caches = options.shareCache === true ? shared : { turnCache: new TurnRequestCache(), imageCache: new EncodedImageCache() };
    const input: BuildRequestInput = {
      storage,
      sessionId: scripted.session.id,
      turnId: turn.id,
      profile,
      maxImageEdge: 1280,
      systemPrompt: 'System.',
      context: { ...DEFAULT_CONFIG.context, ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }) },
      ...(plan.ephemeral === undefined ? {} : { ephemeral: plan.ephemeral }),
    };
    const compare = async () => {
      const cached = await outcomeOf(buildRequest({ ...input, ...caches }));
      pairs.push([cached, await outcomeOf(buildRequest(input))]);
    };
    for (let index = 0; index < 4; index += 1) {
      await compare();
      await scripted.step(turn.id, { fails: index === plan.failing });
    }
    await compare();
    await scripted.endTurn(turn.id, `${plan.request}: done.`);
  }
  return { pairs };
}

describe('a build with the turn request cache', () => {
  it('sends the same bytes as a build without it, at every step of a multi-turn session', async () => {
    const { pairs } = await runSession({});
    expect(pairs).toHaveLength(20);
    for (const [index, [cached, fresh]] of pairs.entries()) expect(cached, `step ${index}`).toBe(fresh);
    const last = JSON.parse(pairs.at(-1)![0]) as BuiltRequest;
    const lastTexts = last.request.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
    // Earlier turns are folded, the user's picture named, and the third turn's note did not reach history.
    expect(lastTexts.some((text) => text.startsWith('[Visual_Placeholder: '))).toBe(true);
    expect(lastTexts.some((text) => text.startsWith('[Picture:history_'))).toBe(true);
    expect(lastTexts.some((text) => text.includes(NOTE.content))).toBe(false);
    // The note was in every request of its own turn.
    expect(pairs.slice(10, 15).every(([cached]) => cached.includes(NOTE.content))).toBe(true);
  });

  it('sends the same bytes when one cache is handed every turn of the session (it starts over at each)', async () => {
    const { pairs } = await runSession({ shareCache: true });
    for (const [index, [cached, fresh]] of pairs.entries()) expect(cached, `step ${index}`).toBe(fresh);
  });

  it('does not hide a budget fold: images of the running turn and whole earlier turns fold the same with it', async () => {
    const { pairs } = await runSession({ tokenBudget: 1600 });
    for (const [index, [cached, fresh]] of pairs.entries()) expect(cached, `step ${index}`).toBe(fresh);
    const sent = pairs.map(([cached]) => cached);
    // The budget bit: earlier turns were reduced to one line, and the running turn's images folded.
    expect(sent.some((outcome) => outcome.includes('[Turn 1 · finished · \\"Open the settings\\"'))).toBe(true);
    expect(sent.filter((outcome) => !outcome.startsWith('error')).length).toBeGreaterThan(10);
  });

  it('sends the same bytes when rows of other turns are written during the running turn', async () => {
    const scripted = new ScriptedSession(storage);
    const first = await scripted.startTurn('First');
    await scripted.step(first.id);
    await scripted.endTurn(first.id, 'First done.');
    const second = await scripted.startTurn('Second');
    const input: BuildRequestInput = { storage, sessionId: scripted.session.id, turnId: second.id, profile, maxImageEdge: 1280, systemPrompt: 'System.' };
    const caches: Caches = { turnCache: new TurnRequestCache(), imageCache: new EncodedImageCache() };
    const same = async () => expect(await outcomeOf(buildRequest({ ...input, ...caches }))).toBe(await outcomeOf(buildRequest(input)));
    await same();
    await scripted.step(second.id);
    await same();
    // A late note on the first turn and a row without a turn (older data), after the running turn's rows.
    scripted.append(first.id, { role: 'user', parts: [{ type: 'text', text: 'A late note on the first turn.' }] });
    await same();
    scripted.append(null, { role: 'user', parts: [{ type: 'text', text: 'A row without a turn.' }] });
    await same();
    await scripted.step(second.id);
    await same();
  });
});

describe("the present screen's reduced view, prepared while the model thinks", () => {
  it('is ready when the next request shows it: that build reads only the new screenshot, and sends the same bytes', async () => {
    const scripted = new ScriptedSession(storage);
    const turn = await scripted.startTurn('Open the settings');
    const input: BuildRequestInput = { storage, sessionId: scripted.session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'System.' };
    const caches: Caches = { turnCache: new TurnRequestCache(), imageCache: new EncodedImageCache() };
    const first = await buildRequest({ ...input, ...caches });
    const present = first.shown!.imageId;
    const encodedBefore = caches.imageCache.size;
    await first.prepareNextRequest();
    expect(caches.imageCache.size).toBe(encodedBefore + 1);

    await scripted.step(turn.id);
    const reads = vi.spyOn(storage.images, 'read');
    const second = await buildRequest({ ...input, ...caches });
    expect(reads.mock.calls.map(([imageId]) => imageId)).toEqual([second.shown!.imageId]);
    reads.mockRestore();
    // The screen the first request showed whole is now a reduced view, from the copy made ahead.
    const reducedLabels = second.request.messages.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'image' && part.resolution === 'reduced' ? [part.imageId] : [])),
    );
    expect(reducedLabels).toEqual([present]);
    expect(await outcomeOf(Promise.resolve(second))).toBe(await outcomeOf(buildRequest(input)));
  });

  it('is not made for a build without a turn image cache, nor outside Sightline\'s zones', async () => {
    const scripted = new ScriptedSession(storage);
    const turn = await scripted.startTurn('Open the settings');
    const input: BuildRequestInput = { storage, sessionId: scripted.session.id, turnId: turn.id, profile, maxImageEdge: 1280, systemPrompt: 'System.' };
    const plain = await buildRequest(input);
    const reads = vi.spyOn(storage.images, 'read');
    await plain.prepareNextRequest();
    expect(reads).not.toHaveBeenCalled();
    const imageCache = new EncodedImageCache();
    const keepAll = await buildRequest({ ...input, imageCache, policy: { kind: 'keep-all' } });
    const encoded = imageCache.size;
    reads.mockClear();
    await keepAll.prepareNextRequest();
    expect(reads).not.toHaveBeenCalled();
    expect(imageCache.size).toBe(encoded);
    reads.mockRestore();
  });
});

/** Rows of turns other than the running one that storage handed out, counted as they are read. */
interface EarlierRowCounter {
  runningTurnId: string | undefined;
  rows: number;
}

function countEarlierRows(into: Storage): EarlierRowCounter {
  const counter: EarlierRowCounter = { runningTurnId: undefined, rows: 0 };
  const count = (result: unknown, turnOf: (row: never) => string | null) => {
    const rows = Array.isArray(result) ? result : result === undefined ? [] : [result];
    for (const row of rows as never[]) if (turnOf(row) !== counter.runningTurnId) counter.rows += 1;
  };
  const wrap = <Repository extends object>(repository: Repository, names: (keyof Repository)[], turnOf: (row: never) => string | null) => {
    for (const name of names) {
      const original = repository[name] as (...parameters: unknown[]) => unknown;
      Object.assign(repository, {
        [name]: (...parameters: unknown[]) => {
          const result = original.apply(repository, parameters);
          count(result, turnOf);
          return result;
        },
      });
    }
  };
  const byTurnId = (row: { turnId: string | null }) => row.turnId;
  wrap(into.messages, ['get', 'listBySession', 'listBySessionAfter', 'listByTurn'], byTurnId);
  wrap(into.images, ['get', 'listBySession', 'listByTurn'], byTurnId);
  wrap(into.steps, ['get', 'listBySession', 'listByTurn'], byTurnId);
  wrap(into.turns, ['get', 'listBySession', 'latest'], (turn: { id: string }) => turn.id);
  const start = into.turns.start.bind(into.turns);
  into.turns.start = (turn) => {
    const started = start(turn);
    counter.runningTurnId = started.id;
    return started;
  };
  return counter;
}

describe('a step of the agent loop', () => {
  let harness: AgentHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('reads no row of an earlier turn once its turn has begun, however many turns came before', { timeout: 60_000 }, async () => {
    const turns = 5;
    const stepsPerTurn = 4;
    harness = await startAgentHarness({ operator: { screen: { width: 160, height: 100 } } });
    const counter = countEarlierRows(harness.storage);
    // Earlier-turn rows read during each step, sampled as each model call arrives: [turn][step].
    const readsPerStep: number[][] = [];
    const sample = (turn: number) => () => {
      (readsPerStep[turn] ??= []).push(counter.rows);
      counter.rows = 0;
    };
    const script = [];
    for (let turn = 0; turn < turns; turn += 1) {
      for (let step = 0; step < stepsPerTurn - 1; step += 1) {
        const reply = computerCall({ action: 'click', x: 10 + step, y: 10 + turn });
        script.push(() => (sample(turn)(), reply));
      }
      const finish = finishCall(`Turn ${turn + 1} done.`);
      script.push(() => (sample(turn)(), finish));
    }
    harness.server.script(script);

    let sessionId: string | undefined;
    for (let turn = 0; turn < turns; turn += 1) {
      const outcome = await harness.agent.runTurn({ request: userText(`Task ${turn + 1}`), ...(sessionId === undefined ? {} : { sessionId }) });
      expect(outcome.status).toBe('finished');
      sessionId = outcome.sessionId;
      await compactTurn({ storage: harness.storage, turnId: outcome.turnId });
    }

    expect(readsPerStep).toHaveLength(turns);
    // The first call of a turn reads the earlier turns once (its cache is filled); later steps read none.
    for (const perStep of readsPerStep) expect(perStep.slice(1)).toEqual(perStep.slice(1).map(() => 0));
    // The counter sees earlier rows when they are read: a build without the cache reads them all again.
    counter.rows = 0;
    const latest = harness.storage.turns.latest(sessionId!)!;
    counter.runningTurnId = latest.id;
    await buildRequest({ storage: harness.storage, sessionId: sessionId!, turnId: latest.id, profile, maxImageEdge: 1280, systemPrompt: 'System.' });
    expect(counter.rows).toBeGreaterThan(turns * stepsPerTurn);
  });
});
