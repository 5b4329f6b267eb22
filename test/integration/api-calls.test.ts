/**
 * Every read call of the app API on a seeded database, through the dispatcher both transports use: results
 * match their schemas, bad arguments are refused naming the field, images come from blobs and from cold
 * storage, purged or oversized ones are unavailable with the reason, and deleting a session removes its rows
 * and the files no other session uses.
 */
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { APP_API, AppApiError, type AppApiName } from '../../src/shared/app-api.js';
import type { ApiKeySecrets } from '../../src/main/api/api-keys.js';
import type { SecretFieldPath } from '../../src/shared/config.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { finishCall } from '../helpers/agent-harness.js';
import { makePng } from '../helpers/seed.js';

let api: AppApiHarness;

beforeEach(async () => {
  api = await startAppApiHarness({ seed: { sessions: 3, turnsPerSession: 2, stepsPerTurn: 3 } });
});
afterEach(async () => {
  await api.close();
});

function seededSession(index: number) {
  const seeded = api.seeded[index];
  if (!seeded) throw new Error(`no seeded session ${index}`);
  return seeded;
}

async function refusal(name: AppApiName, callArguments: unknown[]): Promise<AppApiError> {
  const error: unknown = await api.callRaw(name, callArguments).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppApiError);
  return error as AppApiError;
}

