/**
 * The flow queue (issue 29): jobs per minute with one and two `sightline worker`s on a real Redis, against the same
 * flows run by one `sightline flow` process (flow-suite.ts), one and two at a time; the queue's overhead per job;
 * the Redis commands a job costs (read with MONITOR: the commands clients send, and those BullMQ's Lua scripts run
 * inside Redis); and the time from a worker's SIGKILL to another worker taking its job, with the test's lock of
 * 2 s and BullMQ's default of 30 s; and with a team store (a real PostgreSQL, s3rver), the time it adds and what a worker
 * sends it per flow and per step.
 *
 * Every process is the real CLI (node + tsx), on the fake OpenAI server (every assertion true at once) and the cart
 * page, in headless Chromium: a flow costs what opening a browser, one screenshot and one model call cost here. The
 * times compared are each run's own `durationMs` (--out): from the first flow's start, or from the enqueue, to the
 * last result, without the CLI's start-up, which both ways pay once.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startCartPage } from '../test/helpers/cart-page.js';
import { startFakeOpenAiServer, type FakeOpenAiServer, type RecordedRequest, type ScriptedReply } from '../test/helpers/fake-openai-server.js';
import { startRedis, type RedisServer } from '../test/helpers/redis-server.js';
import { postgresAvailable, startPostgres } from '../test/helpers/postgres-server.js';
import { startS3Server } from '../test/helpers/s3-server.js';
import { WORKER_READS_PAGE_URL } from '../test/helpers/queued-flows.js';
import { scriptedMoves, summarizeRequest } from '../test/helpers/scripted-computer-model.js';
import { createTemporaryHome, type TemporaryHome } from '../test/helpers/seed.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { startSightline, type SightlineProcess } from '../test/e2e/support/sightline-process.js';
import { markdownTable, median, type BenchSection } from './harness.js';

const FLOWS = 12;
/** The steps of each flow of the second counted run: the difference gives the commands a step adds. */
const MORE_STEPS = 5;
/** How long an idle worker's commands are counted: past one stalled-job check (30 s by default). */
const IDLE_MS = 35_000;
/** Each throughput row is run this many times; the median is shown. */
const REPEATS = 2;
const LATCH = 'HOLD-LATCH';

interface Context {
  redis: RedisServer;
  model: FakeOpenAiServer;
  pageUrl: string;
  folder: string;
  homes: TemporaryHome[];
  started: SightlineProcess[];
}

interface Timing {
  label: string;
  runs: number[];
}

/** While set, the first request naming the latch calls it and is never answered (then it is cleared). */
let onLatch: (() => void) | undefined;

/** A model that says every assertion holds, at once; except the latch's request while `onLatch` is set. */
function answering(count: number): ScriptedReply[] {
  const answer = scriptedMoves([{ tool: 'answer', arguments: { verdict: true, reason: 'The page shows the cart.', evidence: [] } }])[0]!;
  return Array.from({ length: count }, () => (request: RecordedRequest) => {
    const hold = onLatch;
    if (hold !== undefined && summarizeRequest(request).text.includes(LATCH)) {
      onLatch = undefined;
      hold();
      return { type: 'hang' };
    }
    return answer(request);
  });
}

function flowFiles(folder: string, count: number, prefix: string, steps = 1): string[] {
  return Array.from({ length: count }, (_, index) => {
    const path = join(folder, `${prefix}-${String(index + 1).padStart(2, '0')}.flow.yaml`);
    const asserts = Array.from({ length: steps }, (_, step) => `  - assert: The page shows a cart (${prefix} ${index + 1}, check ${step + 1})\n`).join('');
    writeFileSync(path, `name: ${prefix} ${index + 1}\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n${asserts}`);
    return path;
  });
}

function home(context: Context, name: string): string {
  const created = createTemporaryHome(`sightline-bench-queue-${name}`);
  context.homes.push(created);
  return created.root;
}

