/**
 * `sightline flow FILE… --queue URL`: the flows are checked here as for a local run (their `${env.…}` and secrets
 * by name: a worker's environment gives their values), then enqueued, one job per flow, carrying the files' text.
 * Without --wait the run's id is printed and the command ends. With --wait each flow's steps and result are printed
 * as its worker reports them, the reports are written for the whole run, and the exit code is a local run's.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { newId } from '../../../shared/ids.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { terminalLine } from '../../../shared/terminal-text.js';
import type { Flow } from '../../flows/flow-model.js';
import type { BatchSettings } from '../../flows/midscene-batch.js';
import { runStatus, type FlowRunResult } from '../../flows/flow-result.js';
import { flowSecretNames } from '../../flows/flow-runner.js';
import { jsonReport } from '../../flows/json-report.js';
import { junitReport } from '../../flows/junit-report.js';
import { bundleFlow } from '../../queue/flow-bundle.js';
import { FLOW_JOB_VERSION, type FlowJob, type JobSettings } from '../../queue/flow-job.js';
import { jobIdOf } from '../../queue/flow-queue-client.js';
import type { QueueAddress } from '../../queue/queue-url.js';
import { loadCliConfig } from '../cli-config.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { outputFile, writeOutputFile } from '../output-files.js';
import { commandOutput } from '../terminal-output.js';
import { watchInterrupts } from '../run/interrupts.js';
import { redactingWriter } from '../run/secrets.js';
import { orderedFlows, readFlows } from '../flow/flow-files.js';
import { flowLine, stepLine, summaryLine } from '../flow/flow-lines.js';
import { FLOW_CONFIG_FLAG_NAMES, flowConfigFlags, type FlowOptions } from '../flow/flow-options.js';
import { redactResult, writeFlowRunReport } from '../flow/report-files.js';
import { readTeamStore } from '../team/team-reader.js';
import { BLOBS_VARIABLE, STORE_VARIABLE, teamAddresses, teamSecrets } from '../team/team-store-options.js';
import { reachQueue } from './queue-reach.js';

export interface EnqueueRequest {
  address: QueueAddress;
  vars: Record<string, string>;
  retries: number;
  shard: string | undefined;
}

export async function enqueueFlows(invocation: CliInvocation, command: Command, files: readonly string[], options: FlowOptions, request: EnqueueRequest): Promise<void> {
  const { io } = invocation;
  refuseLocalOnlyFlags(options);
  const wait = options.wait === true;
  const outFile = outputFile('--out', options.out, io.cwd);
  const junitFile = outputFile('--junit', options.junit, io.cwd);
  const reportFile = outputFile('--report', options.report, io.cwd);
  if (!wait && (outFile !== undefined || junitFile !== undefined || reportFile !== undefined)) {
    const flag = outFile !== undefined ? '--out' : junitFile !== undefined ? '--junit' : '--report';
    throw new UserError(`${flag} reports results: add --wait, or read them later with sightline queue status RUN_ID.`, EXIT.usage);
  }
  // The report draws each flow's screenshots from its session, which is in its worker's home and in the team store.
  const team = teamAddresses(options, io.env);
  if (reportFile !== undefined && team === undefined) {
    throw new UserError(
      `--report with --queue reads the sessions from the team store the workers ship them to: add --store and --blobs (or set ${STORE_VARIABLE} and ${BLOBS_VARIABLE}). Without one, use --out or --junit, and sightline report SESSION on the worker that ran it.`,
      EXIT.usage,
    );
  }
  // The flags are checked here as for a local run, so a typo fails now rather than on every worker.
  const loaded = loadCliConfig(command, io, flowConfigFlags(options), FLOW_CONFIG_FLAG_NAMES);
  const run = readFlows(files, request.vars, io.env, io.cwd, true);
  const flows = orderedFlows(run, io.cwd, request.shard);
  const summaryFile = wait ? outputFile('summary', run.batch?.summary, io.cwd) : undefined;
  const redact = redactorOf([...configuredSecrets(loaded.config), ...teamSecrets(team, io.env)]);
  const stdout = redactingWriter(commandOutput(io.stdout, options.json), redact);
  const stderr = redactingWriter(io.stderr, redact);
  for (const note of [...run.notes, ...queuedBatchNotes(run.batch, wait)]) stderr(`note: ${terminalLine(note)}\n`);
  if (flows.length === 0) {
    stderr(`no flows to enqueue${request.shard === undefined ? '' : ` in shard ${request.shard}`}\n`);
    return;
  }
  const runId = `run_${newId('session').slice('ses_'.length)}`;
  const jobs = flows.map((flow, index) => flowJob(flow, index, runId, options, request));

  const loosening = [options.yes === true ? '--yes' : undefined, options.allowFileUrls === true ? '--allow-file-urls' : undefined, options.confirm === 'never' ? '--confirm never' : undefined].filter((flag) => flag !== undefined);
  if (loosening.length > 0) {
    // The client cannot know each worker's settings; it says now what a worker will say when it takes the job.
    stderr(`note: ${loosening.join(', ')} ${loosening.length === 1 ? 'loosens' : 'loosen'} a worker's own settings: a worker refuses such a job before running it unless its owner set worker.allowLoosening (docs/teams.md)\n`);
  }
  const client = await reachQueue(request.address, stderr);
  try {
    await client.enqueue(jobs);
    stderr(`enqueued ${jobs.length === 1 ? '1 flow' : `${jobs.length} flows`} as ${runId} on ${request.address.shown} (jobs ${jobIdOf(jobs[0]!)}…${jobs.length})\n`);
    const json = options.json === true;
    const print = (value: unknown) => stdout(`${JSON.stringify(value)}\n`);
    if (json) print({ type: 'enqueued', runId, jobs: jobs.map((job) => ({ id: jobIdOf(job), flow: job.flowName, file: job.clientFile, operator: job.operator })) });
    else if (!wait) stdout(`${runId}\n`);
    if (!wait) return;

    const started = Date.now();
    const interrupts = watchInterrupts(stderr);
    let results;
    try {
      results = await client.waitFor(jobs, {
        signal: interrupts.signal,
        onStep: (job, step) => {
          // A step's place and label come from Redis, which anyone who can enqueue can write: one line each.
          stderr(stepLine({ ...step, path: terminalLine(step.path), label: terminalLine(step.label) }));
          if (json) print({ type: 'flow-step', flow: job.flowName, job: jobIdOf(job), ...step });
        },
        onResult: (job, result) => {
          stderr(flowLine({ ...result, name: terminalLine(result.name) }));
          if (json) print({ type: 'flow-ended', flow: job.flowName, job: jobIdOf(job), status: result.status, sessionId: result.sessionId, attempts: result.queueAttempts, error: result.error });
        },
      });
    } finally {
      interrupts.dispose();
    }
    const result: FlowRunResult = { startedAt: new Date(started).toISOString(), durationMs: Date.now() - started, shard: request.shard, flows: results };
    const status = runStatus(result);
    const redacted = redactResult(result, redact);
    if (outFile !== undefined) writeOutputFile('--out', outFile, jsonReport(redacted, status));
    if (summaryFile !== undefined) writeOutputFile('summary', summaryFile, jsonReport(redacted, status));
    if (junitFile !== undefined) writeOutputFile('--junit', junitFile, junitReport(redacted, { cwd: io.cwd }));
    if (reportFile !== undefined && team !== undefined) {
      // Each worker shipped its session before it reported the result, so the store has them all by now.
      await readTeamStore(loaded.home, team, io.env, stderr, (storage) => writeFlowRunReport(reportFile, redacted, status, { storage }, redact, stderr));
    }
    stderr(summaryLine(result));
    invocation.exitCode = status === 'passed' ? EXIT.ok : status === 'stopped' ? EXIT.stopped : EXIT.failed;
  } finally {
    await client.close();
  }
}

/** What a batch index says of a run that the queue's workers decide instead: said, not refused. */
function queuedBatchNotes(batch: BatchSettings | undefined, wait: boolean): string[] {
  if (batch === undefined) return [];
  return [
    ...(batch.concurrent === undefined ? [] : [`${batch.file}: concurrent: ignored with --queue: each worker runs as many flows as its own --concurrency says`]),
    ...(batch.continueOnError ? [] : [`${batch.file}: continueOnError is false, but with --queue every script is enqueued at once: a failed one does not hold back the others`]),
    ...(batch.summary === undefined || wait ? [] : [`${batch.file}: summary: written only with --wait, which waits for the results`]),
  ];
}