describe('sessions', () => {
  it('lists sessions newest first with counts, token totals and no live run', async () => {
    const list = await api.call('listSessions', { limit: 10 });
    expect(APP_API.listSessions.result.safeParse(list).success).toBe(true);
    expect(list.total).toBe(3);
    expect(list.sessions.map((session) => session.title)).toEqual(['Session 3', 'Session 2', 'Session 1']);
    expect(list.sessions[0]).toMatchObject({ turnCount: 2, stepCount: 6, run: null, tokens: { input: 6000, output: 300, cachedInput: 0, cacheWriteInput: 0, sent: null, keepEverything: null } });
  });

  it('pages and filters by title or request text', async () => {
    const page = await api.call('listSessions', { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, sessions: [{ title: 'Session 2' }] });
    const found = await api.call('listSessions', { query: 'request 1.2' });
    expect(found.sessions.map((session) => session.title)).toEqual(['Session 1']);
    const literal = await api.call('listSessions', { query: '%' });
    expect(literal.total).toBe(0);
  });

  it('sums the token reports of the steps: sent against keep-everything', async () => {
    const { session, turns } = seededSession(0);
    const turnId = turns[0]?.turn.id ?? '';
    for (const report of [
      { sentTokens: 1200, keepEverythingTokens: 1200, imagesSent: 1, imagesFolded: 0 },
      { sentTokens: 1500, keepEverythingTokens: 4000, imagesSent: 1, imagesFolded: 3 },
    ]) {
      api.storage.steps.append({ sessionId: session.id, turnId, action: { action: 'wait', seconds: 1 }, tokenReport: report });
    }
    const { session: summary } = await api.call('getSession', session.id);
    expect(summary.tokens).toMatchObject({ sent: 2700, keepEverything: 5200 });
  });

  it('sums the prompt cache’s reads and writes, and shows them on each step beside input and output', async () => {
    const { session, turns } = seededSession(2);
    const turnId = turns[0]?.turn.id ?? '';
    const cached = api.storage.steps.append({
      sessionId: session.id,
      turnId,
      action: { action: 'wait', seconds: 1 },
      inputTokens: 12_340,
      outputTokens: 210,
      cachedInputTokens: 11_900,
      cacheWriteInputTokens: 300,
    });
    api.storage.steps.append({ sessionId: session.id, turnId, action: { action: 'wait', seconds: 1 }, inputTokens: 900, cachedInputTokens: 600 });
    const detail = await api.call('getSession', session.id);
    expect(APP_API.getSession.result.safeParse(detail).success).toBe(true);
    expect(detail.turns.map((turn) => turn.tokens)).toEqual([
      { input: 3000 + 12_340 + 900, output: 150 + 210, cachedInput: 12_500, cacheWriteInput: 300 },
      { input: 3000, output: 150, cachedInput: 0, cacheWriteInput: 0 },
    ]);
    expect(detail.session.tokens).toEqual({ input: 6000 + 12_340 + 900, output: 300 + 210, cachedInput: 12_500, cacheWriteInput: 300, sent: null, keepEverything: null });
    const page = await api.call('listSteps', { sessionId: session.id, turnId });
    expect(APP_API.listSteps.result.safeParse(page).success).toBe(true);
    expect(page.steps.find((step) => step.id === cached.id)).toMatchObject({ inputTokens: 12_340, outputTokens: 210, cachedInputTokens: 11_900, cacheWriteInputTokens: 300 });
    expect(page.steps[0]).toMatchObject({ inputTokens: 1000, cachedInputTokens: null, cacheWriteInputTokens: null });
  });

  it('gives the session, each turn and each step its cost as stored: dollars where priced, the tokens of the rest', async () => {
    const { session, turns } = seededSession(2);
    const turnId = turns[1]?.turn.id ?? '';
    const priced = api.storage.steps.append({ sessionId: session.id, turnId, action: { action: 'wait', seconds: 1 }, inputTokens: 10_000, outputTokens: 100, costDollars: 0.0088 });
    const detail = await api.call('getSession', session.id);
    expect(APP_API.getSession.result.safeParse(detail).success).toBe(true);
    // The seeded steps carry tokens but no price: 3 steps of 1,000 in and 50 out per turn.
    expect(detail.session.cost).toEqual({ dollars: 0.0088, unpricedTokens: 6 * 1050 });
    expect(detail.turns.map((turn) => turn.cost)).toEqual([
      { dollars: null, unpricedTokens: 3 * 1050 },
      { dollars: 0.0088, unpricedTokens: 3 * 1050 },
    ]);
    const list = await api.call('listSessions', {});
    expect(list.sessions.find((summary) => summary.id === session.id)?.cost).toEqual(detail.session.cost);
    const page = await api.call('listSteps', { sessionId: session.id, turnId });
    expect(APP_API.listSteps.result.safeParse(page).success).toBe(true);
    expect(page.steps.find((step) => step.id === priced.id)?.costDollars).toBe(0.0088);
    expect(page.steps[0]?.costDollars).toBeNull();
  });

  it('returns a session with its turns', async () => {
    const { session, turns } = seededSession(1);
    const detail = await api.call('getSession', session.id);
    expect(APP_API.getSession.result.safeParse(detail).success).toBe(true);
    expect(detail.turns).toEqual([
      expect.objectContaining({ id: turns[0]?.turn.id, sequence: 1, request: 'Request 2.1', status: 'finished', stepCount: 3 }),
      expect.objectContaining({ id: turns[1]?.turn.id, sequence: 2, request: 'Request 2.2', status: 'finished', stepCount: 3 }),
    ]);
  });

  it("carries a flow session's name, each turn's step kind and its answer with the evidence frames it names; older rows read null (issue 25)", async () => {
    const flow = api.storage.sessions.create({ title: 'Flow team-smoke', flowName: 'team-smoke' });
    const turn = api.storage.turns.start({ sessionId: flow.id, userRequest: 'The member list shows five people', stepKind: 'assert' });
    const frame = await api.storage.images.put({ sessionId: flow.id, turnId: turn.id, bytes: await makePng({ width: 40, height: 30 }), mime: 'image/png', width: 40, height: 30, source: 'browser' });
    const elsewhere = seededSession(0).turns[0]?.images[0]?.id ?? '';
    api.storage.turns.end(turn.id, 'finished', { kind: 'verdict', value: false, reason: '</script><img src=x onerror=alert(1)>', evidence: [frame.id, elsewhere, 'img_nothere'] });
    const extract = api.storage.turns.start({ sessionId: flow.id, userRequest: 'The members', stepKind: 'extract' });
    api.storage.turns.end(extract.id, 'finished', { kind: 'value', value: { members: ['<b>Dana</b>'] }, reason: 'Read.', evidence: [] });

    const detail = await api.call('getSession', flow.id);
    expect(APP_API.getSession.result.safeParse(detail).success).toBe(true);
    expect(detail.session.flowName).toBe('team-smoke');
    expect(detail.turns.map((each) => [each.stepKind, each.answer?.kind, each.answer?.value])).toEqual([
      ['assert', 'verdict', false],
      ['extract', 'value', { members: ['<b>Dana</b>'] }],
    ]);
    expect(detail.turns[0]?.answer?.reason).toBe('</script><img src=x onerror=alert(1)>');
    // A frame of the session comes with what the viewer needs; another session's frame, or no frame, is a bare id.
    expect(detail.turns[0]?.answer?.evidence).toEqual([
      { imageId: frame.id, image: expect.objectContaining({ imageId: frame.id, zone: 'active', width: 40, height: 30, pinned: false }) },
      { imageId: elsewhere, image: null },
      { imageId: 'img_nothere', image: null },
    ]);
    expect((await api.call('listSessions', {})).sessions.find((summary) => summary.id === flow.id)?.flowName).toBe('team-smoke');

    const older = await api.call('getSession', seededSession(1).session.id);
    expect(older.session.flowName).toBeNull();
    expect(older.turns.map((each) => [each.stepKind, each.answer])).toEqual([
      [null, null],
      [null, null],
    ]);
  });

  it('says not-found for a session that does not exist', async () => {
    const error = await refusal('getSession', ['ses_000000000000']);
    expect(error.code).toBe('not-found');
  });
});

