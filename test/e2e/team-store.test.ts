/**
 * The team store with real servers and real processes: a real Redis for the queue, a real PostgreSQL for the rows,
 * s3rver for the pixels (a test double of S3: every object is checked by length and sha256 here, never trusted).
 *
 * - Two `sightline worker --store --blobs` and a `sightline flow --queue --wait` client run six browser flows; the
 *   worker holding one is killed with SIGKILL once that run's first screenshot is in the store. All six pass, each
 *   reported once, and every session is in the store with its screenshots: rows in PostgreSQL, pixels in the bucket
 *   matching their hashes, and a report read back through a reader's mirror. The killed run is marked lost; a worker
 *   started again on the dead worker's home ships the rest and the store calls it complete.
 * - PostgreSQL unreachable: the worker runs its flow, says the store is unreachable, and ships the session when
 *   PostgreSQL comes up. Readers exit 1 with the reason and no password.
 * - S3 refusing writes: no row reaches PostgreSQL without its pixels; when S3 is back, all of it arrives.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PostgresTeamStore, type TeamChanges } from '../../src/main/team-store/postgres-team-store.js';
import { parseStoreUrl } from '../../src/main/team-store/store-url.js';
import { parseBlobsUrl } from '../../src/main/team-store/blobs-url.js';
import { S3TeamBlobs } from '../../src/main/team-store/s3-team-blobs.js';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { builtRenderer } from '../helpers/built-cli.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { postgresAvailable, startPostgres, type PostgresServer } from '../helpers/postgres-server.js';
import { redisAvailable, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { answeringModel, answerTrue, LATCH, queuedFlowFile, WORKER_READS_PAGE_URL } from '../helpers/queued-flows.js';
import { startSightline, type SightlineProcess } from './support/sightline-process.js';
import { launchTimelineBrowser } from './support/timeline-browser.js';
import { scaledLimit } from '../helpers/time-limits.js';

let page: CartPageServer;
let redis: RedisServer;
let postgres: PostgresServer;
let s3: S3Server;
let model: FakeOpenAiServer;
let folder: string;
const homes = new Map<string, TemporaryHome>();
const started: SightlineProcess[] = [];
const opened: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  page = await startCartPage();
});

afterAll(async () => {
  await page?.close();
});

beforeEach(async () => {
  [redis, postgres, s3, model] = await Promise.all([startRedis(), startPostgres(), startS3Server(), startFakeOpenAiServer()]);
  folder = mkdtempSync(join(tmpdir(), 'sightline-team-flows-'));
});

afterEach(async () => {
  for (const process of started.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    await process.exited.catch(() => undefined);
  }
  for (const client of opened.splice(0)) await client.close();
  await model.close();
  await redis.remove();
  await postgres.remove();
  await s3.stop();
  for (const home of homes.values()) home.remove();
  homes.clear();
  rmSync(folder, { recursive: true, force: true });
});

function home(name: string): string {
  let found = homes.get(name);
  if (found === undefined) {
    found = createTemporaryHome(`sightline-team-${name}`);
    homes.set(name, found);
  }
  return found.root;
}

function teamArgs(): string[] {
  return ['--store', postgres.url, '--blobs', s3.url];
}

function flowFile(name: string, assertion: string): string {
  return queuedFlowFile(folder, name, assertion);
}

function startWorker(name: string, extraEnv: Record<string, string> = {}): SightlineProcess {
  const worker = startSightline(['--home', home(name), 'worker', '--queue', redis.url, ...teamArgs()], {
    SIGHTLINE_MODEL_BASE_URL: model.baseUrl,
    PAGE_URL: page.url,
    SIGHTLINE_QUEUE_LOCK_MS: '2000',
    ...WORKER_READS_PAGE_URL,
    ...s3.env,
    ...extraEnv,
  });
  started.push(worker);
  return worker;
}

function startClient(args: readonly string[]): SightlineProcess {
  const client = startSightline(['--home', home('client'), 'flow', ...args], s3.env);
  started.push(client);
  return client;
}

async function storeClient(): Promise<PostgresTeamStore> {
  const store = await PostgresTeamStore.open(parseStoreUrl(postgres.url));
  opened.push(store);
  return store;
}

function blobsClient(): S3TeamBlobs {
  const blobs = S3TeamBlobs.create(parseBlobsUrl(s3.url, s3.env), s3.env);
  opened.push(blobs);
  return blobs;
}

/** What the store holds of one session: its rows by table and its state. */
function sessionIn(changes: TeamChanges, sessionId: string) {
  const rowsOf = (table: keyof TeamChanges['tables']) =>
    (changes.tables[table] ?? []).filter((row) => (table === 'sessions' ? row['id'] : row['session_id']) === sessionId);
  return {
    sessions: rowsOf('sessions'),
    turns: rowsOf('turns'),
    steps: rowsOf('steps'),
    images: rowsOf('images'),
    state: changes.states.find((status) => status.sessionId === sessionId),
  };
}

