/**
 * The flow queue with a real Redis and real processes: two `sightline worker`s and a `sightline flow --queue --wait`
 * client run six browser flows against a local page and the fake model. One flow's model call hangs (the latch);
 * the worker holding it is killed with SIGKILL, BullMQ's stalled-job check hands the job to the other worker, and
 * every flow passes, each reported once, the recovered one naming both its attempts. The stalled check runs every
 * 2 s here (SIGHTLINE_QUEUE_LOCK_MS); BullMQ's default is 30 s.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type RecordedRequest, type ScriptedReply } from '../helpers/fake-openai-server.js';
import { redisAvailable, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { summarizeRequest } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { answeringModel, answerTrue, LATCH, queuedFlowFile, WORKER_READS_PAGE_URL } from '../helpers/queued-flows.js';
import { startXvfb } from '../helpers/xvfb.js';
import { startSightline, type SightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

let page: CartPageServer;
let redis: RedisServer;
let model: FakeOpenAiServer;
let folder: string;
const homes: TemporaryHome[] = [];
const started: SightlineProcess[] = [];

beforeAll(async () => {
  page = await startCartPage();
});

afterAll(async () => {
  await page?.close();
});

beforeEach(async () => {
  redis = await startRedis();
  model = await startFakeOpenAiServer();
  folder = mkdtempSync(join(tmpdir(), 'sightline-queue-flows-'));
});

afterEach(async () => {
  for (const process of started.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    await process.exited.catch(() => undefined);
  }
  await model.close();
  await redis.remove();
  for (const home of homes.splice(0)) home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function home(name: string): string {
  const created = createTemporaryHome(`sightline-queue-${name}`);
  homes.push(created);
  return created.root;
}

function flowFile(name: string, assertion: string): string {
  return queuedFlowFile(folder, name, assertion);
}

function startWorker(name: string, url = redis.url): SightlineProcess {
  const worker = startSightline(['--home', home(name), 'worker', '--queue', url], {
    SIGHTLINE_MODEL_BASE_URL: model.baseUrl,
    PAGE_URL: page.url,
    SIGHTLINE_QUEUE_LOCK_MS: '2000',
    ...WORKER_READS_PAGE_URL,
  });
  started.push(worker);
  return worker;
}

function startClient(args: readonly string[]): SightlineProcess {
  const client = startSightline(['--home', home('client'), 'flow', ...args]);
  started.push(client);
  return client;
}

/** A model whose first request naming the latch waits for `release` before it answers; every other one answers at once. */
function heldModel(onHeld: () => void, release: Promise<void>): ScriptedReply[] {
  let held = false;
  const answer = answerTrue();
  return Array.from({ length: 40 }, () => async (request: RecordedRequest) => {
    if (!held && summarizeRequest(request).text.includes(LATCH)) {
      held = true;
      onHeld();
      await release;
    }
    return answer(request);
  });
}

interface JobStatus {
  id: string;
  queue: string;
  flow: string;
  state: string;
  attempts: Array<{ attempt: number; pid: number; outcome: string }>;
  status?: string;
}

/** `sightline queue status ID --json`, as a person would ask it. */
async function queueStatus(id: string): Promise<JobStatus[]> {
  const run = await startSightline(['--home', home('status'), 'queue', 'status', id, '--queue', redis.url, '--json']).exited;
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as JobStatus[];
}

function runIdOf(output: string): string {
  return /enqueued .* as (run_[0-9a-f]{12}) /.exec(output)![1]!;
}

interface Report {
  status: string;
  flows: Array<{ name: string; status: string; attempts: number; sessionId?: string; earlierSessions: string[]; queueAttempts?: Array<{ attempt: number; host: string; pid: number; sessionId?: string; outcome: string }> }>;
}

