/**
 * The client's side of the queue: enqueue a run's flows, wait for their results, list, show and cancel jobs.
 * A result is reported once: a job leaves `pending` the first time it is seen finished, whichever of an event or
 * a check saw it. Events can be missed (a reconnection, an event sent before the listener started), so every
 * pending job is also checked right after enqueuing and every few seconds: an event only makes a result come sooner.
 */
import { Job, Queue, QueueEvents } from 'bullmq';
import type { FlowResult, StepResult } from '../flows/flow-result.js';
import { attemptsOfLog } from './job-attempts.js';
import { FlowJobSchema, JOB_ID_PATTERN, QUEUE_NAMES, queueNameOf, readFlowJobResult, readStepProgress, RUN_ID_PATTERN, type FlowJob, type QueueAttempt, type QueueOperator } from './flow-job.js';
import { requestCancel } from './cancel-requests.js';
import type { QueueConnection } from './queue-connection.js';

/** Finished jobs stay this long for `queue status`, then BullMQ removes them. */
const KEEP_FINISHED = { age: 7 * 24 * 3600, count: 10_000 };
/** A safety net for missed events (an outage, a listener that started late); events bring results sooner. */
const CHECK_EVERY_MS = 30_000;

export interface JobSummary {
  id: string;
  queue: string;
  flow: string;
  state: string;
  attempts: QueueAttempt[];
  /** The flow's status once it ended. */
  status: FlowResult['status'] | undefined;
  enqueuedAt: string;
}

export interface WaitHooks {
  onStep?(job: FlowJob, step: StepResult): void;
  onResult(job: FlowJob, result: FlowResult): void;
  /** Fires to cancel the run's jobs: those waiting are removed, those running are asked to stop. */
  signal?: AbortSignal;
}

export class FlowQueueClient {
  private readonly queues = new Map<string, Queue>();

  private constructor(private readonly connection: QueueConnection) {}

  /** Connects to the queue, or rejects with QueueUnreachableError once the connection's tries run out. */
  static async open(connection: QueueConnection): Promise<FlowQueueClient> {
    const client = new FlowQueueClient(connection);
    try {
      await Promise.race([Promise.all(Object.values(QUEUE_NAMES).map((name) => client.queue(name).waitUntilReady())), connection.gaveUp]);
    } catch (error) {
      await client.close(true);
      throw error;
    }
    connection.retryForever();
    return client;
  }

  async close(force = false): Promise<void> {
    const closing = [...this.queues.values()].map((queue) => (force ? queue.disconnect() : queue.close()));
    await Promise.allSettled(closing);
  }

  async enqueue(jobs: readonly FlowJob[]): Promise<void> {
    for (const job of jobs) {
      await this.queue(queueNameOf(job.operator)).add(job.flowName.slice(0, 200), FlowJobSchema.parse(job), {
        jobId: jobIdOf(job),
        // Failed flows are retried by BullMQ; our worker decides when none is left (job-attempts.ts).
        attempts: job.attempts,
        removeOnComplete: KEEP_FINISHED,
        removeOnFail: KEEP_FINISHED,
      });
    }
  }

