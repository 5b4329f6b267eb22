/**
 * Pinned frames in the request (issue 16): a frame a person pinned is sent whole in every later request of
 * its session, whether its turn is recent or old, compacted or not, running or ended; under budget pressure
 * it folds last, after the anchors; the request stays a pure function of the rows (the turn's cache plans
 * again when a pin changes). And what the timeline is told of the next request.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import type { Message } from '../../src/shared/messages.js';
import { activeZoneShape } from '../../src/main/context/active-zone-shape.js';
import { compactTurn } from '../../src/main/context/compact-turn.js';
import { nextRequestImages } from '../../src/main/context/next-request-images.js';
import { buildRequest, type BuildRequestInput } from '../../src/main/context/request-builder.js';
import { TurnRequestCache } from '../../src/main/context/turn-request-cache.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { SessionRecord, Storage } from '../../src/main/storage/index.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { recordTurn, screenshot, type FixtureTurn } from '../helpers/turn-fixture.js';
import { earlierTurnsShape } from '../../src/main/context/earlier-turns-shape.js';
import { imageIdsIn } from '../../src/main/context/captions.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-pinned-context');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');

interface Seeded {
  session: SessionRecord;
  earlier: FixtureTurn[];
  active: FixtureTurn;
}

/** Three finished turns and a running one: with one anchor turn, the first two turns' frames are all folded. */
async function seedSession(activeSteps = 2): Promise<Seeded> {
  const session = storage.sessions.create({ title: 'Pinned' });
  const earlier = [
    await recordTurn(storage, session, { request: 'First', steps: [{}, {}, {}] }),
    await recordTurn(storage, session, { request: 'Second', steps: [{}, {}, {}] }),
    await recordTurn(storage, session, { request: 'Third', steps: [{}, {}] }),
  ];
  const steps = Array.from({ length: activeSteps }, () => ({}));
  const active = await recordTurn(storage, session, { request: 'Fourth', steps, status: 'running' });
  return { session, earlier, active };
}

function input(seeded: Seeded, extra: Partial<BuildRequestInput> = {}): BuildRequestInput {
  return { storage, sessionId: seeded.session.id, turnId: seeded.active.turn.id, profile, maxImageEdge: 1280, systemPrompt: 'System.', ...extra };
}

/** Each image sent, with its resolution (`full` when whole). */
function sentImages(messages: readonly Message[]): Map<string, string> {
  return new Map(
    messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [[part.imageId, part.resolution ?? 'full'] as const] : []))),
  );
}

/** The ids that placeholders name: one each, or an older turn's line of them. */
function placeholders(messages: readonly Message[]): string[] {
  return messages.flatMap((message) =>
    message.parts.flatMap((part) => (part.type === 'text' && part.text.startsWith('[Visual_Placeholder') ? imageIdsIn(part.text) : [])),
  );
}