/** Every image row's object is in the bucket, with the length and the sha256 the row names. */
async function expectPixelsInBucket(images: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const blobs = blobsClient();
  for (const image of images) {
    const sha256 = String(image['sha256']);
    const bytes = await blobs.get(sha256, String(image['mime']));
    expect(bytes, `the pixels of ${String(image['id'])}`).toBeDefined();
    expect(bytes!.byteLength).toBe(Number(image['byte_size']));
    expect(createHash('sha256').update(bytes!).digest('hex')).toBe(sha256);
  }
}

interface Report {
  status: string;
  flows: Array<{ name: string; status: string; sessionId?: string; queueAttempts?: Array<{ attempt: number; sessionId?: string; outcome: string }> }>;
}

const servers = redisAvailable() && postgresAvailable();

describe.skipIf(!servers)('the team store on real Redis, PostgreSQL and s3rver', () => {
  it('six flows on two workers, one killed mid-job: every session is in the store with its screenshots, the lost one marked and then shipped from its home', { timeout: scaledLimit(300_000) }, async () => {
    let hangSeen!: () => void;
    const hang = new Promise<void>((resolve) => (hangSeen = resolve));
    model.script(answeringModel(() => hangSeen()));
    const files = [
      ...[1, 2, 3, 4, 5].map((index) => flowFile(`Flow ${index}`, `The page shows a cart (flow ${index})`)),
      flowFile('Held', `${LATCH} The page shows a cart`),
    ];
    const workers = [startWorker('worker-a'), startWorker('worker-b')];
    for (const worker of workers) await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'a worker serving', timeoutMs: 120_000 });

    const out = join(folder, 'report.json');
    const runReport = join(folder, 'run.html');
    const client = startClient([...files, '--queue', redis.url, '--wait', '--retry', '1', '--out', out, '--report', runReport, ...teamArgs()]);
    await hang;
    const holder = await waitFor(() => workers.find((worker) => worker.output.stderr.includes('▶ Held')), { description: 'the worker holding the latched flow' });
    const holderHome = workers.indexOf(holder) === 0 ? 'worker-a' : 'worker-b';
    const survivor = workers.find((worker) => worker !== holder)!;
    // The held run's screenshot, taken before its model call hung, is in the store before its worker dies.
    const store = await storeClient();
    const heldSession = await waitFor(() => /Held \(job [^)]+\): session (ses_[0-9a-f]{12})/.exec(holder.output.stderr)?.[1], { description: "the held run's session" });
    await waitFor(async () => sessionIn(await store.changesSince(0), heldSession).images.length > 0, {
      description: "the held run's first screenshot in the team store",
      timeoutMs: 60_000,
      intervalMs: 200,
    });
    holder.child.kill('SIGKILL');

    const run = await client.exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('6 flows: 6 passed, 0 failed');
    for (const name of ['Flow 1', 'Flow 2', 'Flow 3', 'Flow 4', 'Flow 5', 'Held']) {
      expect(run.stderr.split('\n').filter((line) => line.startsWith(`✓ ${name} passed`)), `${name} reported once`).toHaveLength(1);
    }
    // The whole run's report, drawn from the team store: every flow's frames inline.
    expect(run.stderr).toMatch(/report: .*run\.html \(\d+ KB\)/);
    // Frames are kept once per content hash, and the six flows saw the same page: at least one, none missing.
    expect((readFileSync(runReport, 'utf8').match(/data:image\/(png|jpeg|webp)/g) ?? []).length).toBeGreaterThanOrEqual(1);
    expect(readFileSync(runReport, 'utf8')).not.toContain('no longer stored');
    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    const held = report.flows.find((flow) => flow.name === 'Held')!;
    const lostSession = held.queueAttempts![0]!.sessionId!;
    expect(held.queueAttempts![0]!.outcome).toBe('lost');
    expect(lostSession).toBe(heldSession);

    // Every flow's session: its rows in PostgreSQL, complete, and its pixels in the bucket.
    const changes = await store.changesSince(0);
    for (const flow of report.flows) {
      const stored = sessionIn(changes, flow.sessionId!);
      expect(stored.sessions, `${flow.name}: its session row`).toHaveLength(1);
      expect(stored.turns.length, `${flow.name}: its turns`).toBeGreaterThan(0);
      expect(stored.turns.every((turn) => turn['status'] !== 'running'), `${flow.name}: its turns ended`).toBe(true);
      expect(stored.images.length, `${flow.name}: its screenshots`).toBeGreaterThan(0);
      expect(stored.state?.state, `${flow.name}: shipped whole`).toBe('complete');
      await expectPixelsInBucket(stored.images);
    }
    const lost = sessionIn(changes, lostSession);
    expect(lost.state?.state).toBe('lost');
    expect(lost.state?.detail).toContain(`pid ${holder.child.pid}`);
    await expectPixelsInBucket(lost.images);

    // A reader on another machine: the session through its mirror, the report's frames fetched from the bucket.
    const recovered = report.flows.find((flow) => flow.name === 'Held')!.sessionId!;
    const html = join(folder, 'held.html');
    const written = await startSightline(['--home', home('reader'), 'report', recovered, '--html', html, ...teamArgs()], s3.env).exited;
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toMatch(/wrote .*held\.html \(\d+ KB, [1-9]\d* frames\)/);
    expect(written.stderr).not.toMatch(/unavailable|missing/i);
    const shown = await startSightline(['--home', home('reader'), 'sessions', 'show', lostSession, '--json', ...teamArgs()], s3.env).exited;
    expect(shown.code, shown.stderr).toBe(0);
    // The store says the run was lost: its turn is not shown running forever.
    expect((JSON.parse(shown.stdout) as { turns: Array<{ status: string }> }).turns.map((turn) => turn.status)).not.toContain('running');

    // The dead worker's machine comes back: its home is shipped again, and the store has the whole run.
    const revived = startWorker(holderHome);
    await waitFor(() => revived.output.stderr.includes('left unshipped'), { description: 'the revived worker shipping what it left', timeoutMs: 60_000 });
    const shipped = await waitFor(
      async () => {
        const state = sessionIn(await store.changesSince(0), lostSession);
        return state.state?.state === 'complete' ? state : undefined;
      },
      { description: 'the lost run shipped whole from its home', timeoutMs: 60_000, intervalMs: 200 },
    );
    expect(shipped.turns.map((turn) => turn['status'])).toEqual(['stopped']);
    survivor.child.kill('SIGTERM');
    revived.child.kill('SIGTERM');
    for (const worker of [survivor, revived]) expect((await worker.exited).code).toBe(0);
  });

  it('PostgreSQL unreachable: the worker runs its flow, says so, and ships the session when PostgreSQL comes up; readers exit 1 without the password', { timeout: scaledLimit(180_000) }, async () => {
    model.script(Array.from({ length: 10 }, () => answerTrue()));
    await postgres.stop();
    const reader = await startSightline(['--home', home('reader'), 'sessions', 'ls', ...teamArgs()], s3.env).exited;
    expect(reader.code).toBe(1);
    expect(reader.stderr).toContain(parseStoreUrl(postgres.url).shown);
    expect(reader.stderr).toMatch(/unreachable|refused/i);
    expect(reader.stderr + reader.stdout).not.toContain(postgres.password);

    const worker = startWorker('worker', { SIGHTLINE_STORE_SETTLE_MS: '2000' });
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 60_000 });
    const run = await startClient([flowFile('Offline store', 'The page shows a cart'), '--queue', redis.url, '--wait', '--out', join(folder, 'r.json')]).exited;
    expect(run.code, run.stderr).toBe(0);
    expect(worker.output.stderr).toMatch(/team store: .*(unreachable|refused)/i);
    expect(worker.output.stderr).toContain('stays in this machine\'s home');
    expect(worker.output.stderr).not.toContain(postgres.password);

    await postgres.start();
    const sessionId = (JSON.parse(readFileSync(join(folder, 'r.json'), 'utf8')) as Report).flows[0]!.sessionId!;
    const store = await storeClient();
    const stored = await waitFor(
      async () => {
        const state = sessionIn(await store.changesSince(0), sessionId);
        return state.state?.state === 'complete' ? state : undefined;
      },
      { description: 'the session shipped once PostgreSQL answers', timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(stored.images.length).toBeGreaterThan(0);
    await expectPixelsInBucket(stored.images);
    expect(worker.output.stderr).toContain('team store: reachable again');
  });

  it('S3 refusing writes: no row reaches PostgreSQL without its pixels, and all of it arrives when S3 is back', { timeout: scaledLimit(180_000) }, async () => {
    model.script(Array.from({ length: 10 }, () => answerTrue()));
    s3.failWrites(true);
    const worker = startWorker('worker', { SIGHTLINE_STORE_SETTLE_MS: '2000' });
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 60_000 });
    const run = await startClient([flowFile('Bucket down', 'The page shows a cart'), '--queue', redis.url, '--wait', '--out', join(folder, 'r.json')]).exited;
    expect(run.code, run.stderr).toBe(0);
    expect(worker.output.stderr).toMatch(/team store: .*s3:\/\//);
    const sessionId = (JSON.parse(readFileSync(join(folder, 'r.json'), 'utf8')) as Report).flows[0]!.sessionId!;
    const store = await storeClient();
    expect(sessionIn(await store.changesSince(0), sessionId).images).toEqual([]);

    s3.failWrites(false);
    const stored = await waitFor(
      async () => {
        const state = sessionIn(await store.changesSince(0), sessionId);
        return state.state?.state === 'complete' ? state : undefined;
      },
      { description: 'the session shipped once S3 takes writes', timeoutMs: 90_000, intervalMs: 250 },
    );
    expect(stored.images.length).toBeGreaterThan(0);
    await expectPixelsInBucket(stored.images);
  });

  it('a session a worker ran opens in `sightline timeline --store --blobs`: listed, its screenshots drawn from the bucket, a new run appearing live, changes refused', { timeout: scaledLimit(240_000) }, async () => {
    model.script(Array.from({ length: 20 }, () => answerTrue()));
    const worker = startWorker('worker');
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 60_000 });
    const first = await startClient([flowFile('Seen in the timeline', 'The page shows a cart'), '--queue', redis.url, '--wait', '--out', join(folder, 'first.json')]).exited;
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (JSON.parse(readFileSync(join(folder, 'first.json'), 'utf8')) as Report).flows[0]!.sessionId!;

    // The renderer global setup built from the sources under test: a stale out/renderer would not know the store's events.
    const timeline = startSightline(['--home', home('reader'), 'timeline', ...teamArgs()], { ...s3.env, SIGHTLINE_RENDERER_DIR: builtRenderer() });
    started.push(timeline);
    // The URL goes to stdout just before the line naming the store goes to stderr: two pipes, read in either order.
    const url = await waitFor(() => (timeline.output.stderr.includes('Sightline timeline for') ? /^(http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(timeline.output.stdout)?.[1] : undefined), {
      description: 'the timeline URL and its startup line',
      timeoutMs: 60_000,
    });
    expect(timeline.output.stderr).toContain(parseStoreUrl(postgres.url).shown);
    expect(timeline.output.stderr + timeline.output.stdout).not.toContain(postgres.password);

    const browser = await launchTimelineBrowser();
    opened.push(browser);
    const view = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems: string[] = [];
    view.on('pageerror', (error) => problems.push(error.message));
    await view.goto(url);
    await view.locator(`.session-item[data-session-id="${sessionId}"] .session-open`).click();
    // The reader's mirror had no pixels: every frame drawn came from the bucket.
    await expect.poll(() => view.locator('.step-row .step-media-frame.media-ok image').count(), { timeout: scaledLimit(30_000) }).toBeGreaterThan(0);
    expect(await view.locator('.step-media-frame.media-unavailable').count()).toBe(0);

    // A run a worker makes while the timeline is open appears without a reload.
    const second = await startClient([flowFile('Appears live', 'The page shows a cart'), '--queue', redis.url, '--wait', '--out', join(folder, 'second.json')]).exited;
    expect(second.code, second.stderr).toBe(0);
    const liveId = (JSON.parse(readFileSync(join(folder, 'second.json'), 'utf8')) as Report).flows[0]!.sessionId!;
    await expect.poll(() => view.locator(`.session-item[data-session-id="${liveId}"]`).count(), { timeout: scaledLimit(30_000) }).toBe(1);

    // Read-only: a change through the API is refused with the reason (the same token the page uses).
    const deleted = await view.evaluate(async (id) => {
      // The page took the token out of its address into the tab's sessionStorage (renderer/src/api/connect.ts).
      const page = globalThis as unknown as { location: { href: string }; sessionStorage: { getItem(key: string): string | null } };
      if (page.location.href.includes('token=')) throw new Error('the token is still in the address bar');
      const token = page.sessionStorage.getItem('sightline.timeline-token') ?? '';
      const response = await fetch(`/api/deleteSession`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify([id]) });
      return { status: response.status, body: await response.text() };
    }, sessionId);
    expect(deleted.body).toContain('read-only');
    expect(problems).toEqual([]);
  });
});
