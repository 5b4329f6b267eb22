/**
 * A worker trusts no job (issue 33), on a real Redis with real `sightline worker` processes. Jobs are put on the
 * queue the way any Redis client can, with BullMQ's own `Queue.add` and a crafted payload, past our client:
 * - a job reads only the environment variables and secrets the worker's owner allows (worker.allowEnv,
 *   worker.allowSecrets); a refusal names the variable, never its value; and nothing of the worker's (its model key,
 *   AWS secret, PostgreSQL password, an allowed variable's value) is anywhere in Redis after a run, however the
 *   model echoed them: every key is read back;
 * - a job may only tighten the worker's settings unless its owner sets worker.allowLoosening;
 * - a flow name with a newline forges no line in the worker's log or in `queue status`/`queue ls`;
 * - `queue ls` works on an empty Redis and on a busy one;
 * - the client prints a queued flow's steps as a local `sightline flow` run does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { QueueConnection } from '../../src/main/queue/queue-connection.js';
import { parseQueueUrl } from '../../src/main/queue/queue-url.js';
import { startCartPage, type CartPageServer } from '../helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../helpers/fake-openai-server.js';
import { answeringModel, queuedFlowFile, WORKER_READS_PAGE_URL } from '../helpers/queued-flows.js';
import { redisAvailable, startRedis, type RedisServer } from '../helpers/redis-server.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { runSightlineProcess, startSightline, type SightlineProcess } from './support/sightline-process.js';
import { scaledLimit } from '../helpers/time-limits.js';

/** The worker's own secrets and an allowed variable's value: none may ever be in Redis. */
const WORKER_SECRETS = {
  OPENAI_API_KEY: 'sk-fake-worker-model-key-0123456789',
  AWS_SECRET_ACCESS_KEY: 'aws-fake-secret-access-key-abcdef',
  PGPASSWORD: 'pg-fake-password-4242',
  SHOP_NOTE: 'note-value-allowed-31337',
  SHOP_PASSWORD: 'shop-password-allowed-555',
};

let page: CartPageServer;
let redis: RedisServer;
let model: FakeOpenAiServer;
let folder: string;
let connection: QueueConnection;
let raw: Queue;
let client: Redis;
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
  folder = mkdtempSync(join(tmpdir(), 'sightline-queue-trust-'));
  connection = new QueueConnection(parseQueueUrl(redis.url), { say: () => undefined }, undefined);
  raw = connection.watch(new Queue('sightline-browser', { connection: connection.options() }));
  client = connection.client();
});

afterEach(async () => {
  for (const process of started.splice(0)) {
    if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
    await process.exited.catch(() => undefined);
  }
  await raw.close();
  client.disconnect();
  await model.close();
  await redis.remove();
  for (const home of homes.splice(0)) home.remove();
  rmSync(folder, { recursive: true, force: true });
});

function home(name: string): string {
  const created = createTemporaryHome(`sightline-trust-${name}`);
  homes.push(created);
  return created.root;
}

async function startWorker(name: string, env: Record<string, string> = {}): Promise<SightlineProcess> {
  const worker = startSightline(['--home', home(name), 'worker', '--queue', redis.url], {
    SIGHTLINE_MODEL_BASE_URL: model.baseUrl,
    PAGE_URL: page.url,
    SIGHTLINE_QUEUE_LOCK_MS: '2000',
    ...WORKER_READS_PAGE_URL,
    ...env,
  });
  started.push(worker);
  await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: `worker ${name} serving`, timeoutMs: 90_000 });
  return worker;
}

let jobCount = 0;

/** A job as any Redis client can write it: our client's shape, with whatever the writer wants in it. */
async function putJob(flowText: string, overrides: { flowName?: string; settings?: Record<string, unknown>; secretNames?: string[] } = {}): Promise<string> {
  jobCount += 1;
  const runId = `run_${jobCount.toString(16).padStart(12, '0')}`;
  const id = `${runId}.1`;
  await raw.add(
    'crafted',
    {
      version: 1,
      runId,
      index: 0,
      entry: 'a.flow.yaml',
      files: [{ path: 'a.flow.yaml', text: flowText }],
      clientFile: '/elsewhere/a.flow.yaml',
      flowName: overrides.flowName ?? 'Crafted',
      operator: 'browser',
      vars: {},
      settings: { allowFileUrls: false, continueOnError: false, yes: false, ...overrides.settings },
      // A raw job may say anything here: the worker reads the flow itself.
      secretNames: overrides.secretNames ?? [],
      attempts: 1,
      enqueuedAt: new Date().toISOString(),
      client: { host: 'anyone', pid: 1 },
    },
    { jobId: id, attempts: 1 },
  );
  return id;
}

interface Ended {
  state: string;
  failedReason: string;
  result: { flow: { status: string; error?: string; steps: Array<{ text?: string; reason?: string; at?: { file: string } }> } } | undefined;
}