/** Flags whose meaning is the worker's, refused with where to set them instead. */
function refuseLocalOnlyFlags(options: FlowOptions): void {
  if (options.concurrency !== undefined) {
    throw new UserError('--concurrency is a worker\'s with --queue: each runs as many flows as its own sightline worker --concurrency says.', EXIT.usage);
  }
  if (options.baseUrl !== undefined) {
    // The worker sends its own API key to the endpoint: a job must not be able to send it elsewhere.
    throw new UserError("--base-url cannot travel with a queued flow: the endpoint gets the worker's API key, so it is set in each worker's configuration.", EXIT.usage);
  }
  if (options.replay === true) {
    // A replay follows the latest passing run of the flow in the home it runs in: a worker's home holds only its own runs.
    throw new UserError("--replay is not available with --queue yet: the runs it replays are in each worker's own Sightline home. Replay on the machine that recorded the flow.", EXIT.usage);
  }
}

function flowJob(flow: Flow, index: number, runId: string, options: FlowOptions, request: EnqueueRequest): FlowJob {
  const bundle = bundleFlow(flow);
  const settings: JobSettings = {
    ...defined({
      model: options.model,
      dialect: options.dialect,
      maxSteps: options.maxSteps,
      maxCost: options.maxCost,
      confirm: options.confirm,
      contextPolicy: options.contextPolicy,
    }),
    allowFileUrls: options.allowFileUrls === true,
    continueOnError: options.continueOnError === true,
    yes: options.yes === true,
  };
  return {
    version: FLOW_JOB_VERSION,
    runId,
    index,
    entry: bundle.entry,
    files: bundle.files,
    clientFile: flow.file,
    flowName: flow.name,
    operator: flow.target?.operator ?? 'browser',
    // Only the values this flow takes: the worker loads it alone, where a --var no flow declares is an error.
    vars: Object.fromEntries(Object.entries(request.vars).filter(([name]) => Object.hasOwn(flow.vars, name))),
    settings,
    secretNames: flowSecretNames(flow),
    attempts: request.retries + 1,
    enqueuedAt: new Date().toISOString(),
    client: { host: hostname(), pid: process.pid },
  };
}

function defined<T extends Record<string, string | undefined>>(record: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(record).filter((entry) => entry[1] !== undefined)) as { [K in keyof T]?: string };
}