function start(context: Context, name: string, args: readonly string[], env: Record<string, string> = {}): SightlineProcess {
  const child = startSightline(['--home', home(context, name), ...args], { SIGHTLINE_MODEL_BASE_URL: context.model.baseUrl, PAGE_URL: context.pageUrl, ...WORKER_READS_PAGE_URL, ...env });
  context.started.push(child);
  return child;
}

async function startWorkers(context: Context, count: number, lockMs?: number): Promise<SightlineProcess[]> {
  const workers = Array.from({ length: count }, (_, index) =>
    start(context, `worker-${index}`, ['worker', '--queue', context.redis.url], lockMs === undefined ? {} : { SIGHTLINE_QUEUE_LOCK_MS: String(lockMs) }),
  );
  for (const worker of workers) await waitFor(() => worker.output.stderr.includes('serving browser flows'), { description: 'a worker serving', timeoutMs: 60_000 });
  return workers;
}

async function stopAll(context: Context): Promise<void> {
  for (const child of context.started.splice(0)) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill('SIGKILL');
    await child.exited.catch(() => undefined);
  }
}

/** One run's flows-only time from its --out report; a run that did not pass is an error, not a figure. */
async function timedRun(child: SightlineProcess, out: string): Promise<number> {
  const ended = await child.exited;
  if (ended.code !== 0) throw new Error(`the run failed (exit ${ended.code}):\n${ended.stderr.slice(-2000)}`);
  return (JSON.parse(readFileSync(out, 'utf8')) as { durationMs: number }).durationMs;
}

async function localRun(context: Context, files: readonly string[], concurrency: number): Promise<number> {
  const out = join(context.folder, `local-${concurrency}.json`);
  return timedRun(start(context, 'local', ['flow', ...files, '--concurrency', String(concurrency), '--out', out]), out);
}

async function queuedRun(context: Context, files: readonly string[]): Promise<number> {
  const out = join(context.folder, 'queued.json');
  return timedRun(start(context, 'client', ['flow', ...files, '--queue', context.redis.url, '--wait', '--out', out]), out);
}

interface CommandCount {
  /** Commands the clients sent (EVALSHA counts once). */
  sent: Map<string, number>;
  /** Commands BullMQ's scripts ran inside Redis. */
  scripted: number;
}

/** Counts every command Redis sees until `stop` (MONITOR; its own connection is not counted). */
async function monitorCommands(url: string): Promise<{ stop(): Promise<CommandCount> }> {
  const redis = new Redis(url);
  const monitor = await redis.monitor();
  const count: CommandCount = { sent: new Map(), scripted: 0 };
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') count.scripted += 1;
    else {
      const name = (args[0] ?? '').toLowerCase();
      count.sent.set(name, (count.sent.get(name) ?? 0) + 1);
    }
  });
  return {
    stop: async () => {
      monitor.disconnect();
      redis.disconnect();
      return count;
    },
  };
}

function total(count: CommandCount): number {
  return [...count.sent.values()].reduce((sum, value) => sum + value, 0);
}

/** From a worker's SIGKILL while it holds a job to another worker starting that job, and to the client's result. */
async function recovery(context: Context, lockMs: number): Promise<{ takenMs: number; reportedMs: number }> {
  let held!: () => void;
  const holding = new Promise<void>((resolve) => (held = resolve));
  onLatch = () => held();
  const workers = await startWorkers(context, 2, lockMs);
  const file = join(context.folder, 'held.flow.yaml');
  writeFileSync(file, `name: Held\ntarget: { operator: browser, url: "\${env.PAGE_URL}" }\nsteps:\n  - assert: ${LATCH} The page shows a cart\n`);
  const client = start(context, 'client', ['flow', file, '--queue', context.redis.url, '--wait', '--retry', '1']);
  await holding;
  const holder = await waitFor(() => workers.find((worker) => worker.output.stderr.includes('▶ Held')), { description: 'the worker holding the job' });
  const survivor = workers.find((worker) => worker !== holder)!;
  holder.child.kill('SIGKILL');
  const killed = Date.now();
  await waitFor(() => survivor.output.stderr.includes('after 1 lost with its worker'), { description: 'the survivor taking the job', timeoutMs: lockMs * 4 + 30_000, intervalMs: 10 });
  const takenMs = Date.now() - killed;
  const ended = await client.exited;
  if (ended.code !== 0) throw new Error(`the recovered run failed (exit ${ended.code}):\n${ended.stderr.slice(-2000)}`);
  const reportedMs = Date.now() - killed;
  await stopAll(context);
  return { takenMs, reportedMs };
}