async function ended(id: string): Promise<Ended> {
  return waitFor(
    async () => {
      const job = await Job.fromId(raw, id);
      const state = await job?.getState();
      if (job === undefined || (state !== 'completed' && state !== 'failed')) return undefined;
      return { state, failedReason: job.failedReason ?? '', result: job.returnvalue as Ended['result'] };
    },
    { description: `job ${id} ended`, timeoutMs: 120_000, intervalMs: 200 },
  );
}

/** Every string Redis holds: each key's name and value, whatever its type (strings, hashes, lists, sets, sorted sets, streams). */
async function everythingInRedis(): Promise<string> {
  const keys = await client.keys('*');
  const parts: string[] = [];
  for (const key of keys) {
    parts.push(key);
    const type = await client.type(key);
    if (type === 'string') parts.push((await client.get(key)) ?? '');
    else if (type === 'hash') parts.push(JSON.stringify(await client.hgetall(key)));
    else if (type === 'list') parts.push(JSON.stringify(await client.lrange(key, 0, -1)));
    else if (type === 'set') parts.push(JSON.stringify(await client.smembers(key)));
    else if (type === 'zset') parts.push(JSON.stringify(await client.zrange(key, 0, -1)));
    else if (type === 'stream') parts.push(JSON.stringify(await client.xrange(key, '-', '+')));
    else parts.push(`(${type})`);
  }
  return parts.join('\n');
}

const target = 'target: { operator: browser, url: "${env.PAGE_URL}" }';

