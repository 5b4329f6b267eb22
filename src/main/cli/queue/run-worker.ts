/**
 * `sightline worker --queue URL`: serves the queue until stopped. Each job runs as `sightline flow` runs a flow, with
 * this machine's home, configuration and environment (its model settings, its secrets), the job's flags over them.
 * The first SIGTERM or Ctrl+C finishes the jobs in hand and takes no new one; a second stops their flows and hands
 * the jobs back to the queue for another worker.
 */
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { assembleRun } from '../../app/run-assembly.js';
import { flowSecrets } from '../../flows/flow-runner.js';
import type { FlowJob } from '../../queue/flow-job.js';
import { DEFAULT_LOCK_MS, FlowWorker } from '../../queue/flow-worker.js';
import { loadCliConfig } from '../cli-config.js';
import { homePrivacyWarning } from '../home-privacy.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { redactingWriter } from '../run/secrets.js';
import { flowLauncher } from '../flow/flow-launch.js';
import { wholeNumber } from '../flow/flow-options.js';
import { requiredQueueAddress } from './queue-address.js';
import { queueConnection } from './queue-reach.js';

export const WorkerOptionsSchema = z.object({
  queue: z.string().optional(),
  concurrency: z.string().optional(),
  operator: z.string().optional(),
});
export type WorkerOptions = z.infer<typeof WorkerOptionsSchema>;

/** How long a job's lock lasts and how often stalled jobs are looked for; tests shorten it. */
export const LOCK_VARIABLE = 'SIGHTLINE_QUEUE_LOCK_MS';

export async function runWorker(invocation: CliInvocation, command: Command, options: WorkerOptions): Promise<void> {
  const { io } = invocation;
  const address = requiredQueueAddress(options.queue, io.env);
  const concurrency = wholeNumber('--concurrency', options.concurrency, 1, { min: 1, max: 64 });
  const operator = options.operator ?? 'browser';
  if (operator !== 'browser' && operator !== 'desktop') throw new UserError(`--operator: expected browser or desktop, got ${JSON.stringify(operator.slice(0, 40))}.`, EXIT.usage);
  const lockMs = wholeNumber(LOCK_VARIABLE, io.env[LOCK_VARIABLE] === '' ? undefined : io.env[LOCK_VARIABLE], DEFAULT_LOCK_MS, { min: 500, max: 600_000 });
  const loaded = loadCliConfig(command, io);
  const configured = configuredSecrets(loaded.config);
  const stderr = redactingWriter(io.stderr, redactorOf(configured));
  const privacyWarning = homePrivacyWarning(loaded.home.root);
  if (privacyWarning !== undefined) stderr(`sightline: ${privacyWarning}\n`);
  // A worker without a usable model would fail every job it took: it refuses to start instead.
  await explainSetupErrors(() => assembleRun({ config: loaded.config, env: io.env, onWarning: () => undefined }));

  const host = hostname();
  const worker = new FlowWorker({
    connection: queueConnection(address, stderr, undefined),
    operators: operator === 'desktop' ? ['browser', 'desktop'] : ['browser'],
    concurrency,
    env: io.env,
    lockMs,
    host,
    pid: process.pid,
    say: stderr,
    open: (job) => flowLauncher({ home: loaded.home.root, env: io.env, maxCost: job.settings.maxCost, config: jobConfig(job), yes: job.settings.yes }),
    redact: (flow) => redactorOf([...configured, ...Object.values(flowSecrets(flow, io.env))]),
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
    stderr('worker stopped\n');
  } finally {
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onInt);
  }
}

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
