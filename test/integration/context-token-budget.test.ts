/**
 * The token budget on tiny budgets: the active turn's oldest images fold first (never its first screenshot,
 * its last three, or the user's request), then the oldest earlier turns shrink to one line, and a request
 * that still does not fit is refused with the sizes, never sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { userText, type Message } from '../../src/shared/messages.js';
import { buildRequest, type BuildRequestInput } from '../../src/main/context/request-builder.js';
import { ContextBudgetError } from '../../src/main/context/token-budget.js';
import { resolveModelProfile } from '../../src/main/llm/model-profiles.js';
import type { SessionRecord, Storage } from '../../src/main/storage/index.js';
import { startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { makePng } from '../helpers/seed.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';
import { recordTurn } from '../helpers/turn-fixture.js';

let temporary: TemporaryStorage;
let storage: Storage;
beforeEach(() => {
  temporary = createTemporaryStorage('sightline-budget');
  storage = temporary.storage;
});
afterEach(() => temporary.remove());

const profile = resolveModelProfile('gpt-4.1');

function request(session: SessionRecord, turnId: string, tokenBudget?: number): BuildRequestInput {
  return {
    storage,
    sessionId: session.id,
    turnId,
    profile,
    maxImageEdge: 1280,
    systemPrompt: 'System.',
    context: { ...DEFAULT_CONFIG.context, ...(tokenBudget === undefined ? {} : { tokenBudget }) },
  };
}

function sentImageIds(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'image' && part.imageId !== undefined ? [part.imageId] : [])));
}

function texts(messages: readonly Message[]): string[] {
  return messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])));
}

describe('the token budget', () => {
  it('folds the active turn’s oldest images first, only as far as needed', async () => {
    const session = storage.sessions.create({ title: 'Budget' });
    const active = await recordTurn(storage, session, { steps: [{}, {}, {}, {}, {}, {}], status: 'running' });
    const [s0, s1, s2, s3, s4, s5, s6] = active.screenshots.map((image) => image.id);
    const unbounded = await buildRequest(request(session, active.turn.id));
    // The active zone folded the oldest chunk already (s1, s2: chunks of two at GPT-4.1's cache price, issue 15);
    // s3 is a reduced view, the budget's to fold.
    expect(sentImageIds(unbounded.request.messages)).toEqual([s0, s3, s4, s5, s6]);
    expect(unbounded.tokenReport).toMatchObject({ imagesSent: 5, imagesFolded: 2 });

    // A reduced view is worth ~100 tokens here with its label; its placeholder costs a few dozen: one must fold.
    const budget = unbounded.tokenReport.sentTokens - 40;
    const built = await buildRequest(request(session, active.turn.id, budget));
    expect(sentImageIds(built.request.messages)).toEqual([s0, s4, s5, s6]);
    expect(texts(built.request.messages).filter((text) => text.startsWith('[Visual_Placeholder:'))).toEqual([
      expect.stringMatching(new RegExp(`^\\[Visual_Placeholder: ${s1}\\] step 1 · click \\(100, 200\\) · `)),
      expect.stringMatching(new RegExp(`^\\[Visual_Placeholder: ${s2}\\] step 2 · `)),
      expect.stringMatching(new RegExp(`^\\[Visual_Placeholder: ${s3}\\] step 3 · `)),
    ]);
    expect(built.tokenReport.sentTokens).toBeLessThanOrEqual(budget);
    expect(built.tokenReport).toMatchObject({ imagesSent: 4, imagesFolded: 3, keepEverythingTokens: unbounded.tokenReport.keepEverythingTokens });
    expect(built.budgetTokens).toBe(budget);

    // Deterministic: the same budget folds the same images, byte for byte.
    expect(JSON.stringify((await buildRequest(request(session, active.turn.id, budget))).request)).toBe(JSON.stringify(built.request));
  });

  it('then reduces the oldest earlier turns to one line each, keeping the first and last three screenshots and the user’s request', async () => {
    const session = storage.sessions.create({ title: 'Summaries' });
    const long = 'Here is what I found on the page. '.repeat(250);
    const first = await recordTurn(storage, session, { request: 'First', steps: [{}], finishSummary: 'Opened the settings.' });
    storage.messages.append({ sessionId: session.id, turnId: first.turn.id, message: { role: 'assistant', parts: [{ type: 'text', text: long }], toolCalls: [] } });
    await recordTurn(storage, session, { request: 'Second', steps: [{}] });
    const picture = await makePng({ width: 40, height: 30, seed: 3 });
    const attached = await storage.images.put({ sessionId: session.id, turnId: null, bytes: picture, mime: 'image/png', width: 40, height: 30, source: 'user' });
    const active = await recordTurn(storage, session, {
      request: 'Third, with a picture',
      requestParts: [{ type: 'image', imageId: attached.id }],
      steps: [{}, {}, {}, {}, {}],
      status: 'running',
    });
    const shots = active.screenshots.map((image) => image.id);
    const unbounded = await buildRequest(request(session, active.turn.id));
    // Folding the two foldable screenshots saves ~500 tokens; the long first turn is ~2000.
    const budget = unbounded.tokenReport.sentTokens - 1500;
    const built = await buildRequest(request(session, active.turn.id, budget));

    expect(built.tokenReport.sentTokens).toBeLessThanOrEqual(budget);
    const sent = sentImageIds(built.request.messages);
    expect(sent).toEqual(expect.arrayContaining([shots[0], ...shots.slice(-3), attached.id]));
    expect(sent).not.toContain(shots[1]);
    expect(sent).not.toContain(shots[2]);
    const allTexts = texts(built.request.messages);
    expect(allTexts).toContain('[Turn 1 · finished · "First" → Opened the settings.]');
    expect(allTexts.some((text) => text.includes('Here is what I found'))).toBe(false);
    // Only as many turns as needed: the second is still there in full.
    expect(allTexts).toContain('Second');
    expect(allTexts.some((text) => text.startsWith('[Turn 2 '))).toBe(false);
    expect(allTexts).toContain('Third, with a picture');
    // The summary sits where the turn was, and the history stays a valid conversation.
    const roles = built.request.messages.map((message) => message.role);
    expect(roles.slice(0, 3)).toEqual(['system', 'user', 'user']);
  });

  it('refuses a request that cannot fit, naming the sizes, rather than sending it', async () => {
    const session = storage.sessions.create({ title: 'Too big' });
    const active = await recordTurn(storage, session, { request: 'x'.repeat(8000), steps: [{}], status: 'running' });
    const attempt = buildRequest(request(session, active.turn.id, 1000));
    await expect(attempt).rejects.toBeInstanceOf(ContextBudgetError);
    await expect(attempt).rejects.toThrow(/needs about \d+ tokens .* but the budget is 1000 tokens \(context\.tokenBudget\)/);
  });

  it('takes its budget from the model’s context window less the reply reserve unless context.tokenBudget is set', async () => {
    const session = storage.sessions.create({ title: 'Window' });
    const active = await recordTurn(storage, session, { steps: [{}], status: 'running' });
    const small = { ...profile, contextWindow: 6000 };
    const built = await buildRequest({ ...request(session, active.turn.id), profile: small });
    expect(built.budgetTokens).toBe(6000 - DEFAULT_CONFIG.context.outputReserveTokens);
    const tooSmall = buildRequest({ ...request(session, active.turn.id), profile: { ...profile, contextWindow: 4200 } });
    await expect(tooSmall).rejects.toThrow(/context window of 4200 tokens less 4096 kept for the reply/);
  });
});

describe('the token budget in the loop', () => {
  let harness: AgentHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('ends the turn as failed with the sizes instead of sending an over-budget request', async () => {
    harness = await startAgentHarness({ config: { context: { tokenBudget: 1000 } } });
    const outcome = await harness.agent.runTurn({ request: userText('y'.repeat(8000)) });
    expect(outcome.status).toBe('failed');
    expect(outcome.summary).toMatch(/budget is 1000 tokens/);
    expect(harness.server.requests).toHaveLength(0);
  });
});
