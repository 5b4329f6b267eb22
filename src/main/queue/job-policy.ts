/**
 * What a worker lets a job do. Whoever can write to the queue's Redis can put a job there, with or without our
 * client, so a job is a request: the worker's owner decides, in the worker's configuration (`worker.*`), which of
 * the worker's environment variables a job may read and which secrets it may have typed, and whether it may loosen
 * the worker's own settings. By default a job may only tighten them. A refused job fails before it runs, and the
 * refusal names the setting or the variable, never a value of the worker's.
 */
import { CONFIRMATION_POLICIES, type Config, type ConfirmationPolicy } from '../../shared/config.js';
import type { JobSettings } from './flow-job.js';

export interface WorkerPolicy {
  allowEnv: ReadonlySet<string>;
  allowSecrets: ReadonlySet<string>;
  allowLoosening: boolean;
  /** The worker's own settings a job's flags would replace. */
  confirm: ConfirmationPolicy;
  allowFileUrls: boolean;
  maxSteps: number;
}

export function workerPolicy(config: Config): WorkerPolicy {
  return {
    allowEnv: new Set(config.worker.allowEnv),
    allowSecrets: new Set(config.worker.allowSecrets),
    allowLoosening: config.worker.allowLoosening,
    confirm: config.agent.confirm,
    allowFileUrls: config.agent.allowFileUrls,
    maxSteps: config.agent.maxSteps,
  };
}

/** A job the worker will not run, and why, in words that name what was refused. */
export class JobRefusedError extends Error {
  override name = 'JobRefusedError';
}

/**
 * What in a job's flags would loosen the worker's own settings, each named by its flag and the setting it would
 * loosen. `--max-cost` is never among them: it bounds the whole flow, and the worker's agent.maxCost still bounds
 * each step. The model, dialect and context policy are the job's to choose: they loosen no safety setting.
 */
export function looseningSettings(settings: JobSettings, policy: WorkerPolicy): string[] {
  const found: string[] = [];
  if (settings.allowFileUrls && !policy.allowFileUrls) found.push('--allow-file-urls (agent.allowFileUrls is off)');
  // Nobody answers a worker's questions: without --yes an action its policy asks about is refused.
  if (settings.yes) found.push('--yes');
  if (settings.confirm !== undefined) {
    const asked = CONFIRMATION_POLICIES.indexOf(settings.confirm as ConfirmationPolicy);
    if (asked === -1) found.push(`--confirm other than ${CONFIRMATION_POLICIES.join(', ')}`);
    else if (asked < CONFIRMATION_POLICIES.indexOf(policy.confirm)) found.push(`--confirm ${settings.confirm} (agent.confirm is ${policy.confirm})`);
  }
  if (settings.maxSteps !== undefined) {
    const steps = Number(settings.maxSteps);
    if (!Number.isInteger(steps) || steps < 1) found.push('--max-steps other than a whole number above 0');
    else if (steps > policy.maxSteps) found.push(`--max-steps ${steps} (agent.maxSteps is ${policy.maxSteps})`);
  }
  return found;
}

/** Refuses a job whose flags loosen the worker's settings, unless its owner lets jobs loosen them. */
export function checkJobSettings(settings: JobSettings, policy: WorkerPolicy): void {
  if (policy.allowLoosening) return;
  const found = looseningSettings(settings, policy);
  if (found.length === 0) return;
  throw new JobRefusedError(`it loosens this worker's settings with ${found.join(', ')}; a job may only tighten them unless the worker sets worker.allowLoosening`);
}

/** What a job's flows read from the worker's environment: `${env.NAME}` names, and the secrets they declare. */
export interface EnvironmentReads {
  env: ReadonlySet<string>;
  secrets: ReadonlySet<string>;
}

/** Refuses a job that reads a variable or declares a secret the worker's owner did not allow, naming each (never a value). */
export function checkEnvironmentReads(reads: EnvironmentReads, policy: WorkerPolicy): void {
  const env = [...reads.env].filter((name) => !policy.allowEnv.has(name)).sort();
  const secrets = [...reads.secrets].filter((name) => !policy.allowSecrets.has(name)).sort();
  const parts = [
    ...(env.length === 0 ? [] : [`it reads ${listed(env.map((name) => `\${env.${name}}`))}, which this worker's worker.allowEnv does not name`]),
    ...(secrets.length === 0 ? [] : [`it declares the ${secrets.length === 1 ? 'secret' : 'secrets'} ${listed(secrets)}, which this worker's worker.allowSecrets does not name`]),
  ];
  if (parts.length === 0) return;
  throw new JobRefusedError(parts.join('; '));
}

/** A job chooses how many names it reads: the message names the first few. */
const NAMES_SHOWN = 12;

function listed(names: readonly string[]): string {
  if (names.length > NAMES_SHOWN) return `${names.slice(0, NAMES_SHOWN).join(', ')} and ${names.length - NAMES_SHOWN} more`;
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)!}`;
}
