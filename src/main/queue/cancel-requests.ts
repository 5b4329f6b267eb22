/**
 * How `sightline queue cancel` (or a waiting client's Ctrl+C) reaches the worker running a job: a key per cancelled
 * job, `sightline:cancel:<job id>`, kept a week, which each worker looks up for the jobs it holds once a second
 * while it holds any.
 *
 * Why not the queue's event stream, as before: a worker listening there for the one custom event read every event of
 * its queue (each step's progress of every flow on every worker), so its reads grew as workers × steps; measured at
 * 97% of Redis's commands at 100 workers (docs/decisions/0069-flow-queue.md). One MGET a second per busy worker is
 * flat in the number of workers, costs nothing while idle, and a key outlives an outage, where an event sent while a
 * worker was cut off was missed by it.
 */
import type { Redis } from 'ioredis';

/** How often a busy worker looks for cancels of the jobs it holds. */
export const CANCEL_CHECK_MS = 1_000;
/** Long past any job: a key only has to outlive the run it stops. */
const KEPT_SECONDS = 7 * 24 * 60 * 60;

export function cancelKey(jobId: string): string {
  return `sightline:cancel:${jobId}`;
}

/** Asks whoever holds the job to stop it. */
export async function requestCancel(redis: Pick<Redis, 'set'>, jobId: string): Promise<void> {
  await redis.set(cancelKey(jobId), '1', 'EX', KEPT_SECONDS);
}

/** Of these held jobs, those cancelled. */
export async function cancelledAmong(redis: Pick<Redis, 'mget'>, jobIds: readonly string[]): Promise<string[]> {
  if (jobIds.length === 0) return [];
  const values = await redis.mget(...jobIds.map(cancelKey));
  return jobIds.filter((_jobId, index) => values[index] !== null);
}