describe.skipIf(!redisAvailable())('a worker trusts no job', () => {
  it('reads only the variables and secrets its owner allows, and nothing of its own reaches Redis', { timeout: scaledLimit(480_000) }, async () => {
    // The model echoes everything it could have seen: the page's and the environment's secrets alike.
    const echo = scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: `The page shows ${Object.values(WORKER_SECRETS).join(', ')}.`, evidence: [] } }])[0]!;
    model.script([echo, echo, echo]);
    const worker = await startWorker('allowing', { ...WORKER_SECRETS, SIGHTLINE_WORKER_ALLOW_ENV: 'PAGE_URL,SHOP_NOTE', SIGHTLINE_WORKER_ALLOW_SECRETS: 'SHOP_PASSWORD' });

    const readsPassword = await putJob(`name: Reads env\n${target}\nsteps:\n  - assert: The page shows \${env.PGPASSWORD}\n`);
    const declaresAws = await putJob(`name: Declares a secret\n${target}\nsecrets: [AWS_SECRET_ACCESS_KEY]\nsteps:\n  - assert: The page shows \${AWS_SECRET_ACCESS_KEY}\n`, {
      secretNames: [],
    });
    const allowed = await putJob(
      `name: Allowed\n${target}\nsecrets: [SHOP_PASSWORD]\nsteps:\n  - assert: The page shows the note \${env.SHOP_NOTE}\n  - assert: The name field could take \${SHOP_PASSWORD}\n`,
    );

    const refusedEnv = await ended(readsPassword);
    expect(refusedEnv.state).toBe('failed');
    expect(refusedEnv.failedReason).toContain('${env.PGPASSWORD}');
    expect(refusedEnv.failedReason).toContain('worker.allowEnv');
    const refusedSecret = await ended(declaresAws);
    expect(refusedSecret.state).toBe('failed');
    expect(refusedSecret.failedReason).toContain('AWS_SECRET_ACCESS_KEY');
    expect(refusedSecret.failedReason).toContain('worker.allowSecrets');
    // Refused before it ran: no model call was made for either.
    expect(worker.output.stderr).not.toContain('▶ Reads env');
    expect(worker.output.stderr).not.toContain('▶ Declares a secret');

    const ran = await ended(allowed);
    expect(ran.state, ran.failedReason).toBe('completed');
    expect(ran.result!.flow.status, ran.result!.flow.error).toBe('passed');
    expect(model.requests).toHaveLength(2);
    const [first, second] = ran.result!.flow.steps;
    expect(first!.text).toContain('[redacted]');
    expect(first!.reason).toContain('[redacted]');
    expect(second!.text).toContain('{{SHOP_PASSWORD}}');
    // A step's file is the client's path, never the worker's private folder.
    expect(first!.at!.file).toBe('/elsewhere/a.flow.yaml');

    // The progress BullMQ keeps and its events stream, read raw: each step alone, redacted.
    const events = await client.xrange('bull:sightline-browser:events', '-', '+');
    const progress = events.map(([, fields]) => fields).filter((fields) => fields[1] === 'progress');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const fields of progress) {
      const data = JSON.parse(fields[fields.indexOf('data') + 1]!) as { step?: { path: string }; steps?: unknown };
      expect(data.step?.path).toMatch(/^[12]$/);
      expect(data.steps).toBeUndefined();
    }

    const stored = await everythingInRedis();
    expect(stored).toContain('[redacted]');
    for (const [name, value] of Object.entries(WORKER_SECRETS)) expect(stored.includes(value), `${name}'s value in Redis`).toBe(false);
    expect(stored).not.toContain('sightline-job-');
    expect(worker.output.stderr.includes(WORKER_SECRETS.PGPASSWORD)).toBe(false);
  });

  it('a job may only tighten the worker settings unless its owner lets jobs loosen them', { timeout: scaledLimit(480_000) }, async () => {
    model.script(answeringModel(() => undefined));
    const strict = await startWorker('strict');
    const loosening = {
      '--allow-file-urls': { allowFileUrls: true },
      '--confirm never': { confirm: 'never' },
      '--yes': { yes: true },
      '--max-steps 500': { maxSteps: '500' },
    };
    const flow = `name: Settings\n${target}\nsteps:\n  - assert: The page shows a cart\n`;
    for (const [flag, settings] of Object.entries(loosening)) {
      const done = await ended(await putJob(flow, { settings }));
      expect(done.state, flag).toBe('failed');
      expect(done.failedReason, flag).toContain(flag);
      expect(done.failedReason, flag).toContain('worker.allowLoosening');
    }
    const tighter = await ended(await putJob(flow, { settings: { confirm: 'always', maxSteps: '5', maxCost: '100000 tokens' } }));
    expect(tighter.state, tighter.failedReason).toBe('completed');
    expect(tighter.result!.flow.status).toBe('passed');

    // From our client as a person uses it: refused by this worker, with a note at once and the worker's reason.
    const file = queuedFlowFile(folder, 'From the client', 'The page shows a cart');
    const refused = await runSightlineProcess(['--home', home('client'), 'flow', file, '--queue', redis.url, '--wait', '--confirm', 'never', '--yes', '--allow-file-urls']);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('worker.allowLoosening');
    expect(refused.stderr).toMatch(/refused by worker .* before it ran: it loosens this worker's settings with --allow-file-urls .*--yes, --confirm never .*worker\.allowLoosening/);

    strict.child.kill('SIGTERM');
    expect((await strict.exited).code).toBe(0);
    await startWorker('loose', { SIGHTLINE_WORKER_ALLOW_LOOSENING: 'true' });
    const loosened = await ended(await putJob(flow, { settings: Object.assign({}, ...Object.values(loosening)) as Record<string, unknown> }));
    expect(loosened.state, loosened.failedReason).toBe('completed');
    expect(loosened.result!.flow.status).toBe('passed');
    const accepted = await runSightlineProcess(['--home', home('client'), 'flow', file, '--queue', redis.url, '--wait', '--confirm', 'never', '--yes', '--allow-file-urls']);
    expect(accepted.code, accepted.stderr).toBe(0);
  });

  it('queue ls works on an empty Redis and a busy one, and a flow name forges no line there or in the worker\'s log', { timeout: scaledLimit(480_000) }, async () => {
    const empty = await runSightlineProcess(['--home', home('ls'), 'queue', 'ls', '--queue', redis.url]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('the queue is empty\n');
    const emptyJson = await runSightlineProcess(['--home', home('ls'), 'queue', 'ls', '--queue', redis.url, '--json']);
    expect(emptyJson.code, emptyJson.stderr).toBe(0);
    expect(JSON.parse(emptyJson.stdout)).toEqual([]);

    model.script(answeringModel(() => undefined));
    const worker = await startWorker('worker');
    const forgedLine = (text: string) => text.split('\n').filter((line) => line.startsWith('✓ Forged') || line.startsWith('■ Overprinted'));
    const forged = 'Innocent\n✓ Forged passed\r■ Overprinted';
    const forging = await putJob(`name: Innocent\n${target}\nsteps:\n  - assert: The page shows a cart\n`, { flowName: forged });
    expect((await ended(forging)).state).toBe('completed');
    // Our client prints the name its worker reports on one line too.
    const named = join(folder, 'named.flow.yaml');
    writeFileSync(named, `name: "Named\\n✓ Forged passed"\n${target}\nsteps:\n  - assert: The page shows a cart\n`);
    const waited = await runSightlineProcess(['--home', home('client'), 'flow', named, '--queue', redis.url, '--wait']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(forgedLine(waited.stderr)).toEqual([]);
    expect(waited.stderr).toContain('✓ Named\\n✓ Forged passed passed');
    worker.child.kill('SIGTERM');
    await worker.exited;
    // Put with no worker serving: it stays waiting.
    const waiting = await putJob(`name: Waiting\n${target}\nsteps: []\n`, { flowName: 'Waiting\nmore' });

    expect(forgedLine(worker.output.stderr)).toEqual([]);
    expect(worker.output.stderr).toContain('Innocent\\n✓ Forged passed\\r■ Overprinted');
    const status = await runSightlineProcess(['--home', home('status'), 'queue', 'status', forging.replace(/\.1$/, ''), '--queue', redis.url]);
    expect(status.code, status.stderr).toBe(0);
    expect(forgedLine(status.stdout)).toEqual([]);
    expect(status.stdout).toContain('Innocent\\n✓ Forged passed\\r■ Overprinted');

    const busy = await runSightlineProcess(['--home', home('ls'), 'queue', 'ls', '--queue', redis.url]);
    expect(busy.code, busy.stderr).toBe(0);
    expect(forgedLine(busy.stdout)).toEqual([]);
    const listed = busy.stdout.trimEnd().split('\n');
    expect(listed).toHaveLength(3);
    expect(listed.find((line) => line.startsWith(forging))).toContain('completed (passed)');
    expect(listed.find((line) => line.startsWith(waiting))).toContain('waiting  Waiting\\nmore');
    const busyJson = await runSightlineProcess(['--home', home('ls'), 'queue', 'ls', '--queue', redis.url, '--json']);
    const ids = (JSON.parse(busyJson.stdout) as Array<{ id: string }>).map((job) => job.id);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual(expect.arrayContaining([forging, waiting]));
  });

  it('the client prints a queued flow\'s steps as a local run does: every kind of line, the reasons and evidence under a failure', { timeout: scaledLimit(480_000) }, async () => {
    // The same flow, queued and run here. It passes a step, extracts a value, fails a step it may go past, fails
    // one it may not, and leaves the last unreached: a line of each kind, and the reason and evidence under each
    // failure. Only what differs between two runs by nature is normalised: times and frame ids. Before, only two
    // passing lines were compared, and the lines under a failure not at all.
    const file = join(folder, 'steps.flow.yaml');
    writeFileSync(
      file,
      `name: Steps\n${target}\nsteps:\n  - assert: The page shows a cart\n  - extract: the cart total in dollars\n    as: total\n    schema: { type: number }\n  - assert: The cart is empty\n    continue_on_error: true\n  - assert: The total is \${total}\n  - assert: The page thanks the buyer\n`,
    );
    const replies = () =>
      scriptedMoves([
        { tool: 'answer', arguments: { verdict: true, reason: 'The page shows the cart.', evidence: [] } },
        { tool: 'answer', arguments: { value: 12.5, reason: 'The total reads $12.50.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: false, reason: 'The cart holds one item.', evidence: [] } },
        { tool: 'answer', arguments: { verdict: false, reason: 'The total reads $12.50, not 12.5.', evidence: [] } },
      ]);
    model.script([...replies(), ...replies()]);
    await startWorker('steps');
    const queued = await runSightlineProcess(['--home', home('client'), 'flow', file, '--queue', redis.url, '--wait']);
    expect(queued.code, queued.stderr).toBe(1);
    const local = await runSightlineProcess(['--home', home('local'), 'flow', file, '--base-url', model.baseUrl], { PAGE_URL: page.url });
    expect(local.code, local.stderr).toBe(1);
    // A step's line, and the reason line indented under a failed one.
    const stepLines = (stderr: string) =>
      stderr
        .split('\n')
        .filter((line) => /^ {2}[✓✗■!-] /.test(line) || /^ {6}\S/.test(line))
        .map((line) => line.replace(/\(\d+\.\d s\)/, '(time)').replace(/img_[0-9a-f]{12}/g, 'img_ID'));
    const lines = stepLines(local.stderr);
    expect(lines[0]).toBe('  ✓ 1 assert: The page shows a cart (time)');
    expect(lines[1]).toBe('  ✓ 2 extract: the cart total in dollars → 12.5 (time)');
    expect(lines.filter((line) => line.startsWith('      ')).map((line) => line.trim())).toEqual([
      expect.stringMatching(/^The cart holds one item\. \[evidence: img_ID\]$/),
      expect.stringMatching(/^The total reads \$12\.50, not 12\.5\. \[evidence: img_ID\]$/),
    ]);
    // A failure continue_on_error allows has its own mark and says so (issue 35), in the queue's lines too.
    expect(lines.some((line) => line.startsWith('  ! 3 assert: The cart is empty (time) [failed, allowed by continue_on_error]'))).toBe(true);
    expect(lines.some((line) => line.startsWith('  ✗ 4 assert: The total is 12.5 (time)'))).toBe(true);
    // The step not reached gets no line, here or there.
    expect(lines.filter((line) => line.startsWith('  '))).toHaveLength(6);
    expect(lines.some((line) => line.includes('The page thanks the buyer'))).toBe(false);
    expect(stepLines(queued.stderr)).toEqual(lines);
    expect(queued.stderr).not.toMatch(/undefined|NaN/);
  });
});