describe('steps', () => {
  it('pages through a session in timeline order, with the screenshot and its zone', async () => {
    const { session, turns } = seededSession(0);
    const page = await api.call('listSteps', { sessionId: session.id, offset: 2, limit: 2 });
    expect(APP_API.listSteps.result.safeParse(page).success).toBe(true);
    expect(page.total).toBe(6);
    expect(page.steps.map((step) => [step.turnId, step.sequence])).toEqual([
      [turns[0]?.turn.id, 3],
      [turns[1]?.turn.id, 1],
    ]);
    expect(page.steps[0]).toMatchObject({
      tool: 'computer',
      action: { action: 'click', x: 12, y: 22 },
      thought: 'Step 3 of Request 1.1',
      screenshot: { imageId: turns[0]?.images[2]?.id, zone: 'active', width: 64, height: 48, caption: null },
      inputTokens: 1000,
      tokenReport: null,
    });
  });

  it('narrows to one turn and shows offloaded and purged screenshots as such', async () => {
    const { session, turns } = seededSession(0);
    const turn = turns[1];
    if (!turn) throw new Error('no turn');
    await api.storage.images.archive(turn.images[0]?.id ?? '');
    await api.storage.images.archive(turn.images[1]?.id ?? '');
    api.storage.images.setCaption(turn.images[0]?.id ?? '', 'The settings page');
    await api.storage.images.sweepRetention({ olderThanDays: 0, now: new Date(Date.now() + 60_000) });
    await api.storage.images.archive(turn.images[2]?.id ?? '');
    const page = await api.call('listSteps', { sessionId: session.id, turnId: turn.turn.id });
    expect(page.total).toBe(3);
    expect(page.steps.map((step) => step.screenshot?.zone)).toEqual(['purged', 'purged', 'offloaded']);
    expect(page.steps[0]?.screenshot?.caption).toBe('The settings page');
  });

  it('shows other tools by name with their arguments', async () => {
    const { session, turns } = seededSession(0);
    api.storage.steps.append({
      sessionId: session.id,
      turnId: turns[0]?.turn.id ?? '',
      action: { tool: 'finish', arguments: { summary: 'done', success: true } },
    });
    const page = await api.call('listSteps', { sessionId: session.id, turnId: turns[0]?.turn.id, offset: 3 });
    expect(page.steps).toEqual([expect.objectContaining({ tool: 'finish', action: null, toolArguments: { summary: 'done', success: true }, screenshot: null })]);
  });

  it('refuses a turn of another session', async () => {
    const error = await refusal('listSteps', [{ sessionId: seededSession(0).session.id, turnId: seededSession(1).turns[0]?.turn.id }]);
    expect(error.code).toBe('not-found');
  });
});

