/**
 * The request builder's zones over real storage: the active turn's present screen whole and the screens before
 * it as reduced views (context-active-zone.test.ts goes further), earlier turns folded with their
 * anchors whole only in the most recent ones, the same bytes before and after compaction, id tokens before
 * every image, the comparison policies; and, through the real agent loop, byte-identical prefixes within a
 * turn but for the previous present screen, with history changing only at the turn boundary.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { userText, type Message } from '../../src/shared/messages.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { compactTurn } from '../../src/main/context/compact-turn.js';
import { CompactionQueue } from '../../src/main/context/compaction-queue.js';
import { buildRequest, type BuildRequestInput } from '../../src/main/context/request-builder.js';
import { anchorResolutionFor } from '../../src/main/context/earlier-turns-shape.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { ImageRecord, SessionRecord, Storage } from '../../src/main/storage/index.js';
import { chatMessages, computerCall, contentText, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { expectExtendsButForPresentScreen } from '../helpers/request-prefix.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { recordTurn, type FixtureTurn } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-zones');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');

interface Session {
  session: SessionRecord;
  earlier: FixtureTurn[];
  active: FixtureTurn;
}

/** Three finished turns (the second with a failed step) and a running one. */
async function seedSession(): Promise<Session> {
  const session = storage.sessions.create({ title: 'Zones' });
  const earlier = [
    await recordTurn(storage, session, { request: 'First', steps: [{}, {}, {}] }),
    await recordTurn(storage, session, { request: 'Second', steps: [{}, { fails: true }, {}] }),
    await recordTurn(storage, session, { request: 'Third', steps: [{}, {}, {}] }),
  ];
  const active = await recordTurn(storage, session, { request: 'Fourth', steps: [{}, {}], status: 'running' });
  return { session, earlier, active };
}

function input(seeded: Session, extra: Partial<BuildRequestInput> = {}): BuildRequestInput {
  return { storage, sessionId: seeded.session.id, turnId: seeded.active.turn.id, profile, maxImageEdge: 1280, systemPrompt: 'System.', ...extra };
}

function sentImageIds(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : [])));
}

function texts(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
}

const ids = (images: readonly ImageRecord[]) => images.map((image) => image.id);

