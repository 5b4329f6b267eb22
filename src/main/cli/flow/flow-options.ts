/**
 * The flags of `sightline flow`, checked before anything runs: commander hands over strings, each is read here
 * into what it means or refused with a usage error (exit 2) that names the flag. The flags that are
 * configuration go through loadCliConfig, like `sightline run`'s.
 */
import { z } from 'zod';
import { parseShard } from '../../flows/shards.js';
import { EXIT, UserError } from '../io.js';
import { allowFileUrlsFlag, CONFIG_FLAG_NAMES } from '../run/run-options.js';

export const FlowOptionsSchema = z.object({
  var: z.array(z.string()).optional(),
  out: z.string().optional(),
  junit: z.string().optional(),
  report: z.string().optional(),
  json: z.boolean().optional(),
  concurrency: z.string().optional(),
  shard: z.string().optional(),
  retry: z.string().optional(),
  continueOnError: z.boolean().optional(),
  replay: z.boolean().optional(),
  /** commander's --no-heal: false when given, true otherwise. */
  heal: z.boolean().optional(),
  model: z.string().optional(),
  dialect: z.string().optional(),
  baseUrl: z.string().optional(),
  maxSteps: z.string().optional(),
  maxCost: z.string().optional(),
  confirm: z.string().optional(),
  contextPolicy: z.string().optional(),
  allowFileUrls: z.boolean().optional(),
  cdp: z.string().optional(),
  allowRemoteCdp: z.boolean().optional(),
  yes: z.boolean().optional(),
  queue: z.string().optional(),
  wait: z.boolean().optional(),
  store: z.string().optional(),
  blobs: z.string().optional(),
  check: z.boolean().optional(),
});
export type FlowOptions = z.infer<typeof FlowOptionsSchema>;

/**
 * Config paths of the flags that are configuration, spelled as `sightline run` spells them: run's, less those a flow
 * sets otherwise (its target names the operator; --max-cost bounds the whole flow, not a turn).
 */
const { 'agent.operator': _operator, 'agent.maxCost': _maxCost, ...flowFlagNames } = CONFIG_FLAG_NAMES;
export const FLOW_CONFIG_FLAG_NAMES = flowFlagNames;

export function flowConfigFlags(options: FlowOptions): Record<keyof typeof FLOW_CONFIG_FLAG_NAMES, string | undefined> {
  return {
    'model.name': options.model,
    'model.dialect': options.dialect,
    'model.baseUrl': options.baseUrl,
    'agent.maxSteps': options.maxSteps,
    'agent.confirm': options.confirm,
    'agent.allowFileUrls': allowFileUrlsFlag(options.allowFileUrls),
    'context.policy': options.contextPolicy,
  };
}

/** --var NAME=VALUE, each name once. */
export function parseVars(given: readonly string[] | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const text of given ?? []) {
    const equals = text.indexOf('=');
    const name = equals === -1 ? '' : text.slice(0, equals).trim();
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new UserError(`--var ${JSON.stringify(text.slice(0, 80))}: expected NAME=VALUE, the name of letters, digits and _.`, EXIT.usage);
    }
    if (Object.hasOwn(vars, name)) throw new UserError(`--var ${name} is given twice.`, EXIT.usage);
    vars[name] = text.slice(equals + 1);
  }
  return vars;
}

/** A whole number in a range, or a usage error naming the flag. */
export function wholeNumber(flag: string, text: string | undefined, fallback: number, range: { min: number; max: number }): number {
  if (text === undefined) return fallback;
  const value = /^\s*\d{1,6}\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new UserError(`${flag}: expected a whole number from ${range.min} to ${range.max}, got ${JSON.stringify(text.slice(0, 40))}.`, EXIT.usage);
  }
  return value;
}

export function checkedShard(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (parseShard(text) === undefined) {
    throw new UserError(`--shard: expected I/N with 1 ≤ I ≤ N, such as 2/4, got ${JSON.stringify(text.slice(0, 40))}.`, EXIT.usage);
  }
  return text.trim();
}