describe('images', () => {
  it('returns an image from blobs, byte for byte, with its size and zone', async () => {
    const image = seededSession(0).turns[0]?.images[0];
    if (!image) throw new Error('no image');
    const result = await api.call('getImage', { imageId: image.id });
    expect(APP_API.getImage.result.safeParse(result).success).toBe(true);
    if (result.status !== 'ok') throw new Error(result.message);
    expect(result).toMatchObject({ mime: 'image/png', width: 64, height: 48, zone: 'active', thumbnail: false });
    const stored = await api.storage.images.read(image.id);
    if (stored.status !== 'ok') throw new Error('not stored');
    expect(Buffer.from(result.dataBase64, 'base64').equals(stored.bytes)).toBe(true);
  });

  it('returns an offloaded image from cold storage', async () => {
    const image = seededSession(0).turns[0]?.images[1];
    if (!image) throw new Error('no image');
    const archived = await api.storage.images.archive(image.id);
    expect(archived.file).toBe('moved');
    const result = await api.call('getImage', { imageId: image.id });
    expect(result).toMatchObject({ status: 'ok', zone: 'offloaded', width: 64 });
  });

  it('scales a thumbnail down to the width asked for', async () => {
    const image = seededSession(0).turns[0]?.images[0];
    const result = await api.call('getImage', { imageId: image?.id ?? '', thumbnailWidth: 32 });
    if (result.status !== 'ok') throw new Error(result.message);
    expect(result).toMatchObject({ width: 32, height: 24, thumbnail: true, mime: 'image/png' });
    const metadata = await sharp(Buffer.from(result.dataBase64, 'base64')).metadata();
    expect([metadata.width, metadata.height]).toEqual([32, 24]);
  });

  it('is unavailable when purged, unknown or larger than the limit', async () => {
    const image = seededSession(0).turns[0]?.images[0];
    if (!image) throw new Error('no image');
    expect(await api.call('getImage', { imageId: image.id, maxBytes: 10 })).toMatchObject({ status: 'unavailable', reason: 'too-large' });
    expect(await api.call('getImage', { imageId: 'img_000000000000' })).toMatchObject({ status: 'unavailable', reason: 'not-found' });
    await api.storage.images.archive(image.id);
    await api.storage.images.sweepRetention({ olderThanDays: 0, now: new Date(Date.now() + 60_000) });
    expect(await api.call('getImage', { imageId: image.id })).toMatchObject({ status: 'unavailable', reason: 'purged' });
  });
});

describe('search reports and injections', () => {
  it('lists what the search sub-agent found and the injections by type and length only', async () => {
    const { session, turns } = seededSession(2);
    const turnId = turns[0]?.turn.id ?? null;
    api.storage.searchReports.add({
      sessionId: session.id,
      turnId,
      question: 'What is the capital of France?',
      queries: ['capital of France'],
      sources: [{ title: 'Paris', url: 'https://example.com/paris' }],
      answer: 'Paris',
      confidence: 0.9,
      iterations: 1,
    });
    api.storage.injections.record({ sessionId: session.id, turnId, type: 'note', contentLength: 42 });
    const { reports } = await api.call('listSearchReports', session.id);
    expect(reports).toEqual([
      expect.objectContaining({ question: 'What is the capital of France?', answer: 'Paris', confidence: 0.9, sources: [{ title: 'Paris', url: 'https://example.com/paris' }] }),
    ]);
    const { injections } = await api.call('listInjections', session.id);
    expect(injections).toEqual([expect.objectContaining({ type: 'note', contentLength: 42, turnId })]);
    expect(Object.keys(injections[0] ?? {})).not.toContain('content');
  });
});

describe('deleting a session', () => {
  it('removes its rows and the image files no other session uses', async () => {
    const doomed = seededSession(0);
    const kept = seededSession(1);
    const doomedImage = doomed.turns[0]?.images[0];
    const keptImage = kept.turns[0]?.images[0];
    if (!doomedImage || !keptImage) throw new Error('no images');
    await api.storage.images.archive(doomed.turns[0]?.images[1]?.id ?? '');
    const result = await api.call('deleteSession', doomed.session.id);
    expect(result).toEqual({ deleted: true, imagesDeleted: 6, filesDeleted: 6 });
    expect(existsSync(api.storage.blobs.pathFor('blobs', doomedImage.sha256, doomedImage.mime))).toBe(false);
    expect(api.storage.sessions.get(doomed.session.id)).toBeUndefined();
    expect(api.storage.steps.listBySession(doomed.session.id)).toEqual([]);
    expect(await api.call('getImage', { imageId: keptImage.id })).toMatchObject({ status: 'ok' });
    expect((await refusal('deleteSession', [doomed.session.id])).code).toBe('not-found');
  });

  it('keeps a file another session still uses', async () => {
    const other = seededSession(1).session;
    const image = seededSession(0).turns[0]?.images[0];
    const stored = await api.storage.images.read(image?.id ?? '');
    if (stored.status !== 'ok') throw new Error('not stored');
    const copy = await api.storage.images.put({ sessionId: other.id, turnId: null, bytes: stored.bytes, mime: 'image/png', width: 64, height: 48, source: 'screen' });
    await api.call('deleteSession', seededSession(0).session.id);
    expect(await api.call('getImage', { imageId: copy.id })).toMatchObject({ status: 'ok' });
  });

  it('refuses a session that is running', async () => {
    const { session } = seededSession(2);
    api.storage.sessions.setStatus(session.id, 'running');
    const error = await refusal('deleteSession', [session.id]);
    expect(error.code).toBe('conflict');
    expect(api.storage.sessions.get(session.id)).toBeDefined();
  });
});

