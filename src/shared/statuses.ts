/**
 * The statuses a session, a turn and a compaction go through: one list each, used by the database rows
 * (storage parses them), the events of a run and the app API. The migrations' CHECK constraints name the
 * same words; test/integration/storage-vocabulary.test.ts keeps the two in step.
 */

/** idle: waiting for the next request; running: a turn is in progress; closed: not to be continued. */
export const SESSION_STATUSES = ['idle', 'running', 'closed'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const TURN_STATUSES = ['running', 'finished', 'failed', 'stopped'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];
/** What a turn ends as: every status but running. */
export type TurnEndStatus = Exclude<TurnStatus, 'running'>;

/** Why a turn ended, finer than its status: a step limit or a refused action ends a turn as failed. */
/** `setup`: the model's endpoint answered that a setting is wrong (the key, the model's name, the base URL). */
export const TURN_END_REASONS = ['finished', 'failed', 'step-limit', 'cost-limit', 'stopped', 'error', 'setup'] as const;
export type TurnEndReason = (typeof TURN_END_REASONS)[number];

/** A turn's compaction in the journal: planned (a crash may have interrupted it), then done. */
export const COMPACTION_STATES = ['planned', 'done'] as const;
export type CompactionState = (typeof COMPACTION_STATES)[number];
