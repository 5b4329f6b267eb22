/**
 * `sightline worker`: takes flow jobs from the queue and runs each as `sightline flow` runs a flow (the same
 * loader, the same runner, a session in this machine's home). A worker serves the browser queue; one that declares
 * a desktop serves the desktop queue too, one flow at a time (there is one desktop).
 *
 * Recovery is BullMQ's: a job holds a lock its worker renews; a worker that dies stops renewing, and the stalled-job
 * check of any live worker moves the job back to wait, where another worker takes it. The attempts it used are
 * counted from the job's own log (job-attempts.ts). A stop finishes the jobs in hand (Worker.close), or, asked
 * twice, stops their flows and hands the jobs back to the queue without using an attempt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Queue, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { CANCEL_CHECK_MS, cancelledAmong } from './cancel-requests.js';
import { FlowFileError, loadFlowFiles } from '../flows/flow-file.js';
import type { Flow } from '../flows/flow-model.js';
import type { FlowResult } from '../flows/flow-result.js';
import { runFlow, type FlowRunOptions } from '../flows/flow-runner.js';
import { attemptLogLine, attemptsOfLog, countedAttempts, nextAttemptNumber } from './job-attempts.js';
import { flowJobResult, FlowJobSchema, MAX_ATTEMPTS, queueNameOf, type FlowJob, type QueueAttempt, type QueueOperator } from './flow-job.js';
import { writeFlowBundle } from './flow-bundle.js';
import type { QueueConnection } from './queue-connection.js';

/** How long a job's lock lasts (renewed every half of it), and how often the stalled-job check runs: BullMQ's default. */
export const DEFAULT_LOCK_MS = 30_000;

export interface FlowWorkerOptions {
  connection: QueueConnection;
  /** browser, or browser and desktop. */
  operators: readonly QueueOperator[];
  /** Browser flows at once; desktop flows are one at a time. */
  concurrency: number;
  /** This machine's environment: `${env.…}` and secrets come from it. */
  env: Record<string, string | undefined>;
  lockMs: number;
  host: string;
  pid: number;
  say(line: string): void;
  /** How a job's flow opens its automation: the worker's configuration under the job's settings. */
  open(job: FlowJob): FlowRunOptions['open'];
  /** Masks the flow's secrets and the configured keys in what goes back to the queue. */
  redact(flow: Flow): (text: string) => string;
  /** Told of each run's end and of runs lost with their worker: the team store's replicator, when there is one. */
  runs?: RunObserver | undefined;
}

export interface RunObserver {
  /** The run's session is done: resolves when it is shipped (or the wait gave up); the job's result waits for it. */
  ended(sessionId: string, jobId: string): Promise<unknown>;
  /** An earlier run of a job died with its worker: its session will get no more steps from there. */
  lost(sessionId: string, detail: string): void;
}

interface Held {
  controller: AbortController;
  /** The worker is stopping and hands the job back instead of finishing it. */
  returning: boolean;
}