describe.skipIf(!redisAvailable())('the flow queue on a real Redis', () => {
  it('runs six flows on two workers; a worker killed mid-job loses nothing and nothing is reported twice', { timeout: scaledLimit(360_000) }, async () => {
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
    const client = startClient([...files, '--queue', redis.url, '--wait', '--retry', '1', '--out', out]);
    await hang;
    const holder = await waitFor(() => workers.find((worker) => worker.output.stderr.includes('▶ Held')), { description: 'the worker holding the latched flow' });
    const survivor = workers.find((worker) => worker !== holder)!;
    holder.child.kill('SIGKILL');

    const run = await client.exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('6 flows: 6 passed, 0 failed');
    for (const name of ['Flow 1', 'Flow 2', 'Flow 3', 'Flow 4', 'Flow 5', 'Held']) {
      expect(run.stderr.split('\n').filter((line) => line.startsWith(`✓ ${name} passed`)), `${name} reported once`).toHaveLength(1);
    }

    const report = JSON.parse(readFileSync(out, 'utf8')) as Report;
    expect(report.status).toBe('passed');
    expect(report.flows.map((flow) => flow.name).sort()).toEqual(['Flow 1', 'Flow 2', 'Flow 3', 'Flow 4', 'Flow 5', 'Held']);
    const held = report.flows.find((flow) => flow.name === 'Held')!;
    expect(held.attempts).toBe(2);
    const [lost, recovered] = held.queueAttempts!;
    expect(lost).toMatchObject({ attempt: 1, host: hostname(), pid: holder.child.pid, outcome: 'lost' });
    expect(lost!.sessionId).toMatch(/^ses_[0-9a-f]{12}$/);
    expect(recovered).toMatchObject({ attempt: 2, pid: survivor.child.pid, outcome: 'passed', sessionId: held.sessionId });
    expect(held.earlierSessions).toEqual([lost!.sessionId]);
    for (const flow of report.flows.filter((each) => each.name !== 'Held')) {
      expect(flow.attempts, flow.name).toBe(1);
      expect(flow.queueAttempts, flow.name).toHaveLength(1);
    }

    // SIGTERM: the survivor finishes (it holds nothing now) and exits cleanly.
    survivor.child.kill('SIGTERM');
    const ended = await survivor.exited;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toContain('worker stopped');
  });

  it('a worker waiting for jobs rides out a Redis restart and takes the next job', { timeout: scaledLimit(240_000) }, async () => {
    model.script(answeringModel(() => undefined));
    const worker = startWorker('worker');
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 120_000 });
    await redis.stop();
    await waitFor(() => worker.output.stderr.includes(`cannot reach the queue at ${redis.url}`), { description: 'the worker saying Redis is gone', timeoutMs: 30_000 });
    await redis.start();
    await waitFor(() => worker.output.stderr.includes(`the queue at ${redis.url} is reachable again`), { description: 'the worker reconnected', timeoutMs: 30_000 });

    const run = await startClient([flowFile('After restart', 'The page shows a cart'), '--queue', redis.url, '--wait']).exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 flow: 1 passed, 0 failed');
    expect(worker.output.stderr).toContain('✓ After restart');
  });

  it('without Redis, the client exits with a clear message and the worker keeps retrying with backoff; the password is never shown', { timeout: scaledLimit(240_000) }, async () => {
    await redis.stop();
    const url = `redis://sightline:hunter2-secret@127.0.0.1:${redis.port}`;
    const client = await startClient([flowFile('Nowhere', 'The page shows a cart'), '--queue', url, '--wait']).exited;
    expect(client.code).toBe(2);
    expect(client.stderr).toContain(`cannot reach the queue at redis://***@127.0.0.1:${redis.port}`);
    expect(client.stderr).toContain('Is Redis running there?');
    expect(client.stderr + client.stdout).not.toContain('hunter2-secret');

    const worker = startWorker('worker', url);
    const retries = () => worker.output.stderr.split('\n').filter((line) => line.includes('cannot reach the queue') && line.includes('retrying in'));
    await waitFor(() => retries().length >= 3, { description: 'three retries announced', timeoutMs: 60_000 });
    const delays = retries().map((line) => Number(/retrying in ([\d.]+) s/.exec(line)![1]));
    expect(delays[2]!).toBeGreaterThan(delays[0]!);
    expect(worker.output.stderr).not.toContain('hunter2-secret');
    expect(worker.child.exitCode).toBeNull();
  });

  it('a SIGTERM finishes the job in hand, takes no new one, and the worker exits cleanly', { timeout: scaledLimit(240_000) }, async () => {
    let heldSeen!: () => void;
    const held = new Promise<void>((resolve) => (heldSeen = resolve));
    let release!: () => void;
    model.script(heldModel(() => heldSeen(), new Promise<void>((resolve) => (release = resolve))));
    const worker = startWorker('worker');
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 120_000 });
    const client = startClient([flowFile('In hand', `${LATCH} The page shows a cart`), '--queue', redis.url, '--wait']);
    await held;

    worker.child.kill('SIGTERM');
    await waitFor(() => worker.output.stderr.includes('SIGTERM: finishing the job in hand (1)'), { description: 'the worker finishing its job', timeoutMs: 30_000 });
    // Enqueued while the stopping worker's one slot is busy: it must still be waiting when the worker has gone.
    const later = await startClient([flowFile('Later', 'The page shows a cart'), '--queue', redis.url]).exited;
    expect(later.code, later.stderr).toBe(0);
    release();

    // The worker first: had it handed the job back instead, the client would wait for it forever.
    const ended = await worker.exited;
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stderr).toMatch(/✓ In hand \(job run_[0-9a-f]{12}\.1\) passed/);
    expect(ended.stderr).toContain('worker stopped');
    expect(ended.stderr).not.toContain('▶ Later');
    const run = await client.exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('1 flow: 1 passed, 0 failed');
    const [waiting] = await queueStatus(runIdOf(later.stderr));
    expect(waiting).toMatchObject({ flow: 'Later', state: 'waiting', attempts: [] });
  });

  it('queue cancel stops a running job: its worker stops the flow, and the client waiting for it reports it stopped', { timeout: scaledLimit(240_000) }, async () => {
    let hangSeen!: () => void;
    const hang = new Promise<void>((resolve) => (hangSeen = resolve));
    model.script(answeringModel(() => hangSeen()));
    const worker = startWorker('worker');
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 120_000 });
    const client = startClient([flowFile('Held', `${LATCH} The page shows a cart`), '--queue', redis.url, '--wait']);
    // The flow's model call hangs: the job is running, and only a cancel ends it.
    await hang;
    const runId = runIdOf(client.output.stderr);
    const cancel = await startSightline(['--home', home('cancel'), 'queue', 'cancel', runId, '--queue', redis.url]).exited;
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout + cancel.stderr).toContain('its worker was asked to stop it');
    await waitFor(() => new RegExp(`job ${runId}\\.\\d+: cancelled; stopping its flow`).test(worker.output.stderr), {
      description: 'the worker stopping the cancelled flow',
      timeoutMs: 30_000,
    });
    const run = await client.exited;
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('1 flow: 0 passed, 0 failed, 1 stopped');
    // The worker is free again: it takes the next job.
    model.script([answerTrue()]);
    const next = await startClient([flowFile('Next', 'The page shows a cart'), '--queue', redis.url, '--wait']).exited;
    expect(next.code, next.stderr).toBe(0);
  });

  it('queue cancel removes a waiting job, and the client waiting for it reports it stopped', { timeout: scaledLimit(240_000) }, async () => {
    // No worker: the job waits until it is cancelled.
    const client = startClient([flowFile('Never run', 'The page shows a cart'), '--queue', redis.url, '--wait']);
    const runId = await waitFor(() => /enqueued .* as (run_[0-9a-f]{12}) /.exec(client.output.stderr)?.[1], { description: 'the run enqueued', timeoutMs: 60_000 });
    const [before] = await queueStatus(`${runId}.1`);
    expect(before!.state).toBe('waiting');

    const cancel = await startSightline(['--home', home('cancel'), 'queue', 'cancel', runId, '--queue', redis.url]).exited;
    expect(cancel.code, cancel.stderr).toBe(0);
    expect(cancel.stdout).toContain(`${runId}.1: removed before it started`);

    const run = await client.exited;
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('cancelled: the job was removed from the queue before it ended');
    expect(run.stderr).toContain('1 flow: 0 passed, 0 failed, 1 stopped');
    const gone = await startSightline(['--home', home('status'), 'queue', 'status', runId, '--queue', redis.url]).exited;
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`no job or run ${runId} in the queue`);
  });

  it('a desktop flow waits for a desktop worker: a browser-only worker never takes it, one with a desktop runs it', { timeout: scaledLimit(360_000) }, async () => {
    model.script(answeringModel(() => undefined));
    const desktop = join(folder, 'a-desktop.flow.yaml');
    writeFileSync(desktop, 'name: On the desktop\ntarget: { operator: desktop }\nsteps:\n  - assert: The desktop shows a window\n');
    // Enqueued after the desktop flow, in the same run: once the worker has finished it, it had every chance to take the first.
    const browser = flowFile('B in the browser', 'The page shows a cart');
    const worker = startWorker('worker');
    await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 120_000 });
    const enqueued = await startClient([desktop, browser, '--queue', redis.url]).exited;
    expect(enqueued.code, enqueued.stderr).toBe(0);
    const runId = runIdOf(enqueued.stderr);

    const jobs = await waitFor(
      async () => {
        const found = await queueStatus(runId);
        return found.find((job) => job.flow === 'B in the browser')?.state === 'completed' && found;
      },
      { description: 'the browser flow completed', timeoutMs: 60_000, intervalMs: 250 },
    );
    expect(jobs.find((job) => job.flow === 'On the desktop')).toMatchObject({ queue: 'sightline-desktop', state: 'waiting', attempts: [] });
    expect(worker.output.stderr).not.toContain('▶ On the desktop');

    // A worker that declares a desktop (its own X display) takes the waiting desktop flow and runs it there.
    const xvfb = await startXvfb({ width: 1024, height: 640 });
    try {
      const desktopWorker = startSightline(['--home', home('desktop-worker'), 'worker', '--queue', redis.url, '--operator', 'desktop'], {
        SIGHTLINE_MODEL_BASE_URL: model.baseUrl,
        SIGHTLINE_QUEUE_LOCK_MS: '2000',
        DISPLAY: xvfb.display,
      });
      started.push(desktopWorker);
      const done = await waitFor(
        async () => {
          const found = await queueStatus(runId);
          return found.find((job) => job.flow === 'On the desktop')?.state === 'completed' && found;
        },
        { description: 'the desktop flow completed on the desktop worker', timeoutMs: 90_000, intervalMs: 250 },
      );
      expect(done.find((job) => job.flow === 'On the desktop')).toMatchObject({ queue: 'sightline-desktop', status: 'passed', attempts: [{ pid: desktopWorker.child.pid, outcome: 'passed' }] });
      expect(desktopWorker.output.stderr).toContain('serving browser and desktop flows');
      expect(desktopWorker.output.stderr).toContain('✓ On the desktop');
      expect(worker.output.stderr).not.toContain('▶ On the desktop');
    } finally {
      for (const process of started.splice(0)) {
        if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
        await process.exited.catch(() => undefined);
      }
      await xvfb.stop();
    }
  });
});