describe('argument checks', () => {
  it('refuses bad arguments naming the field, before any work', async () => {
    const cases: Array<[AppApiName, unknown[], RegExp]> = [
      ['listSessions', [{ limit: 0 }], /limit/],
      ['listSessions', [{ limit: 10, extra: true }], /extra/],
      ['listSteps', [{ sessionId: 'nope' }], /sessionId/],
      ['getImage', [{ imageId: 'img_000000000000', maxBytes: -1 }], /maxBytes/],
      ['getImage', [{ imageId: '../etc/passwd' }], /imageId/],
      ['startRun', [{ task: '   ' }], /task/],
      ['startRun', [{ task: 'go', url: 'javascript:alert(1)' }], /url/],
      ['answerConfirmation', [{ requestId: 'r', approved: 'yes' }], /approved/],
      ['getSession', [], /Invalid arguments/],
      ['appInfo', [{ unexpected: true }], /Invalid arguments for app:info/],
      ['getKeyStatus', [{}], /Invalid arguments for keys:status/],
      ['saveApiKey', [{ kind: 'github', key: 'sk-abc' }], /kind/],
      ['saveApiKey', [{ kind: 'model', key: '' }], /key/],
      ['saveApiKey', [{ kind: 'model', key: 'sk-with a space' }], /key/],
      ['saveApiKey', [{ kind: 'model', key: 'x'.repeat(1_001) }], /key/],
      ['saveApiKey', [{ kind: 'model', key: 'sk-abc', extra: 1 }], /extra/],
    ];
    for (const [name, callArguments, field] of cases) {
      const error = await refusal(name, callArguments);
      expect(error.code, `${name} ${JSON.stringify(callArguments)}`).toBe('invalid-arguments');
      expect(error.message).toMatch(field);
    }
  });

  it('answers appInfo with the version and platform', async () => {
    expect(await api.call('appInfo')).toEqual({ version: '9.9.9', platform: 'linux' });
  });
});

/** The desktop app's secret store, in memory: what it was given, as the Electron shell's SecretStore would keep it. */
class MemorySecrets implements ApiKeySecrets {
  readonly stored = new Map<SecretFieldPath, string>();
  failWith: string | undefined;
  constructor(private readonly warning?: string) {}
  canSave(): boolean {
    return true;
  }
  weakEncryptionWarning(): string | undefined {
    return this.warning;
  }
  save(path: SecretFieldPath, key: string): void {
    if (this.failWith !== undefined) throw new Error(this.failWith);
    this.stored.set(path, key);
  }
  load(): Partial<Record<SecretFieldPath, string>> {
    return Object.fromEntries(this.stored);
  }
}

