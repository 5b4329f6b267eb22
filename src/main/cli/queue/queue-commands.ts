/** `sightline queue ls|status|cancel`: what is in the queue, one job or run in detail, and cancelling. */
import type { Command } from 'commander';
import type { FlowResult } from '../../flows/flow-result.js';
import { JOB_ID_PATTERN, readFlowJobResult, RUN_ID_PATTERN, type QueueAttempt } from '../../queue/flow-job.js';
import type { FlowQueueClient, JobSummary } from '../../queue/flow-queue-client.js';
import { terminalLine } from '../../../shared/terminal-text.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { commandOutput } from '../terminal-output.js';
import { wholeNumber } from '../flow/flow-options.js';
import { requiredQueueAddress } from './queue-address.js';
import { reachQueue } from './queue-reach.js';
import type { QueueCommandOptions } from './queue-options.js';

export async function queueCommand(invocation: CliInvocation, _command: Command, action: 'ls' | 'status' | 'cancel', id: string | undefined, options: QueueCommandOptions): Promise<void> {
  const { io } = invocation;
  const address = requiredQueueAddress(options.queue, io.env);
  const limit = wholeNumber('--limit', options.limit, 50, { min: 1, max: 10_000 });
  const checkedId = id === undefined ? undefined : checkId(id);
  const stdout = commandOutput(io.stdout, options.json);
  const client = await reachQueue(address, io.stderr);
  try {
    if (action === 'ls') return await listJobs(client, limit, options.json === true, stdout);
    const found = await client.find(checkedId!);
    if (found.length === 0) throw new UserError(`no job or run ${checkedId} in the queue at ${address.shown} (finished jobs are kept for 7 days).`, EXIT.failed);
    if (action === 'cancel') {
      const done = await client.cancel(checkedId!);
      if (options.json === true) stdout(`${JSON.stringify(done)}\n`);
      else for (const job of done) stdout(`${terminalLine(job.id)}: ${job.done}\n`);
      return;
    }
    const details = [];
    for (const { job, queue } of found) {
      const summary = await client.summary(queue, job);
      details.push({ ...summary, result: summary.state === 'completed' ? safeResult(job.returnvalue) : undefined, failedReason: job.failedReason || undefined });
    }
    if (options.json === true) stdout(`${JSON.stringify(details)}\n`);
    else for (const detail of details) stdout(statusText(detail));
  } finally {
    await client.close();
  }
}

function checkId(id: string): string {
  const trimmed = id.trim();
  if (JOB_ID_PATTERN.test(trimmed) || RUN_ID_PATTERN.test(trimmed)) return trimmed;
  throw new UserError(`"${trimmed.slice(0, 40)}" is not a run id (run_ and 12 hex digits) or a job id (a run id, a dot and a number).`, EXIT.usage);
}

async function listJobs(client: FlowQueueClient, limit: number, json: boolean, stdout: (text: string) => void): Promise<void> {
  const jobs = await client.list(limit);
  if (json) {
    stdout(`${JSON.stringify(jobs)}\n`);
    return;
  }
  if (jobs.length === 0) {
    stdout('the queue is empty\n');
    return;
  }
  for (const job of jobs) {
    const last = job.attempts.at(-1);
    const where = last === undefined ? '' : `  on ${terminalLine(last.host)} (pid ${last.pid})`;
    stdout(`${terminalLine(job.id)}  ${job.state}${job.status === undefined ? '' : ` (${job.status})`}  ${terminalLine(job.flow)}  ${job.attempts.length === 1 ? '1 attempt' : `${job.attempts.length} attempts`}${where}  ${job.enqueuedAt}\n`);
  }
}

/**
 * A job's lines. Whoever can write to the queue's Redis wrote its flow's name, id and log, so each field is shown
 * on its line with its line breaks escaped (shared/terminal-text.ts): a name cannot forge a line of its own.
 */
function statusText(detail: JobSummary & { result: FlowResult | undefined; failedReason: string | undefined }): string {
  const lines = [`${terminalLine(detail.id)}  ${terminalLine(detail.flow)}  ${detail.state}${detail.status === undefined ? '' : ` (${detail.status})`}, enqueued ${detail.enqueuedAt}`];
  for (const attempt of detail.attempts) lines.push(`  ${attemptLine(attempt)}`);
  const error = detail.result?.error ?? detail.failedReason;
  if (error !== undefined) lines.push(`  ${terminalLine(error.replace(/\s+/g, ' ').slice(0, 300))}`);
  return `${lines.join('\n')}\n`;
}

function attemptLine(attempt: QueueAttempt): string {
  const session = attempt.sessionId === undefined ? '' : `, session ${terminalLine(attempt.sessionId)}`;
  return `attempt ${attempt.attempt} on ${terminalLine(attempt.host)} (pid ${attempt.pid}) from ${terminalLine(attempt.startedAt)}${session}: ${attempt.outcome}`;
}

function safeResult(value: unknown): FlowResult | undefined {
  try {
    return readFlowJobResult(value);
  } catch {
    return undefined;
  }
}
