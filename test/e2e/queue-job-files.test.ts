/**
 * Issue 33, finding 3, through the queue: a job is put on a real Redis the way any Redis client can (BullMQ's own
 * Queue, a crafted payload, no sightline client), and a real `sightline worker` takes it. Its flow's `use:` names
 * files of the worker's machine outside the job's folder; the job is refused at those lines, and nothing of those
 * files reaches the result, the progress, the job's log, the queue's events stream or the worker's output.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { redisAvailable, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { startSightline, type SightlineProcess } from './support/sightline-process.js';

const QUEUE = 'sightline-browser';
const CANARY = 'sk-canary-worker-0123456789abcdef';

let redis: RedisServer;
let model: FakeOpenAiServer;
let home: TemporaryHome;
let outside: string;
let worker: SightlineProcess | undefined;

beforeEach(async () => {
  redis = await startRedis();
  model = await startFakeOpenAiServer();
  home = createTemporaryHome('sightline-queue-job-files');
  outside = mkdtempSync(join(tmpdir(), 'sightline-worker-files-'));
  writeFileSync(join(outside, 'config.json'), JSON.stringify({ model: { apiKey: CANARY } }, null, 2));
});

afterEach(async () => {
  if (worker !== undefined && worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  await worker?.exited.catch(() => undefined);
  worker = undefined;
  await model.close();
  await redis.remove();
  home.remove();
  rmSync(outside, { recursive: true, force: true });
});

/** A payload as a hostile enqueuer writes it: valid for the job schema, one flow file whose steps are `uses`. */
function craftedJob(uses: readonly string[]): Record<string, unknown> {
  return jobOf(`name: crafted\ntarget: { operator: browser, url: "https://shop.example/" }\nsteps:\n${uses.map((use) => `  - use: ${JSON.stringify(use)}\n`).join('')}`, {});
}

function jobOf(text: string, vars: Record<string, string>): Record<string, unknown> {
  return {
    version: 1,
    runId: 'run_0123456789ab',
    index: 0,
    entry: 'main.flow.yaml',
    files: [{ path: 'main.flow.yaml', text }],
    clientFile: 'main.flow.yaml',
    flowName: 'crafted',
    operator: 'browser',
    vars,
    settings: { allowFileUrls: false, continueOnError: false, yes: false },
    secretNames: [],
    attempts: 1,
    enqueuedAt: new Date().toISOString(),
    client: { host: 'anywhere', pid: 1 },
  };
}

describe.skipIf(!redisAvailable())('a queued job reads only the files it carried', () => {
  it('use: ../../etc/passwd, /proc/self/environ and a symlink outside the job are refused, quoting none of them', { timeout: 180_000 }, async () => {
    // Beside the job's folder (the worker makes it under this TMPDIR), a link to a file of the worker's.
    const workerTmp = mkdtempSync(join(tmpdir(), 'sightline-worker-tmp-'));
    symlinkSync(join(outside, 'config.json'), join(workerTmp, 'link.flow.yaml'));
    try {
      worker = startSightline(['--home', home.root, 'worker', '--queue', redis.url], { SIGHTLINE_MODEL_BASE_URL: model.baseUrl, TMPDIR: workerTmp });
      const running = worker;
      await waitFor(() => running.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 90_000 });
      const environ = readFileSync(`/proc/${running.child.pid}/environ`, 'utf8');
      const firstVariable = environ.split('\0')[0]!.slice(0, 40);

      const connection = { host: '127.0.0.1', port: redis.port };
      const queue = new Queue(QUEUE, { connection });
      const events = new QueueEvents(QUEUE, { connection });
      try {
        await events.waitUntilReady();
        const uses = ['../../etc/passwd', '/proc/self/environ', join(outside, 'config.json'), '../link.flow.yaml'];
        const job = await queue.add('crafted', craftedJob(uses), { jobId: 'run_0123456789ab.0', attempts: 1 });
        await job.waitUntilFinished(events, 120_000);

        const done = (await Job.fromId(queue, job.id!))!;
        const result = (done.returnvalue as { flow: { status: string; error: string } }).flow;
        expect(result.status).toBe('failed');
        const refusals = result.error.split('\n').filter((line) => line.includes('use:'));
        expect(refusals).toEqual([
          "main.flow.yaml:4:10: use: ../../etc/passwd is outside the job's folder: a queued flow may use only the files its job carried",
          "main.flow.yaml:5:10: use: /proc/self/environ is outside the job's folder: a queued flow may use only the files its job carried",
          `main.flow.yaml:6:10: use: ${join(outside, 'config.json')} is outside the job's folder: a queued flow may use only the files its job carried`,
          "main.flow.yaml:7:10: use: ../link.flow.yaml is outside the job's folder: a queued flow may use only the files its job carried",
        ]);

        const client = new Redis(redis.url);
        const eventsStream = await client.xrange(`bull:${QUEUE}:events`, '-', '+').finally(() => client.disconnect());
        const stored = [
          JSON.stringify(done.returnvalue),
          JSON.stringify(done.progress),
          JSON.stringify((await queue.getJobLogs(job.id!)).logs),
          JSON.stringify(eventsStream),
          running.output.stdout,
          running.output.stderr,
        ].join('\n');
        for (const secret of [CANARY, 'apiKey', 'root:x:0:0', firstVariable]) expect(stored).not.toContain(secret);
      } finally {
        await events.close();
        await queue.close();
      }
    } finally {
      rmSync(workerTmp, { recursive: true, force: true });
    }
  });

  it('a --var value repeated past 1 MB by the flow\'s vars is refused at load, at the var\'s line (issue 33, finding 6)', { timeout: 180_000 }, async () => {
    worker = startSightline(['--home', home.root, 'worker', '--queue', redis.url], { SIGHTLINE_MODEL_BASE_URL: model.baseUrl });
    const running = worker;
    await waitFor(() => running.output.stderr.includes('serving browser flows'), { description: 'the worker serving', timeoutMs: 90_000 });
    const connection = { host: '127.0.0.1', port: redis.port };
    const queue = new Queue(QUEUE, { connection });
    const events = new QueueEvents(QUEUE, { connection });
    try {
      await events.waitUntilReady();
      const text = `name: bomb\ntarget: { operator: browser, url: "https://shop.example/" }\nparams: [seed]\nvars:\n  wide: "${'${seed}'.repeat(10)}"\n  wider: "${'${wide}'.repeat(10)}"\nsteps:\n  - do: "\${wider}"\n`;
      const job = await queue.add('bomb', jobOf(text, { seed: 's'.repeat(100_000) }), { jobId: 'run_0123456789ab.1', attempts: 1 });
      await job.waitUntilFinished(events, 120_000);
      const result = ((await Job.fromId(queue, job.id!))!.returnvalue as { flow: { status: string; error: string; steps: unknown[] } }).flow;
      expect(result.status).toBe('failed');
      expect(result.steps).toEqual([]);
      expect(result.error).toContain("main.flow.yaml:6:3: variable wider: rendered, it would be longer than 1 MB, the most a text of a flow may be; each ${…} repeats its variable's whole text");
      expect(model.requests).toEqual([]);
    } finally {
      await events.close();
      await queue.close();
    }
  });
});