interface Shipped {
  shipments: number;
  rowsSent: number;
  rowsWritten: number;
  statements: number;
  uploaded: number;
  present: number;
}

/** The worker's own count of what it shipped, from the line it prints when it stops. */
function shippedOf(stderr: string): Shipped {
  const match = /team store: (\d+) shipments, (\d+) rows sent \((\d+) written\) in (\d+) statements, (\d+) objects uploaded \((\d+) already there\)/.exec(stderr);
  if (match === null) throw new Error(`the worker printed no team store summary:\n${stderr.slice(-2000)}`);
  const [shipments, rowsSent, rowsWritten, statements, uploaded, present] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return { shipments, rowsSent, rowsWritten, statements, uploaded, present };
}

/**
 * The same 12 flows on one worker that ships every run to a team store (a real PostgreSQL, s3rver), once with one
 * step a flow and once with MORE_STEPS: the wall time against the queue without a store, and what the store is sent
 * per flow and per step more, as the worker counts it.
 */
async function teamStoreRuns(context: Context, files: readonly string[]): Promise<{ times: number[]; one: Shipped; more: Shipped }> {
  const postgres = await startPostgres();
  const s3 = await startS3Server();
  try {
    const store = ['--store', postgres.url, '--blobs', s3.url];
    const worker = async () => {
      const started = start(context, 'team-worker', ['worker', '--queue', context.redis.url, ...store], s3.env);
      await waitFor(() => started.output.stderr.includes('serving browser flows'), { description: 'a team worker serving', timeoutMs: 60_000 });
      return started;
    };
    const stop = async (child: SightlineProcess) => {
      child.child.kill('SIGTERM');
      const ended = await child.exited;
      return shippedOf(ended.stderr);
    };
    const times: number[] = [];
    let one: Shipped | undefined;
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const serving = await worker();
      times.push(await queuedRun(context, files));
      const shipped = await stop(serving);
      one ??= shipped;
    }
    const serving = await worker();
    await queuedRun(context, flowFiles(context.folder, FLOWS, 'TeamLong', MORE_STEPS));
    const more = await stop(serving);
    return { times, one: one!, more };
  } finally {
    await s3.stop();
    await postgres.remove();
  }
}

const seconds = (milliseconds: number): string => (milliseconds / 1000).toFixed(1);

function perStep(one: CommandCount | undefined, more: CommandCount | undefined, of: (count: CommandCount) => number): string {
  return one === undefined || more === undefined ? '—' : ((of(more) - of(one)) / (FLOWS * (MORE_STEPS - 1))).toFixed(1);
}