  /** Resolves with every job's result, in the jobs' order, each reported to `onResult` once as it arrives. */
  async waitFor(jobs: readonly FlowJob[], hooks: WaitHooks): Promise<FlowResult[]> {
    const pending = new Map(jobs.map((job) => [jobIdOf(job), job]));
    const results = new Map<string, FlowResult>();
    const operators = [...new Set(jobs.map((job) => job.operator))];
    const events = operators.map((operator) => this.connection.watch(new QueueEvents(queueNameOf(operator), { connection: this.connection.options() })));
    let timer: NodeJS.Timeout | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        const finish = (id: string, result: FlowResult) => {
          const job = pending.get(id);
          if (job === undefined) return;
          pending.delete(id);
          results.set(id, result);
          hooks.onResult(job, result);
          if (pending.size === 0) resolve();
        };
        const check = (id: string) => {
          const job = pending.get(id);
          if (job === undefined) return;
          this.finished(job).then(
            (result) => {
              this.connection.reached();
              if (result !== undefined) finish(id, result);
            },
            (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
          );
        };
        const checkAll = () => {
          for (const id of pending.keys()) check(id);
        };
        for (const queueEvents of events) {
          queueEvents.on('completed', ({ jobId }) => check(jobId));
          queueEvents.on('failed', ({ jobId }) => check(jobId));
          queueEvents.on('removed', ({ jobId }) => check(jobId));
          queueEvents.on('progress', ({ jobId, data }) => {
            const job = pending.get(jobId);
            const step = readStepProgress(data);
            if (job !== undefined && step !== undefined) hooks.onStep?.(job, step);
          });
        }
        hooks.signal?.addEventListener('abort', () => void this.cancelJobs([...pending.values()]).then(checkAll, reject), { once: true });
        timer = setInterval(checkAll, CHECK_EVERY_MS);
        if (pending.size === 0) resolve();
        else checkAll();
      });
    } finally {
      clearInterval(timer);
      await Promise.allSettled(events.map((queueEvents) => queueEvents.close()));
    }
    return jobs.map((job) => results.get(jobIdOf(job))!);
  }

  /** The jobs in both queues, newest first, at most `limit` of each state. */
  async list(limit: number): Promise<JobSummary[]> {
    const summaries: JobSummary[] = [];
    for (const name of Object.values(QUEUE_NAMES)) {
      const jobs = await this.queue(name).getJobs(['active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'], 0, limit - 1, false);
      for (const job of jobs) summaries.push(await this.summary(name, job));
    }
    return summaries.sort((first, second) => second.enqueuedAt.localeCompare(first.enqueuedAt) || first.id.localeCompare(second.id, 'en', { numeric: true }));
  }

  /** A job by its id, or every job of a run by the run's id. */
  async find(id: string): Promise<{ job: Job; queue: string }[]> {
    if (JOB_ID_PATTERN.test(id)) {
      for (const name of Object.values(QUEUE_NAMES)) {
        const job = await Job.fromId(this.queue(name), id);
        if (job !== undefined) return [{ job, queue: name }];
      }
      return [];
    }
    if (!RUN_ID_PATTERN.test(id)) return [];
    const found: { job: Job; queue: string }[] = [];
    for (const name of Object.values(QUEUE_NAMES)) {
      const jobs = await this.queue(name).getJobs(['active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'], 0, -1, true);
      for (const job of jobs) if (job.id?.startsWith(`${id}.`)) found.push({ job, queue: name });
    }
    return found.sort((first, second) => (first.job.id ?? '').localeCompare(second.job.id ?? '', 'en', { numeric: true }));
  }

  async summary(queue: string, job: Job): Promise<JobSummary> {
    const state = await job.getState();
    const logs = await this.queue(queue).getJobLogs(job.id ?? '', 0, -1, true);
    const data = FlowJobSchema.safeParse(job.data);
    const result = state === 'completed' ? safeResult(job.returnvalue) : undefined;
    return {
      id: job.id ?? '',
      queue,
      flow: data.success ? data.data.flowName : job.name,
      state,
      attempts: result?.queueAttempts ?? attemptsOfLog(logs.logs, 'running'),
      status: result?.status ?? (state === 'failed' ? 'failed' : undefined),
      enqueuedAt: new Date(job.timestamp).toISOString(),
    };
  }

  /** Cancels jobs: a waiting one is removed; a running one's worker is asked to stop its flow. Returns what was done to each. */
  async cancel(id: string): Promise<{ id: string; done: string }[]> {
    const found = await this.find(id);
    const done: { id: string; done: string }[] = [];
    for (const { job } of found) done.push({ id: job.id ?? '', done: await this.cancelOne(job) });
    return done;
  }

  private async cancelJobs(jobs: readonly FlowJob[]): Promise<void> {
    for (const job of jobs) {
      const queue = queueNameOf(job.operator);
      const found = await Job.fromId(this.queue(queue), jobIdOf(job));
      if (found !== undefined) await this.cancelOne(found);
    }
  }

  private async cancelOne(job: Job): Promise<string> {
    const state = await job.getState();
    if (state === 'completed' || state === 'failed') return `already ${state}`;
    if (state !== 'active') {
      try {
        await job.remove();
        return 'removed before it started';
      } catch {
        // A worker took it meanwhile: ask that worker to stop it.
      }
    }
    const redis = this.connection.client();
    try {
      await requestCancel(redis, job.id ?? '');
    } finally {
      redis.disconnect();
    }
    return 'its worker was asked to stop it';
  }

  /** The job's result when it has ended: what the worker returned, or a failed result that says why. */
  private async finished(job: FlowJob): Promise<FlowResult | undefined> {
    const queue = this.queue(queueNameOf(job.operator));
    const found = await Job.fromId(queue, jobIdOf(job));
    if (found === undefined) return stoppedResult(job, 'cancelled: the job was removed from the queue before it ended', []);
    const state = await found.getState();
    if (state === 'completed') return { ...readFlowJobResult(found.returnvalue), file: job.clientFile };
    if (state !== 'failed') return undefined;
    const attempts = attemptsOfLog((await queue.getJobLogs(found.id ?? '', 0, -1, true)).logs, 'lost');
    return { ...stoppedResult(job, `the queue gave up on the job: ${found.failedReason}`, attempts), status: 'failed' };
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = this.connection.watch(new Queue(name, { connection: this.connection.options() }));
      this.queues.set(name, queue);
    }
    return queue;
  }
}

export function jobIdOf(job: Pick<FlowJob, 'runId' | 'index'>): string {
  return `${job.runId}.${job.index + 1}`;
}

function safeResult(value: unknown): FlowResult | undefined {
  try {
    return readFlowJobResult(value);
  } catch {
    return undefined;
  }
}

function stoppedResult(job: FlowJob, error: string, attempts: QueueAttempt[]): FlowResult {
  const counted = attempts.filter((attempt) => attempt.outcome !== 'returned');
  return {
    name: job.flowName,
    file: job.clientFile,
    status: 'stopped',
    sessionId: counted.at(-1)?.sessionId,
    attempts: counted.length,
    earlierSessions: counted.slice(0, -1).flatMap((attempt) => (attempt.sessionId === undefined ? [] : [attempt.sessionId])),
    startedAt: job.enqueuedAt,
    durationMs: 0,
    costDollars: undefined,
    error,
    steps: [],
    ...(attempts.length === 0 ? {} : { queueAttempts: attempts }),
  };
}

export type { QueueOperator };
