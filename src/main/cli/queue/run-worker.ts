/**
 * `sightline worker --queue URL`: serves the queue until stopped. Each job runs as `sightline flow` runs a flow, with
 * this machine's home, configuration and environment (its model settings, its secrets), the job's flags over them.
 * The first SIGTERM or Ctrl+C finishes the jobs in hand and takes no new one; a second stops their flows and hands
 * the jobs back to the queue for another worker.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { SECRET_VARIABLE_NAME } from '../../../shared/config.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { assembleRun } from '../../app/run-assembly.js';
import type { FlowJob } from '../../queue/flow-job.js';
import { DEFAULT_LOCK_MS, FlowWorker } from '../../queue/flow-worker.js';
import { workerPolicy } from '../../queue/job-policy.js';
import { loadCliConfig } from '../cli-config.js';
import { homePrivacyWarning } from '../home-privacy.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { redactingWriter } from '../run/secrets.js';
import { flowLauncher } from '../flow/flow-launch.js';
import { wholeNumber } from '../flow/flow-options.js';
import { requiredQueueAddress } from './queue-address.js';
import type { AgentEvent } from '../../../shared/events.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import type { CliConfig } from '../cli-config.js';
import { PostgresTeamStore } from '../../team-store/postgres-team-store.js';
import { Replicator } from '../../team-store/replicator.js';
import { S3TeamBlobs } from '../../team-store/s3-team-blobs.js';
import { teamAddresses, teamSecrets, type TeamAddresses } from '../team/team-store-options.js';
import { queueConnection } from './queue-reach.js';
import type { WorkerOptions } from './worker-options.js';

/** How long a job's lock lasts and how often stalled jobs are looked for; tests shorten it. */
export const LOCK_VARIABLE = 'SIGHTLINE_QUEUE_LOCK_MS';

export async function runWorker(invocation: CliInvocation, command: Command, options: WorkerOptions): Promise<void> {
  const { io } = invocation;
  const address = requiredQueueAddress(options.queue, io.env);
  const concurrency = wholeNumber('--concurrency', options.concurrency, 1, { min: 1, max: 64 });
  const operator = options.operator ?? 'browser';
  if (operator !== 'browser' && operator !== 'desktop') throw new UserError(`--operator: expected browser or desktop, got ${JSON.stringify(operator.slice(0, 40))}.`, EXIT.usage);
  const lockMs = wholeNumber(LOCK_VARIABLE, io.env[LOCK_VARIABLE] === '' ? undefined : io.env[LOCK_VARIABLE], DEFAULT_LOCK_MS, { min: 500, max: 600_000 });
  const team = teamAddresses(options, io.env);
  const loaded = loadCliConfig(command, io);
  const configured = [...configuredSecrets(loaded.config), ...teamSecrets(team, io.env)];
  const stderr = redactingWriter(io.stderr, redactorOf(configured));
  const privacyWarning = homePrivacyWarning(loaded.home.root);
  if (privacyWarning !== undefined) stderr(`sightline: ${privacyWarning}\n`);
  // A worker without a usable model would fail every job it took: it refuses to start instead.
  await explainSetupErrors(() => assembleRun({ config: loaded.config, env: io.env, onWarning: (message) => stderr(`sightline: ${message}\n`), home: loaded.home.root }));

  const host = hostname();
  const shipping = team === undefined ? undefined : await startShipping(loaded, team, { host, pid: process.pid, env: io.env, say: stderr });
  const replicator = shipping?.replicator;
  const worker = new FlowWorker({
    connection: queueConnection(address, stderr, undefined),
    operators: operator === 'desktop' ? ['browser', 'desktop'] : ['browser'],
    concurrency,
    env: io.env,
    policy: workerPolicy(loaded.config),
    lockMs,
    host,
    pid: process.pid,
    say: stderr,
    open: (job) =>
      flowLauncher({
        home: loaded.home.root,
        env: io.env,
        maxCost: job.settings.maxCost,
        config: jobConfig(job),
        yes: job.settings.yes,
        // Each step, screenshot and turn as it lands in the home goes on to the team store.
        ...(replicator === undefined ? {} : { onEvent: (event) => (SHIPPED_EVENTS.has(event.type) ? replicator.schedule(event.sessionId) : undefined) }),
      }),
    redact: (values) => redactorOf([...configured, address.password, ...credentialsOf(io.env), ...values]),
    runs: replicator === undefined ? undefined : { ended: (sessionId, jobId) => replicator.settle(sessionId, jobId), lost: (sessionId, detail) => replicator.lost(sessionId, detail) },
  });

  let signals = 0;
  let stopped!: () => void;
  const done = new Promise<void>((resolve) => (stopped = resolve));
  const onSignal = (name: string) => {
    signals += 1;
    if (signals === 1) {
      stderr(`\n${name}: finishing the ${worker.busy === 1 ? 'job' : 'jobs'} in hand (${worker.busy}), taking no new one; ${name} again hands them back to the queue\n`);
      void worker.stop('finish').then(stopped);
    } else {
      stderr(`\n${name}: stopping the flows in hand and handing their jobs back to the queue\n`);
      void worker.stop('return').then(stopped);
    }
  };
  const onTerm = () => onSignal('SIGTERM');
  const onInt = () => onSignal('SIGINT');
  process.on('SIGTERM', onTerm);
  process.on('SIGINT', onInt);
  try {
    stderr(`worker ${host} (pid ${process.pid}) connecting to ${address.shown}\n`);
    await Promise.race([worker.start(), done]);
    if (signals === 0) {
      stderr(`worker ${host} (pid ${process.pid}) serving ${operator === 'desktop' ? 'browser and desktop flows' : 'browser flows'} from ${address.shown}, ${concurrency} at a time\n`);
    }
    await done;
    await shipping?.close();
    stderr('worker stopped\n');
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
    await shipping?.close();
  }
}

