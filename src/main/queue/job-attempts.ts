/**
 * Every run of a job, kept in the job's log in Redis (BullMQ's `job.log`, an append-only list): a worker writes a
 * line when it starts a run, when the run's session opens, and when the run ends or is handed back. A worker that
 * dies writes no end: the next worker to take the job reads its start without an end and names that run lost.
 * The attempts a job has used are its runs less those handed back, whatever BullMQ counted (a stalled job is not a
 * failed one to BullMQ, but it is a run of the flow to us: the flow's side effects may have happened).
 */
import { z } from 'zod';
import type { QueueAttempt } from './flow-job.js';

const PREFIX = 'sightline-attempt ';

const RecordSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('started'), attempt: z.number().int().min(1), host: z.string(), pid: z.number().int(), at: z.string() }),
  z.object({ event: z.literal('session'), attempt: z.number().int().min(1), sessionId: z.string() }),
  z.object({ event: z.literal('ended'), attempt: z.number().int().min(1), outcome: z.enum(['passed', 'failed', 'stopped', 'returned']) }),
]);
export type AttemptRecord = z.infer<typeof RecordSchema>;

export function attemptLogLine(record: AttemptRecord): string {
  return PREFIX + JSON.stringify(record);
}

/**
 * The runs a job's log names, in order. A run without an end is lost when a later one started; the last such run is
 * `lastOpen`: lost when a new run is about to start, running when someone only looks.
 */
export function attemptsOfLog(lines: readonly string[], lastOpen: 'lost' | 'running'): QueueAttempt[] {
  const attempts = new Map<number, QueueAttempt>();
  for (const line of lines) {
    if (!line.startsWith(PREFIX)) continue;
    let parsed: AttemptRecord;
    try {
      parsed = RecordSchema.parse(JSON.parse(line.slice(PREFIX.length)));
    } catch {
      continue; // a line we did not write, or from another version: not a run we can name
    }
    if (parsed.event === 'started') {
      attempts.set(parsed.attempt, { attempt: parsed.attempt, host: parsed.host, pid: parsed.pid, startedAt: parsed.at, outcome: 'running' });
      continue;
    }
    const known = attempts.get(parsed.attempt);
    if (known === undefined) continue;
    if (parsed.event === 'session') known.sessionId = parsed.sessionId;
    else known.outcome = parsed.outcome;
  }
  const ordered = [...attempts.values()].sort((first, second) => first.attempt - second.attempt);
  return ordered.map((attempt, index) =>
    attempt.outcome === 'running' && (index < ordered.length - 1 || lastOpen === 'lost') ? { ...attempt, outcome: 'lost' } : attempt,
  );
}

/** The runs that count against the job's attempts: all but those a stopping worker handed back. */
export function countedAttempts(attempts: readonly QueueAttempt[]): number {
  return attempts.filter((attempt) => attempt.outcome !== 'returned').length;
}

/** The number the next run writes in its records. */
export function nextAttemptNumber(attempts: readonly QueueAttempt[]): number {
  return attempts.reduce((most, attempt) => Math.max(most, attempt.attempt), 0) + 1;
}
