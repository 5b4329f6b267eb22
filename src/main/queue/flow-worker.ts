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
import { redactStrings, type Redact } from '../../shared/secret-redaction.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { CANCEL_CHECK_MS, cancelledAmong } from './cancel-requests.js';
import { FlowFileError, loadFlowFiles } from '../flows/flow-file.js';
import type { Flow } from '../flows/flow-model.js';
import type { FlowResult, StepResult } from '../flows/flow-result.js';
import { flowSecretNames, runFlow, type FlowRunOptions } from '../flows/flow-runner.js';
import { attemptLogLine, attemptsOfLog, countedAttempts, nextAttemptNumber } from './job-attempts.js';
import { flowJobResult, FlowJobSchema, MAX_ATTEMPTS, queueNameOf, stepProgress, type FlowJob, type QueueAttempt, type QueueOperator } from './flow-job.js';
import { writeFlowBundle } from './flow-bundle.js';
import { checkEnvironmentReads, checkJobSettings, JobRefusedError, type WorkerPolicy } from './job-policy.js';
import type { QueueConnection } from './queue-connection.js';

/** How long a job's lock lasts (renewed every half of it), and how often the stalled-job check runs: BullMQ's default. */
export const DEFAULT_LOCK_MS = 30_000;

export interface FlowWorkerOptions {
  connection: QueueConnection;
  /** browser, or browser and desktop. */
  operators: readonly QueueOperator[];
  /** Browser flows at once; desktop flows are one at a time. */
  concurrency: number;
  /** This machine's environment: `${env.…}` and secrets come from it, as far as `policy` allows. */
  env: Record<string, string | undefined>;
  /** What the worker's owner lets a job read and loosen (job-policy.ts). */
  policy: WorkerPolicy;
  lockMs: number;
  host: string;
  pid: number;
  say(line: string): void;
  /** How a job's flow opens its automation: the worker's configuration under the job's settings. */
  open(job: FlowJob): FlowRunOptions['open'];
  /**
   * The one redactor (shared/secret-redaction.ts) for what goes back to the queue: the worker's configured keys and
   * credentials, and `values`, those of the secrets and variables a job's flow read.
   */
  redact(values: readonly (string | undefined)[]): Redact;
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
    this.options.say(`job ${terminalLine(jobId)}: cancelled; stopping its flow\n`);
    held.controller.abort(new Error('the job was cancelled'));
  }

  private async process(queueName: string, job: Job, token: string | undefined, signal: AbortSignal | undefined): Promise<unknown> {
    const parsed = FlowJobSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`not a flow job this worker can read (version ${JSON.stringify((job.data as { version?: unknown })?.version)?.slice(0, 40)}): ${parsed.error.issues[0]?.message ?? ''}`);
    const data = parsed.data;
    const jobId = job.id ?? '';
    // What a job names is printed on one line each: a newline in it must not forge a line of this log.
    const shown = `${terminalLine(data.flowName)} (job ${terminalLine(jobId)})`;
    const queue = this.queues.get(queueName)!;
    const earlier = attemptsOfLog((await queue.getJobLogs(jobId, 0, -1, true)).logs, 'lost');
    const used = countedAttempts(earlier);
    if (used >= data.attempts) return flowJobResult(outOfAttempts(data, earlier));

    const folder = mkdtempSync(join(tmpdir(), 'sightline-job-'));
    try {
      let prepared: PreparedJob | FlowResult;
      try {
        prepared = this.readJob(data, folder);
      } catch (error) {
        if (!(error instanceof JobRefusedError)) throw error;
        this.options.say(`✗ ${shown} refused: ${terminalLine(error.message)}\n`);
        // Not retried: another attempt would be refused the same.
        throw new UnrecoverableError(`refused by worker ${this.options.host} before it ran: ${error.message}`);
      }
      return await this.runAttempt(data, job, token, signal, { earlier, used, shown, prepared });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  private async runAttempt(
    data: FlowJob,
    job: Job,
    token: string | undefined,
    signal: AbortSignal | undefined,
    { earlier, used, shown, prepared }: { earlier: QueueAttempt[]; used: number; shown: string; prepared: PreparedJob | FlowResult },
  ): Promise<unknown> {
    const jobId = job.id ?? '';
    const attempt = nextAttemptNumber(earlier);
    const { host, pid } = this.options;
    const startedAt = new Date().toISOString();
    await job.log(attemptLogLine({ event: 'started', attempt, host, pid, at: startedAt }));
    const lost = earlier.filter((run) => run.outcome === 'lost').length;
    for (const run of earlier) {
      if (run.outcome !== 'lost' || run.sessionId === undefined) continue;
      this.options.runs?.lost(run.sessionId, `its worker ${run.host} (pid ${run.pid}) stopped mid-run during attempt ${run.attempt} of job ${jobId}; steps it had not shipped are missing unless that machine's home is shipped again`);
    }
    this.options.say(`▶ ${terminalLine(data.flowName)} (job ${terminalLine(jobId)}, attempt ${used + 1} of ${data.attempts}${lost > 0 ? `, after ${lost} lost with its worker` : ''})\n`);

    const held: Held = { controller: new AbortController(), returning: false };
    this.held.set(jobId, held);
    const onAbort = () => held.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let sessionId: string | undefined;
    let result: FlowResult;
    try {
      result = isPrepared(prepared)
        ? await this.runJob(data, prepared, held.controller.signal, {
            onSession: async (id) => {
              sessionId = id;
              this.options.say(`  ${shown}: session ${id}\n`);
              await job.log(attemptLogLine({ event: 'session', attempt, sessionId: id }));
            },
            // Only the step, redacted as the result is: the progress and BullMQ's events stream are in Redis for anyone who reads it.
            onStep: (step) => void job.updateProgress(stepProgress(step)).catch(() => undefined),
          })
        : prepared;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.held.delete(jobId);
    }
    // The session's last steps reach the team store before anyone hears the result and goes looking for them.
    if (sessionId !== undefined) await this.options.runs?.ended(sessionId, jobId);

    if (held.returning) {
      await job.log(attemptLogLine({ event: 'ended', attempt, outcome: 'returned' }));
      this.options.say(`↩ ${shown} handed back to the queue\n`);
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
    this.options.say(`${final.status === 'passed' ? '✓' : final.status === 'failed' ? '✗' : '■'} ${shown} ${final.status}${sessionId === undefined ? '' : ` (session ${sessionId})`}\n`);
    if (final.status === 'failed' && counted.length < data.attempts) {
      // BullMQ's retry: the job goes back to wait and any worker takes it; the client hears only the final result.
      throw new Error(`attempt ${counted.length} failed: ${final.error ?? 'a step failed'}`);
    }
    return flowJobResult(final);
  }

  /**
   * The job's files in `folder` (private to this run), checked against what the worker allows, then loaded with
   * this machine's environment as far as that goes. Refuses (JobRefusedError) before anything runs; a flow that
   * does not load is a failed result that says why.
   */
  private readJob(data: FlowJob, folder: string): PreparedJob | FlowResult {
    const { policy } = this.options;
    checkJobSettings(data.settings, policy);
    let entry: string;
    try {
      entry = writeFlowBundle(data, folder);
    } catch (error) {
      return notStarted(data, error instanceof Error ? error.message : String(error));
    }
    // A job is a request: its `use:` reaches only the files it carried, never the rest of this machine.
    const root = { folder, name: "the job's folder: a queued flow may use only the files its job carried" };
    // A first reading with no value of this machine's: which variables and secrets does the job read?
    const read = new Set<string>();
    let probe: Flow | undefined;
    try {
      [probe] = loadFlowFiles([entry], { vars: data.vars, env: {}, environmentElsewhere: true, root, onEnvironmentRead: (name) => read.add(name) });
    } catch {
      // Its problems are reported by the reading below, with this machine's values.
    }
    const secrets = new Set(probe === undefined ? [] : flowSecretNames(probe));
    // Unread, a secret counts as one where it is allowed as one: the message then names only what is refused.
    const variables = new Set([...read].filter((name) => !secrets.has(name) && !(probe === undefined && policy.allowSecrets.has(name))));
    checkEnvironmentReads({ env: variables, secrets }, policy);

    // The reading that runs: the allowed variables it reads, and for its secrets a stand-in (the loader checks they
    // are set; only the operator types their values), so `${env.SECRET}` cannot write a secret into a step's text.
    const { env: workerEnv } = this.options;
    const env: Record<string, string | undefined> = {};
    for (const name of variables) env[name] = workerEnv[name];
    for (const name of secrets) if (!Object.hasOwn(env, name)) env[name] = workerEnv[name] === undefined || workerEnv[name] === '' ? workerEnv[name] : `(secret ${name})`;
    const secretEnv = Object.fromEntries([...secrets].map((name) => [name, workerEnv[name]]));
    const redact = this.options.redact([...[...variables].map((name) => workerEnv[name]), ...Object.values(secretEnv)]);
    // The worker's private folder never goes back: a path in it is the client's path to the same file.
    const clientBase = data.clientFile.endsWith(`/${data.entry}`) ? data.clientFile.slice(0, -data.entry.length) : '';
    const outgoing: Redact = (text) => redact(text.split(folder + sep).join(clientBase));
    let flow: Flow;
    try {
      [flow] = loadFlowFiles([entry], { vars: data.vars, env, root }) as [Flow];
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return notStarted(data, outgoing(error instanceof FlowFileError ? `the flow files have problems on worker ${this.options.host}:\n${message}` : message));
    }
    return { flow, env: secretEnv, outgoing };
  }

  /** Runs a prepared job's flow; every step and the result leave redacted. */
  private async runJob(
    data: FlowJob,
    prepared: PreparedJob,
    signal: AbortSignal,
    hooks: { onSession(id: string): Promise<void>; onStep(step: StepResult): void },
  ): Promise<FlowResult> {
    const { flow, env, outgoing } = prepared;
    const open = this.options.open(data);
    const result = await runFlow(flow, {
      // The runner reads the flow's secrets from here: the allowed ones, and nothing else of this machine's.
      env,
      continueOnError: data.settings.continueOnError,
      signal,
      onStep: (_flow, step) => hooks.onStep(redactStrings(step, outgoing)),
      open: async (opened, start) => {
        const agent = await open(opened, start);
        await hooks.onSession(agent.sessionId);
        return agent;
      },
    });
    return redactStrings(result, outgoing);
  }
}

/** A job ready to run: its flow loaded, the secrets it may have typed, and what its steps and result pass through. */
interface PreparedJob {
  flow: Flow;
  env: Record<string, string | undefined>;
  outgoing: Redact;
}

function isPrepared(value: PreparedJob | FlowResult): value is PreparedJob {
  return 'outgoing' in value;
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