describe('the zones of a request', () => {
  it("sends the active turn's present screen whole and the ones before it reduced, anchors of the latest earlier turn whole, and placeholders for everything else, older turns' in one line", async () => {
    const seeded = await seedSession();
    const [first, second, third] = seeded.earlier as [FixtureTurn, FixtureTurn, FixtureTurn];
    const built = await buildRequest(input(seeded));
    const sent = sentImageIds(built.request.messages);
    const thirdShots = third.screenshots;
    // The latest earlier turn's anchors whole, and its screen before the last as a reduced view: the handover.
    expect(sent).toEqual([thirdShots[0]!.id, thirdShots.at(-2)!.id, thirdShots.at(-1)!.id, ...ids(seeded.active.screenshots)]);

    const allTexts = texts(built.request.messages);
    // The latest earlier turn's other images are captioned placeholders, one line each…
    for (const image of thirdShots.slice(1, -2)) {
      const placeholder = allTexts.find((text) => text.startsWith(`[Visual_Placeholder: ${image.id}] `));
      expect(placeholder, image.id).toMatch(/ · \d\d:\d\d:\d\d · 64×48/);
    }
    // …older turns name all theirs in one line, oldest first (issue 15: a line each cost more than a window);
    // the failed step's frame is marked, so the model knows it may want it back.
    const failedFrame = second.screenshots[1]!;
    expect(allTexts).toContain(`[Visual_Placeholders: ${ids(first.screenshots).join(' ')}] turn 1's images, oldest first`);
    const secondNames = ids(second.screenshots).map((id) => (id === failedFrame.id ? `${id} (error frame)` : id));
    expect(allTexts).toContain(`[Visual_Placeholders: ${secondNames.join(' ')}] turn 2's images, oldest first`);
    for (const image of [...first.screenshots, ...second.screenshots]) {
      expect(allTexts.filter((text) => text.includes(image.id)), image.id).toHaveLength(1);
    }
    // Text is kept: every request and summary of earlier turns is still there.
    for (const request of ['First', 'Second', 'Third', 'Fourth']) expect(allTexts).toContain(request);

    // Every image is preceded by its id token; a reduced view's says it is one and how to get it in full.
    for (const message of built.request.messages) {
      message.parts.forEach((part, index) => {
        if (part.type !== 'image') return;
        const label = part.resolution === 'reduced' ? `<${part.imageId}> (reduced view; get_history_image ${part.imageId} shows it in full)` : `<${part.imageId}>`;
        expect(message.parts[index - 1]).toEqual({ type: 'text', text: label });
      });
    }
    // The running turn's present screen goes whole, the screens before it as reduced views (issue 15).
    const resolutions = new Map(
      built.request.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'image' ? [[part.imageId, part.resolution ?? 'full'] as const] : []))),
    );
    expect(ids(seeded.active.screenshots).map((id) => resolutions.get(id))).toEqual(['reduced', 'reduced', 'full']);
    expect([thirdShots[0]!.id, thirdShots.at(-2)!.id, thirdShots.at(-1)!.id].map((id) => resolutions.get(id))).toEqual(['full', 'reduced', 'full']);
    const total = [...seeded.earlier, seeded.active].reduce((count, turn) => count + turn.screenshots.length, 0);
    expect(built.tokenReport).toMatchObject({ imagesSent: sent.length, imagesFolded: total - sent.length });
    expect(built.tokenReport.keepEverythingTokens).toBeGreaterThan(built.tokenReport.sentTokens);
  });

  it('tells the adapter where the earlier turns end: the message before the running turn\'s request', async () => {
    const seeded = await seedSession();
    const built = await buildRequest(input(seeded));
    const end = built.request.cacheBoundaries?.earlierTurnsEnd;
    expect(end).toBeDefined();
    const messages = built.request.messages;
    expect(texts([messages[end! + 1]!])).toContain('Fourth');
    expect(texts(messages.slice(0, end! + 1))).not.toContain('Fourth');
    expect(texts(messages.slice(0, end! + 1))).toContain('Third');

    // A first turn has only the system prompt before it.
    const alone = storage.sessions.create({ title: 'Alone' });
    const only = await recordTurn(storage, alone, { request: 'Only', steps: [{}], status: 'running' });
    const first = await buildRequest({ ...input(seeded), sessionId: alone.id, turnId: only.turn.id });
    // …and, within the running turn, the message before the present screen's (the next request shows it reduced),
    // which is also where what no fold changes ends: the first screen is all that comes before.
    const beforePresent = first.request.messages.length - 2;
    expect(first.request.cacheBoundaries).toEqual({ earlierTurnsEnd: 0, foldedChunksEnd: beforePresent, nextStepPrefixEnd: beforePresent });
    expect(first.request.messages[0]!.role).toBe('system');
  });

  it('tells the adapter which earlier turns compaction will not change again, and which the previous turn saw so', async () => {
    const seeded = await seedSession();
    // Three earlier turns, one anchor turn: First and Second are settled; as Third ran, only First was.
    const built = await buildRequest(input(seeded));
    const { earlierTurnsEnd, settledTurnsEnd, previouslySettledTurnsEnd } = built.request.cacheBoundaries ?? {};
    const messages = built.request.messages;
    expect(texts([messages[previouslySettledTurnsEnd! + 1]!])).toContain('Second');
    expect(texts(messages.slice(0, previouslySettledTurnsEnd! + 1))).toContain('First');
    expect(texts([messages[settledTurnsEnd! + 1]!])).toContain('Third');
    expect(texts(messages.slice(0, settledTurnsEnd! + 1))).toContain('Second');
    expect(settledTurnsEnd).toBeLessThan(earlierTurnsEnd!);

    // What a turn's requests hold up to their settled end is what the next turn's hold up to its previously
    // settled end, byte for byte, once the turn has ended and been compacted.
    const session = storage.sessions.create({ title: 'Turn after turn' });
    const finished = [await recordTurn(storage, session, { request: 'One' }), await recordTurn(storage, session, { request: 'Two' })];
    const running = await recordTurn(storage, session, { request: 'Three', steps: [{}, {}], status: 'running' });
    const during = await buildRequest({ ...input(seeded), sessionId: session.id, turnId: running.turn.id });
    storage.turns.end(running.turn.id, 'finished');
    for (const turn of [...finished, running]) await compactTurn({ storage, turnId: turn.turn.id });
    const next = await recordTurn(storage, session, { request: 'Four', status: 'running' });
    const after = await buildRequest({ ...input(seeded), sessionId: session.id, turnId: next.turn.id });
    const written = during.request.cacheBoundaries?.settledTurnsEnd;
    expect(written).toBeDefined();
    expect(after.request.cacheBoundaries?.previouslySettledTurnsEnd).toBe(written);
    expect(after.request.cacheBoundaries?.settledTurnsEnd).toBeGreaterThan(written!);
    expect(JSON.stringify(after.request.messages.slice(0, written! + 1))).toBe(JSON.stringify(during.request.messages.slice(0, written! + 1)));
    // Beyond it the history did change: the turn that left the anchor turns folded its anchors.
    const changedFrom = after.request.cacheBoundaries!.earlierTurnsEnd!;
    expect(JSON.stringify(after.request.messages.slice(0, changedFrom))).not.toBe(JSON.stringify(during.request.messages.slice(0, changedFrom)));

    // Without anchor turns every earlier turn is settled; the comparison windows have no zones to tell of.
    const noAnchors = await buildRequest(input(seeded, { context: { ...DEFAULT_CONFIG.context, anchorTurns: 0 } }));
    expect(noAnchors.request.cacheBoundaries?.settledTurnsEnd).toBe(noAnchors.request.cacheBoundaries?.earlierTurnsEnd);
    const window = await buildRequest(input(seeded, { policy: { kind: 'keep-last', images: 3 } }));
    expect(Object.keys(window.request.cacheBoundaries ?? {})).toEqual(['earlierTurnsEnd']);
  });

  it('renders the same bytes before and after the earlier turns are compacted', async () => {
    const seeded = await seedSession();
    const before = await buildRequest(input(seeded));
    for (const turn of seeded.earlier) await compactTurn({ storage, turnId: turn.turn.id });
    const after = await buildRequest(input(seeded));
    expect(JSON.stringify(after.request)).toBe(JSON.stringify(before.request));
    expect(after.tokenReport).toEqual(before.tokenReport);
  });

  it('keeps the anchors of more earlier turns whole with context.anchorTurns', async () => {
    const seeded = await seedSession();
    const [first, second, third] = seeded.earlier as [FixtureTurn, FixtureTurn, FixtureTurn];
    const built = await buildRequest(input(seeded, { context: { ...DEFAULT_CONFIG.context, anchorTurns: 2 } }));
    const sent = sentImageIds(built.request.messages);
    // The second turn's anchors: first, last, and the frame its failed step was tried on.
    const secondAnchors = [second.screenshots[0]!.id, second.screenshots[1]!.id, second.screenshots.at(-1)!.id];
    // The handover (the latest earlier turn's screen before its last, reduced) is the third turn's alone.
    expect(sent).toEqual([...secondAnchors, third.screenshots[0]!.id, third.screenshots.at(-2)!.id, third.screenshots.at(-1)!.id, ...ids(seeded.active.screenshots)]);
    expect(sent.some((id) => ids(first.screenshots).includes(id))).toBe(false);

    const none = await buildRequest(input(seeded, { context: { ...DEFAULT_CONFIG.context, anchorTurns: 0 } }));
    expect(sentImageIds(none.request.messages)).toEqual(ids(seeded.active.screenshots));
  });

  it('shows the latest earlier turn\'s first and last screens reduced where a cache read costs half or more, its error frames whole', async () => {
    const seeded = await seedSession();
    const [, second, third] = seeded.earlier as [FixtureTurn, FixtureTurn, FixtureTurn];
    const resolutionsUnder = async (model: string, anchorTurns = 1) => {
      const built = await buildRequest(input(seeded, { profile: resolveModelProfile(model), context: { ...DEFAULT_CONFIG.context, anchorTurns } }));
      return new Map(
        built.request.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'image' ? [[part.imageId, part.resolution ?? 'full'] as const] : []))),
      );
    };
    const latestAnchors = [third.screenshots[0]!.id, third.screenshots.at(-1)!.id];
    // Whole at 10% and 25% (GPT-5, GPT-4.1): two whole anchors then add at most half a screenshot a request.
    const byModel = ['gpt-5', 'gpt-4.1', 'claude-sonnet-4-5', 'gpt-4o', 'some-local-model'].map((model) => anchorResolutionFor(resolveModelProfile(model).pricing));
    expect(byModel).toEqual(['whole', 'whole', 'whole', 'reduced', 'reduced']);
    for (const model of ['gpt-5', 'gpt-4.1']) {
      const shown = await resolutionsUnder(model);
      expect(latestAnchors.map((id) => shown.get(id)), model).toEqual(['full', 'full']);
    }
    // Reduced at 50% (GPT-4o) and without a price: there they would cost about a whole screenshot a request.
    for (const model of ['gpt-4o', 'some-local-model']) {
      const shown = await resolutionsUnder(model);
      expect(latestAnchors.map((id) => shown.get(id)), model).toEqual(['reduced', 'reduced']);
      expect(shown.get(third.screenshots.at(-2)!.id), model).toBe('reduced');
    }
    // An error frame stays whole whatever the price: it shows what went wrong.
    const failedFrame = second.screenshots[1]!.id;
    const withTwoAnchorTurns = await resolutionsUnder('gpt-4o', 2);
    expect([second.screenshots[0]!.id, failedFrame, second.screenshots.at(-1)!.id].map((id) => withTwoAnchorTurns.get(id))).toEqual(['reduced', 'full', 'reduced']);
  });

  it('sends every image with keep-all, compacted or not, and only the last N with keep-last', async () => {
    const seeded = await seedSession();
    for (const turn of seeded.earlier) await compactTurn({ storage, turnId: turn.turn.id });
    const everything = [...seeded.earlier, seeded.active].flatMap((turn) => ids(turn.screenshots));

    const keepAll = await buildRequest(input(seeded, { policy: { kind: 'keep-all' } }));
    expect(sentImageIds(keepAll.request.messages)).toEqual(everything);
    expect(texts(keepAll.request.messages).some((text) => text.includes('Visual_Placeholder'))).toBe(false);
    expect(keepAll.tokenReport.imagesFolded).toBe(0);
    expect(keepAll.tokenReport.keepEverythingTokens).toBe(keepAll.tokenReport.sentTokens);

    const keepLast = await buildRequest(input(seeded, { policy: { kind: 'keep-last', images: 3 } }));
    expect(sentImageIds(keepLast.request.messages)).toEqual(everything.slice(-3));
    // Older images are dropped entirely: no placeholder, no id token.
    const keepLastTexts = texts(keepLast.request.messages);
    expect(keepLastTexts.some((text) => text.includes('Visual_Placeholder'))).toBe(false);
    expect(keepLastTexts).not.toContain(`<${everything[0]}>`);
    expect(keepLast.tokenReport.imagesFolded).toBe(everything.length - 3);
  });
});