/** What a worker's run says as it goes that changes what the team store should hold. */
const SHIPPED_EVENTS = new Set<AgentEvent['type']>(['turn-started', 'screenshot', 'step', 'media', 'search-report', 'turn-ended']);

/**
 * The worker's replicator: its own connection to the home (the jobs open theirs), after the home's startup repairs,
 * so a run the last worker on this home left running is ended before it is shipped, then shipped with the rest it
 * left dirty.
 */
async function startShipping(
  loaded: CliConfig,
  team: TeamAddresses,
  worker: { host: string; pid: number; env: Record<string, string | undefined>; say: (line: string) => void },
): Promise<{ replicator: Replicator; close(): Promise<void> }> {
  const runtime = await openCliRuntime(loaded);
  const blobs = S3TeamBlobs.create(team.blobs, worker.env);
  const replicator = new Replicator({
    storage: runtime.storage,
    connect: () => PostgresTeamStore.open(team.store),
    blobs,
    worker: { host: worker.host, pid: worker.pid },
    say: worker.say,
    settleMs: wholeNumber(SETTLE_VARIABLE, worker.env[SETTLE_VARIABLE] === '' ? undefined : worker.env[SETTLE_VARIABLE], 60_000, { min: 0, max: 3_600_000 }),
  });
  worker.say(`worker ships its runs to ${team.store.shown}, screenshots to ${team.blobs.shown}\n`);
  const pending = replicator.resumePending();
  if (pending > 0) worker.say(`team store: shipping ${pending} ${pending === 1 ? 'session' : 'sessions'} an earlier worker on this home left unshipped\n`);
  let closing: Promise<void> | undefined;
  return {
    replicator,
    close: () =>
      (closing ??= (async () => {
        await replicator.close();
        const shipped = replicator.counts;
        // What the store cost this worker: npm run bench -- queue reads this line for its writes per step.
        worker.say(
          `team store: ${shipped.shipments} shipments, ${shipped.rowsSent} rows sent (${shipped.rowsWritten} written) in ${shipped.statements} statements, ${shipped.blobsUploaded} objects uploaded (${shipped.blobsPresent} already there)\n`,
        );
        blobs.close();
        runtime.close();
      })()),
  };
}

/**
 * The worker's own credentials, masked in everything it sends back whether or not a job was let read them: each
 * variable of its environment whose name says it holds one (AWS_SECRET_ACCESS_KEY, PGPASSWORD, a CI token).
 * Sightline's own variables are its configuration, whose secrets configuredSecrets names: the names in
 * SIGHTLINE_WORKER_ALLOW_SECRETS are no secret.
 */
function credentialsOf(env: Record<string, string | undefined>): string[] {
  return Object.entries(env).flatMap(([name, value]) => (SECRET_VARIABLE_NAME.test(name) && !name.startsWith('SIGHTLINE_') && value !== undefined ? [value] : []));
}

/** How long a job's result waits for its session to reach the team store (ms); tests shorten it. */
export const SETTLE_VARIABLE = 'SIGHTLINE_STORE_SETTLE_MS';

/** The job's flags as config paths, over the worker's configuration; the endpoint stays the worker's own. */
function jobConfig(job: FlowJob): Record<string, string | undefined> {
  const { settings } = job;
  return {
    'model.name': settings.model,
    'model.dialect': settings.dialect,
    'agent.maxSteps': settings.maxSteps,
    'agent.confirm': settings.confirm,
    'agent.allowFileUrls': settings.allowFileUrls ? 'true' : undefined,
    'context.policy': settings.contextPolicy,
  };
}
