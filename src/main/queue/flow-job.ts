/**
 * What travels through the queue, checked with zod at both ends: the job a client enqueues for one flow, and the
 * result a worker gives back. A worker on another machine cannot read the client's files, so the job carries the
 * flow file's text and those of its sub-flows, each under a path relative to their common folder; the worker
 * writes them to a private folder and loads them there as `sightline flow` would. Secrets travel by name only:
 * each worker reads their values from its own environment.
 */
import { z } from 'zod';
import type { FlowResult, StepResult } from '../flows/flow-result.js';

export const FLOW_JOB_VERSION = 1;

/** A browser queue every worker serves and a desktop queue only desktop workers serve: BullMQ has no per-job worker filter. */
export const QUEUE_NAMES = { browser: 'sightline-browser', desktop: 'sightline-desktop' } as const;
export type QueueOperator = keyof typeof QUEUE_NAMES;

/** `--retry` runs a flow at most 10 more times, in a queue as on one machine. */
export const MAX_ATTEMPTS = 11;

export const RUN_ID_PATTERN = /^run_[0-9a-f]{12}$/;
/** A job's id: its run's id and the flow's place in the run. */
export const JOB_ID_PATTERN = /^run_[0-9a-f]{12}\.\d{1,5}$/;

/** A path inside the worker's private folder: relative, `/`-separated, no `..`, nothing hidden in it. */
const RelativePathSchema = z
  .string()
  .min(1)
  .max(300)
  .refine((path) => !path.startsWith('/') && !path.includes('\\') && !/^[A-Za-z]:/.test(path), 'must be a relative path with / between folders')
  .refine((path) => path.split('/').every((part) => part !== '' && part !== '.' && part !== '..'), 'must not contain empty, . or .. parts')
  .refine((path) => !path.includes('\0'), 'must not contain a NUL');

const NameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/);

/** The run's flags that a job may carry: each, when given, over the worker's own configuration. */
export const JobSettingsSchema = z.object({
  model: z.string().max(200).optional(),
  dialect: z.string().max(100).optional(),
  maxSteps: z.string().max(20).optional(),
  maxCost: z.string().max(40).optional(),
  confirm: z.string().max(20).optional(),
  contextPolicy: z.string().max(40).optional(),
  allowFileUrls: z.boolean(),
  continueOnError: z.boolean(),
  yes: z.boolean(),
});
export type JobSettings = z.infer<typeof JobSettingsSchema>;

export const FlowJobSchema = z
  .object({
    version: z.literal(FLOW_JOB_VERSION),
    runId: z.string().regex(RUN_ID_PATTERN),
    /** The flow's place in its run (the client's order). */
    index: z.number().int().min(0).max(99_999),
    /** The flow file to run, one of `files`. */
    entry: RelativePathSchema,
    files: z
      .array(z.object({ path: RelativePathSchema, text: z.string().max(1_000_000) }))
      .min(1)
      .max(500),
    /** The file as the client named it, for the result and its reports. */
    clientFile: z.string().max(4096),
    flowName: z.string().max(500),
    operator: z.enum(['browser', 'desktop']),
    vars: z.record(NameSchema, z.string().max(100_000)),
    settings: JobSettingsSchema,
    /** The secrets the flow and its sub-flows declare: names, never values. */
    secretNames: z.array(NameSchema).max(200),
    /** Runs allowed in all: --retry + 1. A run cut short by a dead worker counts; one a stopping worker handed back does not. */
    attempts: z.number().int().min(1).max(MAX_ATTEMPTS),
    enqueuedAt: z.string(),
    /** Who enqueued it, for `queue ls`. */
    client: z.object({ host: z.string().max(255), pid: z.number().int() }),
  })
  .refine((job) => job.files.some((file) => file.path === job.entry), { message: 'the entry is not among the files', path: ['entry'] })
  .refine((job) => new Set(job.files.map((file) => file.path)).size === job.files.length, { message: 'a file is given twice', path: ['files'] });
export type FlowJob = z.infer<typeof FlowJobSchema>;

/** One run of a job on one worker, as its result names it. */
export const QueueAttemptSchema = z.object({
  attempt: z.number().int().min(1),
  host: z.string(),
  pid: z.number().int(),
  startedAt: z.string(),
  sessionId: z.string().optional(),
  /** lost: its worker died; returned: a stopping worker handed the job back; the rest as the flow ended. */
  outcome: z.enum(['passed', 'failed', 'stopped', 'lost', 'returned', 'running']),
});
export type QueueAttempt = z.infer<typeof QueueAttemptSchema>;

/**
 * A step's result as a worker sends it, in the job's progress as it lands and in the result at the end. What is
 * printed of it is checked: whoever can write to Redis can write a job's progress too.
 */
const StepResultSchema = z.looseObject({
  path: z.string().max(500),
  label: z.string().max(200),
  kind: z.string().max(40),
  status: z.enum(['passed', 'failed', 'stopped', 'skipped']),
  text: z.string().optional(),
  reason: z.string().optional(),
  evidence: z.array(z.string()).default([]),
  durationMs: z.number().default(0),
  replay: z
    .looseObject({
      mode: z.string(),
      reusedAnswer: z.boolean().optional(),
      why: z.string().optional(),
      saved: z.looseObject({ modelCalls: z.number() }),
    })
    .optional(),
});

/** What a worker puts in a job's progress at each step: that step's result, redacted as the flow's result is. */
export const StepProgressSchema = z.object({ version: z.literal(FLOW_JOB_VERSION), step: StepResultSchema });

export function stepProgress(step: StepResult): z.infer<typeof StepProgressSchema> {
  return { version: FLOW_JOB_VERSION, step: JSON.parse(JSON.stringify(step)) as z.infer<typeof StepResultSchema> };
}

/** A job's progress read back as a step; undefined for anything else (another version's, or someone's forgery). */
export function readStepProgress(value: unknown): StepResult | undefined {
  const parsed = StepProgressSchema.safeParse(value);
  return parsed.success ? (parsed.data.step as unknown as StepResult) : undefined;
}

const FlowResultSchema = z.looseObject({
  name: z.string(),
  file: z.string(),
  status: z.enum(['passed', 'failed', 'stopped', 'skipped']),
  sessionId: z.string().optional(),
  attempts: z.number().int(),
  earlierSessions: z.array(z.string()),
  startedAt: z.string(),
  durationMs: z.number(),
  costDollars: z.number().optional(),
  error: z.string().optional(),
  steps: z.array(StepResultSchema),
  queueAttempts: z.array(QueueAttemptSchema).optional(),
});

/** What a worker returns for a job: the flow's result, the attempts named. */
export const FlowJobResultSchema = z.object({ version: z.literal(FLOW_JOB_VERSION), flow: FlowResultSchema });

export function flowJobResult(flow: FlowResult): z.infer<typeof FlowJobResultSchema> {
  return { version: FLOW_JOB_VERSION, flow: JSON.parse(JSON.stringify(flow)) as z.infer<typeof FlowResultSchema> };
}

/** The worker's answer read back; a shape from another version is refused with what was wrong. */
export function readFlowJobResult(value: unknown): FlowResult {
  const parsed = FlowJobResultSchema.safeParse(value);
  if (!parsed.success) throw new Error(`the worker's result has an unexpected shape: ${z.prettifyError(parsed.error).slice(0, 400)}`);
  const flow = parsed.data.flow;
  return { ...flow, sessionId: flow.sessionId, costDollars: flow.costDollars, error: flow.error } as unknown as FlowResult;
}

export function queueNameOf(operator: QueueOperator): string {
  return QUEUE_NAMES[operator];
}