describe('API keys', () => {
  const SAVED_KEY = 'sk-saved-in-the-app-0123456789';

  async function withHarness(options: Parameters<typeof startAppApiHarness>[0]): Promise<AppApiHarness> {
    await api.close();
    api = await startAppApiHarness(options);
    return api;
  }

  it('reports each key as unset, or set by the configuration, and that nothing can be saved without the desktop app', async () => {
    expect(await api.call('getKeyStatus')).toEqual({
      model: { set: true, source: 'config' },
      anthropic: { set: false, source: null },
      tavily: { set: false, source: null },
      canSave: false,
    });
    const bare = await withHarness({ apiKey: null });
    expect(await bare.call('getKeyStatus')).toEqual({
      model: { set: false, source: null },
      anthropic: { set: false, source: null },
      tavily: { set: false, source: null },
      canSave: false,
    });
  });

  it('refuses to save a key without the desktop app, saying where keys go instead', async () => {
    const error = await refusal('saveApiKey', [{ kind: 'model', key: SAVED_KEY }]);
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/desktop app/);
    expect(error.message).toMatch(/config\.json/);
    expect(error.message).toMatch(/OPENAI_API_KEY/);
    expect(error.message).toMatch(/ANTHROPIC_API_KEY/);
    expect(error.message).not.toContain(SAVED_KEY);
  });

  it('saves a key in the secrets store, reports it as saved, and the next run uses it without it showing anywhere', async () => {
    const secrets = new MemorySecrets();
    const harnessed = await withHarness({ apiKey: null, secrets });
    expect((await harnessed.call('getKeyStatus')).canSave).toBe(true);
    const results: unknown[] = [await harnessed.call('saveApiKey', { kind: 'model', key: `  ${SAVED_KEY}\n` })];
    expect(results[0]).toEqual({ saved: true });
    // Trimmed: a pasted newline is not part of the key.
    expect(secrets.stored.get('model.apiKey')).toBe(SAVED_KEY);
    results.push(await harnessed.call('getKeyStatus'));
    expect(results[1]).toEqual({
      model: { set: true, source: 'saved' },
      anthropic: { set: false, source: null },
      tavily: { set: false, source: null },
      canSave: true,
    });

    // The next run sends it; the model refuses it quoting it, and neither the events nor a result carry it.
    harnessed.server.script([{ type: 'error', status: 401, message: `Incorrect API key provided: ${SAVED_KEY}` }]);
    const started = await harnessed.call('startRun', { task: 'open the settings' });
    await harnessed.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    expect(harnessed.server.requests[0]?.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);
    results.push(await harnessed.call('getSession', started.sessionId), await harnessed.call('listSteps', { sessionId: started.sessionId }));

    // A failing store's message is masked too.
    secrets.failWith = `disk full while writing ${SAVED_KEY}`;
    const failure = await harnessed.callRaw('saveApiKey', [{ kind: 'model', key: SAVED_KEY }]).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'unavailable', message: expect.stringContaining('disk full') });
    for (const seen of [...results, ...harnessed.events, (failure as Error).message]) expect(JSON.stringify(seen)).not.toContain(SAVED_KEY);
  });

  it("saves Anthropic's key apart from the model key: a Claude run refused without it names ANTHROPIC_API_KEY, then sends the saved one as x-api-key only", async () => {
    const ANTHROPIC_KEY = 'sk-ant-saved-in-the-app-0123456789';
    const secrets = new MemorySecrets();
    // The OpenAI-compatible key is configured; a Claude model through Anthropic must not use it.
    const harnessed = await withHarness({ model: { name: 'claude-opus-4-5' }, secrets });
    expect((await harnessed.call('getKeyStatus')).anthropic).toEqual({ set: false, source: null });
    const refused = await harnessed.callRaw('startRun', [{ task: 'open the settings' }]).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'unavailable', message: expect.stringContaining('ANTHROPIC_API_KEY') });
    expect((refused as Error).message).not.toContain('OPENAI_API_KEY');

    const results: unknown[] = [await harnessed.call('saveApiKey', { kind: 'anthropic', key: ANTHROPIC_KEY })];
    expect(results[0]).toEqual({ saved: true });
    expect(secrets.stored.get('model.anthropicApiKey')).toBe(ANTHROPIC_KEY);
    expect(secrets.stored.has('model.apiKey')).toBe(false);
    results.push(await harnessed.call('getKeyStatus'));
    expect(results[1]).toEqual({
      model: { set: true, source: 'config' },
      anthropic: { set: true, source: 'saved' },
      tavily: { set: false, source: null },
      canSave: true,
    });

    // The harness points every model at its fake OpenAI server: what matters is the request the next run makes,
    // its Messages path and the saved key as Anthropic's x-api-key header; the failed answer ends the turn.
    const started = await harnessed.call('startRun', { task: 'open the settings' });
    await harnessed.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    const request = harnessed.server.requests[0]!;
    expect(request.path).toMatch(/\/messages$/);
    expect(request.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(request.headers.authorization).toBeUndefined();
    results.push(await harnessed.call('getSession', started.sessionId), await harnessed.call('listSteps', { sessionId: started.sessionId }));
    for (const seen of [...results, ...harnessed.events]) expect(JSON.stringify(seen)).not.toContain(ANTHROPIC_KEY);
  });

  it('says when the configuration overrides a saved key, and passes on the plain-text warning', async () => {
    const harnessed = await withHarness({ secrets: new MemorySecrets('Saved keys are as good as plain text here.') });
    expect((await harnessed.call('getKeyStatus')).warning).toMatch(/plain text/);
    const saved = await harnessed.call('saveApiKey', { kind: 'model', key: SAVED_KEY });
    expect(saved.warning).toMatch(/config\.json takes precedence/);
    expect(saved.warning).toMatch(/plain text/);
    expect((await harnessed.call('getKeyStatus')).model).toEqual({ set: true, source: 'config' });
    harnessed.server.script([finishCall('Done.')]);
    const started = await harnessed.call('startRun', { task: 'check' });
    await harnessed.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    expect(harnessed.server.requests[0]?.headers.authorization).not.toContain(SAVED_KEY);
  });
});