export class FlowWorker {
  private readonly workers: Worker[] = [];
  private readonly queues = new Map<string, Queue>();
  private redis: Redis | undefined;
  private cancelCheck: NodeJS.Timeout | undefined;
  private checking = false;
  private readonly held = new Map<string, Held>();
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: FlowWorkerOptions) {}

  async start(): Promise<void> {
    const { connection, lockMs } = this.options;
    for (const operator of this.options.operators) {
      const name = queueNameOf(operator);
      this.queues.set(name, connection.watch(new Queue(name, { connection: connection.options() })));
      const worker = new Worker(name, (job, token, signal) => this.process(name, job, token, signal), {
        connection: connection.options(),
        concurrency: operator === 'desktop' ? 1 : this.options.concurrency,
        lockDuration: lockMs,
        stalledInterval: lockMs,
        // Our own count of attempts decides (job-attempts.ts); BullMQ must never fail a job for stalling first.
        maxStalledCount: MAX_ATTEMPTS,
      });
      connection.watch(worker);
      worker.on('ready', () => connection.reached());
      this.workers.push(worker);
    }
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
    this.redis = connection.client();
    this.cancelCheck = setInterval(() => void this.checkCancels(), CANCEL_CHECK_MS);
    this.cancelCheck.unref();
  }

  /** Stops the flows of held jobs someone cancelled (cancel-requests.ts); one check at a time, none while idle. */
  private async checkCancels(): Promise<void> {
    if (this.checking || this.held.size === 0 || this.redis === undefined) return;
    this.checking = true;
    try {
      for (const jobId of await cancelledAmong(this.redis, [...this.held.keys()])) this.cancel(jobId);
    } catch {
      // Redis is away: the connection says so, and the next check asks again.
    } finally {
      this.checking = false;
    }
  }

  /** Ends the worker: `finish` waits for the jobs in hand, `return` stops their flows and hands them back. */
  async stop(how: 'finish' | 'return'): Promise<void> {
    if (how === 'return') {
      for (const held of this.held.values()) {
        held.returning = true;
        held.controller.abort(new Error('the worker is stopping'));
      }
    }
    this.stopping ??= (async () => {
      await Promise.all(this.workers.map((worker) => worker.close()));
      clearInterval(this.cancelCheck);
      this.redis?.disconnect();
      await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    })();
    return this.stopping;
  }

  /** Jobs being run now. */
  get busy(): number {
    return this.held.size;
  }

  private cancel(jobId: string): void {
    const held = this.held.get(jobId);
    if (held === undefined || held.controller.signal.aborted) return;
    this.options.say(`job ${jobId}: cancelled; stopping its flow\n`);
    held.controller.abort(new Error('the job was cancelled'));
  }

  private async process(queueName: string, job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<unknown> {
    const parsed = FlowJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`not a flow job this worker can read (version ${JSON.stringify((job.data as { version?: unknown })?.version)}): ${parsed.error.issues[0]?.message ?? ''}`);
    const data = parsed.data;
    const jobId = job.id ?? '';
    const queue = this.queues.get(queueName)!;
    const earlier = attemptsOfLog((await queue.getJobLogs(jobId, 0, -1, true)).logs, 'lost');
    const used = countedAttempts(earlier);
    if (used >= data.attempts) return flowJobResult(outOfAttempts(data, earlier));

    const attempt = nextAttemptNumber(earlier);
    const { host, pid } = this.options;
    const startedAt = new Date().toISOString();
    await job.log(attemptLogLine({ event: 'started', attempt, host, pid, at: startedAt }));
    const lost = earlier.filter((run) => run.outcome === 'lost').length;
    for (const run of earlier) {
      if (run.outcome !== 'lost' || run.sessionId === undefined) continue;
      this.options.runs?.lost(run.sessionId, `its worker ${run.host} (pid ${run.pid}) stopped mid-run during attempt ${run.attempt} of job ${jobId}; steps it had not shipped are missing unless that machine's home is shipped again`);
    }
    this.options.say(`▶ ${data.flowName} (job ${jobId}, attempt ${used + 1} of ${data.attempts}${lost > 0 ? `, after ${lost} lost with its worker` : ''})\n`);

    const held: Held = { controller: new AbortController(), returning: false };
    this.held.set(jobId, held);
    const onAbort = () => held.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let sessionId: string | undefined;
    let result: FlowResult;
    try {
      result = await this.runJob(data, held.controller.signal, {
        onSession: async (id) => {
          sessionId = id;
          this.options.say(`  ${data.flowName} (job ${jobId}): session ${id}\n`);
          await job.log(attemptLogLine({ event: 'session', attempt, sessionId: id }));
        },
        onStep: (step) => void job.updateProgress({ flow: data.flowName, step }).catch(() => undefined),
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.held.delete(jobId);
    }
    // The session's last steps reach the team store before anyone hears the result and goes looking for them.
    if (sessionId !== undefined) await this.options.runs?.ended(sessionId, jobId);

    if (held.returning) {
      await job.log(attemptLogLine({ event: 'ended', attempt, outcome: 'returned' }));
      this.options.say(`↩ ${data.flowName} (job ${jobId}) handed back to the queue\n`);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    const outcome = result.status === 'skipped' ? 'passed' : result.status;
    await job.log(attemptLogLine({ event: 'ended', attempt, outcome }));
    const current: QueueAttempt = { attempt, host, pid, startedAt, ...(sessionId === undefined ? {} : { sessionId }), outcome };
    const all = [...earlier, current];
    const counted = all.filter((run) => run.outcome !== 'returned');
    const final: FlowResult = {
      ...result,
      file: data.clientFile,
      attempts: counted.length,
      earlierSessions: counted.slice(0, -1).flatMap((run) => (run.sessionId === undefined ? [] : [run.sessionId])),
      queueAttempts: all,
    };
    this.options.say(`${final.status === 'passed' ? '✓' : final.status === 'failed' ? '✗' : '■'} ${data.flowName} (job ${jobId}) ${final.status}${sessionId === undefined ? '' : ` (session ${sessionId})`}\n`);
    if (final.status === 'failed' && counted.length < data.attempts) {
      // BullMQ's retry: the job goes back to wait and any worker takes it; the client hears only the final result.
      throw new Error(`attempt ${counted.length} failed: ${final.error ?? 'a step failed'}`);
    }
    return flowJobResult(final);
  }

  /** The job's files in a private folder, loaded with this machine's environment, run by the flow runner. */
  private async runJob(
    data: FlowJob,
    signal: AbortSignal,
    hooks: { onSession(id: string): Promise<void>; onStep: NonNullable<FlowRunOptions['onStep']> },
  ): Promise<FlowResult> {
    const folder = mkdtempSync(join(tmpdir(), 'sightline-job-'));
    try {
      let flow: Flow;
      try {
        const entry = writeFlowBundle(data, folder);
        // A job is a request: its `use:` reaches only the files it carried, never the rest of this machine.
        const root = { folder, name: "the job's folder: a queued flow may use only the files its job carried" };
        [flow] = loadFlowFiles([entry], { vars: data.vars, env: { ...this.options.env }, root }) as [Flow];
      } catch (error) {
        const message = error instanceof Error ? error.message.split(folder + sep).join('') : String(error);
        const why = error instanceof FlowFileError ? `the flow files have problems on worker ${this.options.host}:\n${message}` : message;
        return notStarted(data, why);
      }
      const open = this.options.open(data);
      const redact = this.options.redact(flow);
      const result = await runFlow(flow, {
        env: this.options.env,
        continueOnError: data.settings.continueOnError,
        signal,
        onStep: hooks.onStep,
        open: async (opened, start) => {
          const agent = await open(opened, start);
          await hooks.onSession(agent.sessionId);
          return agent;
        },
      });
      return JSON.parse(redact(JSON.stringify(result))) as FlowResult;
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }
}

function notStarted(data: FlowJob, error: string): FlowResult {
  return {
    name: data.flowName,
    file: data.clientFile,
    status: 'failed',
    sessionId: undefined,
    attempts: 1,
    earlierSessions: [],
    startedAt: new Date().toISOString(),
    durationMs: 0,
    costDollars: undefined,
    error,
    steps: [],
  };
}

/** The last run was lost with its worker and no attempt is left: the flow failed, and says why. */
function outOfAttempts(data: FlowJob, earlier: QueueAttempt[]): FlowResult {
  const last = earlier.at(-1);
  const where = last === undefined ? '' : ` (attempt ${last.attempt} on ${last.host}, pid ${last.pid}${last.sessionId === undefined ? '' : `, session ${last.sessionId}`})`;
  const counted = earlier.filter((run) => run.outcome !== 'returned');
  return {
    ...notStarted(data, `the worker running this flow stopped mid-run${where} and no attempt is left (${data.attempts} allowed; --retry adds more)`),
    attempts: counted.length,
    earlierSessions: counted.flatMap((run) => (run.sessionId === undefined ? [] : [run.sessionId])),
    sessionId: undefined,
    queueAttempts: earlier,
  };
}