describe('a pinned frame in the request', () => {
  it('is sent whole from an old earlier turn, compacted or not, and folds again once unpinned', async () => {
    const seeded = await seedSession();
    const pinned = seeded.earlier[0]!.screenshots[2]!;
    const unpinned = await buildRequest(input(seeded));
    expect(sentImages(unpinned.request.messages).has(pinned.id)).toBe(false);
    expect(placeholders(unpinned.request.messages)).toContain(pinned.id);

    storage.pins.pin(pinned.id);
    const before = await buildRequest(input(seeded));
    expect(sentImages(before.request.messages).get(pinned.id)).toBe('full');
    expect(placeholders(before.request.messages)).not.toContain(pinned.id);
    // Only the pinned frame changed: the rest of the first turn is still folded.
    expect(placeholders(before.request.messages)).toContain(seeded.earlier[0]!.screenshots[1]!.id);

    // Compaction moved its file to cold storage; the request is the same bytes, the pixels read from there.
    for (const turn of seeded.earlier) await compactTurn({ storage, turnId: turn.turn.id });
    expect(storage.images.get(pinned.id)?.zone).toBe('offloaded');
    const after = await buildRequest(input(seeded));
    expect(JSON.stringify(after.request)).toBe(JSON.stringify(before.request));

    storage.pins.unpin(pinned.id);
    const again = await buildRequest(input(seeded));
    expect(JSON.stringify(again.request)).toBe(JSON.stringify(unpinned.request));
  });

  it('stays whole in the running turn while the screens around it fold', async () => {
    const seeded = await seedSession(8);
    const shots = seeded.active.screenshots;
    const plain = sentImages((await buildRequest(input(seeded))).request.messages);
    const pinned = shots[2]!;
    // Unpinned, it is folded by the active zone's chunks.
    expect(plain.has(pinned.id)).toBe(false);

    storage.pins.pin(pinned.id);
    const sent = sentImages((await buildRequest(input(seeded))).request.messages);
    expect(sent.get(pinned.id)).toBe('full');
    // The present screen whole, the two before it reduced: unchanged by the pin.
    expect([shots.at(-3)!.id, shots.at(-2)!.id, shots.at(-1)!.id].map((id) => sent.get(id))).toEqual(['reduced', 'reduced', 'full']);
    expect(sent.has(shots[1]!.id)).toBe(false);
  });

  it('plans again with the turn’s cache when a pin changes, and sends what a build without the cache sends', async () => {
    const seeded = await seedSession();
    const cache = new TurnRequestCache();
    const pinned = seeded.earlier[1]!.screenshots[1]!;
    const first = await buildRequest(input(seeded, { turnCache: cache }));
    expect(sentImages(first.request.messages).has(pinned.id)).toBe(false);

    storage.pins.pin(pinned.id);
    const cached = await buildRequest(input(seeded, { turnCache: cache }));
    const fresh = await buildRequest(input(seeded));
    expect(sentImages(cached.request.messages).get(pinned.id)).toBe('full');
    expect(JSON.stringify(cached.request)).toBe(JSON.stringify(fresh.request));
  });

  it('folds last under budget pressure: after the active turn’s images and the earlier turns with their anchors', async () => {
    const seeded = await seedSession(6);
    const pinned = seeded.earlier[0]!.screenshots[1]!;
    storage.pins.pin(pinned.id);
    const unbounded = await buildRequest(input(seeded));
    const withBudget = (tokenBudget: number) => input(seeded, { context: { ...DEFAULT_CONFIG.context, tokenBudget } });

    // Squeezed until every earlier turn is one line: the anchors of the latest earlier turn are gone, the pinned
    // frame is still there, after its turn's line.
    const third = seeded.earlier[2]!;
    let budget = unbounded.tokenReport.sentTokens;
    let squeezed = await buildRequest(withBudget(budget));
    while (sentImages(squeezed.request.messages).has(third.screenshots[0]!.id)) {
      budget -= 25;
      squeezed = await buildRequest(withBudget(budget));
    }
    const sent = sentImages(squeezed.request.messages);
    expect(sent.get(pinned.id)).toBe('full');
    const summaryLine = squeezed.request.messages.find((message) => message.parts.some((part) => part.type === 'text' && part.text.startsWith('[Turn 1 ')));
    expect(summaryLine?.parts.some((part) => part.type === 'image' && part.imageId === pinned.id)).toBe(true);

    // Tighter still: nothing else may fold, so the pinned frame folds too, to its captioned placeholder, and
    // the request fits.
    const tighter = squeezed.tokenReport.sentTokens - 1;
    const last = await buildRequest(withBudget(tighter));
    expect(sentImages(last.request.messages).has(pinned.id)).toBe(false);
    expect(placeholders(last.request.messages)).toContain(pinned.id);
    expect(last.tokenReport.sentTokens).toBeLessThanOrEqual(tighter);
    // The running turn's first screen, an anchor, never folds.
    expect(sentImages(last.request.messages).has(seeded.active.screenshots[0]!.id)).toBe(true);
  });
});

describe('what the next request sends, for the timeline', () => {
  const settings = { earlierTurns: earlierTurnsShape(profile.pricing, DEFAULT_CONFIG.context.anchorTurns), policy: { kind: 'sightline' } as const, shape: activeZoneShape(profile, 1280) };

  it('names the frames a new turn’s first request would send whole, reduced or folded, pinned ones whole', async () => {
    const session = storage.sessions.create({ title: 'Ended' });
    const first = await recordTurn(storage, session, { request: 'First', steps: [{}, {}, {}] });
    const second = await recordTurn(storage, session, { request: 'Second', steps: [{}, {}, {}] });
    storage.pins.pin(first.screenshots[2]!.id);
    const treatments = nextRequestImages({ storage, sessionId: session.id, ...settings });
    const [s0, s1, s2, s3] = second.screenshots;
    expect([s0, s1, s2, s3].map((image) => treatments.get(image!.id))).toEqual(['whole', 'folded', 'reduced', 'whole']);
    expect(first.screenshots.map((image) => treatments.get(image.id))).toEqual(['folded', 'folded', 'whole', 'folded']);
  });

  it('plans the running turn’s active zone, and every image whole under keep-all', async () => {
    const seeded = await seedSession(8);
    const treatments = nextRequestImages({ storage, sessionId: seeded.session.id, ...settings });
    const shots = seeded.active.screenshots;
    const built = sentImages((await buildRequest(input(seeded))).request.messages);
    for (const shot of shots) expect(treatments.get(shot.id), shot.id).toBe(built.has(shot.id) ? (built.get(shot.id) === 'full' ? 'whole' : 'reduced') : 'folded');

    const keepAll = nextRequestImages({ storage, sessionId: seeded.session.id, ...settings, policy: { kind: 'keep-all' } });
    expect([...keepAll.values()].every((treatment) => treatment === 'whole')).toBe(true);
    // keep-last leaves the older images out: not sent, so folded as far as the timeline is concerned.
    const keepLast = nextRequestImages({ storage, sessionId: seeded.session.id, ...settings, policy: { kind: 'keep-last', images: 2 } });
    expect(keepLast.size).toBe(keepAll.size);
    expect([...keepLast.entries()].filter(([, treatment]) => treatment === 'whole').map(([imageId]) => imageId)).toEqual(shots.slice(-2).map((shot) => shot.id));
  });

  it('leaves out images that no stored message names', async () => {
    const session = storage.sessions.create({ title: 'Rows only' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Rows' });
    const orphan = await screenshot(storage, session, turn.id);
    expect(nextRequestImages({ storage, sessionId: session.id, ...settings }).has(orphan.id)).toBe(false);
  });
});