describe('prefix stability through the agent loop', () => {
  let harness: AgentHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('keeps each request of a turn a byte-identical prefix of the next but for its present screen, with history changing only at the turn boundary', async () => {
    // The queue needs the harness's storage, which exists only once the harness does.
    const compaction: { queue?: CompactionQueue } = {};
    harness = await startAgentHarness({
      extra: { turnEndHooks: [async (turn) => void (await compaction.queue!.compact(turn.sessionId, turn.turnId))] },
    });
    compaction.queue = new CompactionQueue({ storage: harness.storage });
    harness.server.script([
      computerCall({ action: 'click', x: 10, y: 10 }),
      computerCall({ action: 'click', x: 20, y: 20 }),
      computerCall({ action: 'click', x: 30, y: 30 }),
      finishCall('First done.'),
      computerCall({ action: 'click', x: 40, y: 40 }),
      computerCall({ action: 'key', keys: 'ctrl+s' }),
      finishCall('Second done.'),
    ]);
    const first = await harness.agent.runTurn({ request: userText('First task') });
    const second = await harness.agent.runTurn({ sessionId: first.sessionId, request: userText('Second task') });
    expect(second.status).toBe('finished');
    expect(harness.storage.turns.get(first.turnId)?.compactedAt).not.toBeNull();

    const requests = harness.server.requests.map((_request, index) => chatMessages(harness!.server, index));
    expect(requests).toHaveLength(7);
    const turnOne = requests.slice(0, 4);
    const turnTwo = requests.slice(4);
    // The next request shows the previous one's present screen as a reduced view (issue 15): only the messages
    // that carry that screen change; everything before them is the same bytes.
    for (const turn of [turnOne, turnTwo]) {
      for (let index = 1; index < turn.length; index += 1) expectExtendsButForPresentScreen(turn[index - 1]!, turn[index]!);
    }

    // Turn two's history (everything before its request) is the same bytes in each of its requests…
    const historyEnd = (messages: Array<Record<string, unknown>>) => messages.findIndex((message) => contentText(message) === 'Second task');
    const history = turnTwo.map((messages) => JSON.stringify(messages.slice(0, historyEnd(messages))));
    expect(historyEnd(turnTwo[0]!)).toBeGreaterThan(0);
    expect(new Set(history).size).toBe(1);
    // …and differs from how turn one saw itself: it changed at the boundary, folded.
    const lastOfTurnOne = JSON.stringify(turnOne.at(-1)!.slice(0, historyEnd(turnTwo[0]!)));
    expect(history[0]).not.toBe(lastOfTurnOne);
    expect(history[0]).toContain('[Visual_Placeholder: img_');

    // Each step's token report is stored with it.
    const reported = harness.storage.steps.listByTurn(second.turnId).filter((step) => step.tokenReport !== null);
    expect(reported).toHaveLength(3);
    // Turn one's four screens: its first and last whole, the one before the last reduced (the handover), one folded.
    expect(reported[0]!.tokenReport).toMatchObject({ imagesFolded: 1 });
  });
});