async function run(): Promise<string> {
  const page = await startCartPage();
  const context: Context = {
    redis: await startRedis(),
    model: await startFakeOpenAiServer(),
    pageUrl: page.url,
    folder: mkdtempSync(join(tmpdir(), 'sightline-bench-queue-')),
    homes: [],
    started: [],
  };
  try {
    context.model.script(answering(FLOWS * REPEATS * 8 + 100));
    const files = flowFiles(context.folder, FLOWS, 'Flow');
    const timings: Timing[] = [
      { label: 'one process (sightline flow), 1 at a time', runs: [] },
      { label: 'one process (sightline flow), 2 at a time', runs: [] },
      { label: 'queue, 1 worker', runs: [] },
      { label: 'queue, 2 workers', runs: [] },
    ];
    let commands: CommandCount | undefined;
    let longer: CommandCount | undefined;
    let two: CommandCount | undefined;
    let idle: CommandCount | undefined;
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      timings[0]!.runs.push(await localRun(context, files, 1));
      timings[1]!.runs.push(await localRun(context, files, 2));
      await startWorkers(context, 1);
      if (repeat === 0) {
        // A serving worker with nothing to do, for what idling costs; then the run, counted from the client's start.
        const idleWatch = await monitorCommands(context.redis.url);
        const idleFrom = Date.now();
        await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
        idle = await idleWatch.stop();
        idle.sent.set('__ms', Date.now() - idleFrom);
        const watch = await monitorCommands(context.redis.url);
        timings[2]!.runs.push(await queuedRun(context, files));
        commands = await watch.stop();
        const longFlows = flowFiles(context.folder, FLOWS, 'Long', MORE_STEPS);
        const longWatch = await monitorCommands(context.redis.url);
        await queuedRun(context, longFlows);
        longer = await longWatch.stop();
      } else {
        timings[2]!.runs.push(await queuedRun(context, files));
      }
      await stopAll(context);
      await startWorkers(context, 2);
      const twoWatch = repeat === 0 ? await monitorCommands(context.redis.url) : undefined;
      timings[3]!.runs.push(await queuedRun(context, files));
      if (twoWatch !== undefined) two = await twoWatch.stop();
      await stopAll(context);
    }
    const team = postgresAvailable() ? await teamStoreRuns(context, files) : undefined;
    const fast = await recovery(context, 2000);
    const slow = await recovery(context, 30_000);

    const local = median(timings[0]!.runs);
    const throughput = markdownTable(
      ['how the 12 flows ran', 'wall time, s (median)', 'runs, s', 'flows per minute', 'per flow, s', 'vs one process, 1 at a time'],
      timings.map((timing) => {
        const time = median(timing.runs);
        return [timing.label, seconds(time), timing.runs.map(seconds).join(', '), (FLOWS / (time / 60_000)).toFixed(1), seconds(time / FLOWS), `${((time - local) / FLOWS / 1000 >= 0 ? '+' : '')}${((time - local) / FLOWS / 1000).toFixed(2)} s per flow`];
      }),
    );
    const sent = commands === undefined ? 0 : total(commands);
    const byName = commands === undefined ? [] : [...commands.sent.entries()].sort((first, second) => second[1] - first[1]);
    const idleMs = idle?.sent.get('__ms') ?? 1;
    idle?.sent.delete('__ms');
    const commandTable = markdownTable(
      ['Redis commands, 1 worker, 12 flows (client and worker)', 'count', 'per flow'],
      [
        ['sent by the clients (a BullMQ script counts once)', String(sent), (sent / FLOWS).toFixed(1)],
        ...byName.slice(0, 8).map(([name, count]) => [`  of which ${name}`, String(count), (count / FLOWS).toFixed(1)]),
        ['run by BullMQ scripts inside Redis', String(commands?.scripted ?? 0), ((commands?.scripted ?? 0) / FLOWS).toFixed(1)],
        ['the same 12 flows on 2 workers: sent', String(two === undefined ? 0 : total(two)), ((two === undefined ? 0 : total(two)) / FLOWS).toFixed(1)],
        ['  of which xread (the waiting client\'s event reads; workers read no events)', String(two?.sent.get('xread') ?? 0), ((two?.sent.get('xread') ?? 0) / FLOWS).toFixed(1)],
        ['  of which mget (each busy worker\'s cancel check, once a second)', String(two?.sent.get('mget') ?? 0), ((two?.sent.get('mget') ?? 0) / FLOWS).toFixed(1)],
        [`each step more (12 flows of ${MORE_STEPS} steps against 1): sent`, '', perStep(commands, longer, total)],
        [`each step more: run by scripts`, '', perStep(commands, longer, (count) => count.scripted)],
        [`an idle worker, sent per minute (${seconds(idleMs)} s watched)`, String(idle === undefined ? 0 : total(idle)), ((idle === undefined ? 0 : total(idle)) / (idleMs / 60_000)).toFixed(1)],
      ],
    );
    const queueOne = median(timings[2]!.runs);
    const teamTable =
      team === undefined
        ? 'The team store was not measured: no PostgreSQL binaries here (.ci/run installs them).'
        : markdownTable(
            ['the team store (1 worker, PostgreSQL and s3rver on this machine)', 'count', 'per flow (1 step)', 'per step more'],
            [
              ['wall time of the 12 flows, s (median of runs)', `${seconds(median(team.times))} (${team.times.map(seconds).join(', ')})`, `${((median(team.times) - queueOne) / FLOWS / 1000 >= 0 ? '+' : '')}${((median(team.times) - queueOne) / FLOWS / 1000).toFixed(2)} s against the queue without a store`, ''],
              ['shipments (one transaction each)', String(team.one.shipments), (team.one.shipments / FLOWS).toFixed(1), ((team.more.shipments - team.one.shipments) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
              ['SQL statements sent (upserts and the state row)', String(team.one.statements), (team.one.statements / FLOWS).toFixed(1), ((team.more.statements - team.one.statements) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
              ['rows sent (changed since the last shipment)', String(team.one.rowsSent), (team.one.rowsSent / FLOWS).toFixed(1), ((team.more.rowsSent - team.one.rowsSent) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
              ['rows written (different from the stored row)', String(team.one.rowsWritten), (team.one.rowsWritten / FLOWS).toFixed(1), ((team.more.rowsWritten - team.one.rowsWritten) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
              ['objects uploaded to S3 (PUT after a HEAD)', String(team.one.uploaded), (team.one.uploaded / FLOWS).toFixed(1), ((team.more.uploaded - team.one.uploaded) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
              ['objects already in the bucket (HEAD only)', String(team.one.present), (team.one.present / FLOWS).toFixed(1), ((team.more.present - team.one.present) / (FLOWS * (MORE_STEPS - 1))).toFixed(1)],
            ],
          );
    const recoveryTable = markdownTable(
      ['lock and stalled-check interval', 'SIGKILL → another worker starts the job, s', 'SIGKILL → the client reports it, s'],
      [
        ['2 s (SIGHTLINE_QUEUE_LOCK_MS=2000, the e2e test)', seconds(fast.takenMs), seconds(fast.reportedMs)],
        ['30 s (the default, BullMQ\'s)', seconds(slow.takenMs), seconds(slow.reportedMs)],
      ],
    );
    return [
      throughput,
      `Each worker runs one flow at a time (\`--concurrency 1\`); a flow is one browser, one screenshot, one model call. "vs one process" is (row − first row) / ${FLOWS}: the queue's overhead per job where it is positive.`,
      commandTable,
      'Sent commands include the blocking reads of the waiting client\'s QueueEvents, each worker\'s blocking wait for a job, and each busy worker\'s cancel check (one MGET a second). Script-internal commands cost Redis CPU but no round trip.',
      teamTable,
      'Counted by the worker itself (its replicator), per 12 flows; "per step more" is (12 flows of 5 steps − the worker\'s 12 flows of 1) / 48. Each flow\'s page looks the same, so one upload serves many screenshots: a real run\'s distinct screens upload once each.',
      recoveryTable,
      'A killed worker\'s job is found by the next stalled-job check after its lock expires: between one and two lock periods after the kill.',
    ].join('\n\n');
  } finally {
    await stopAll(context);
    await context.model.close();
    await context.redis.remove();
    await page.close();
    for (const created of context.homes) created.remove();
    rmSync(context.folder, { recursive: true, force: true });
  }
}

export const section: BenchSection = {
  name: 'queue',
  title: 'The flow queue: BullMQ on Redis (issue 29)',
  run,
};
