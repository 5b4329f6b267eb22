/**
 * The flags of `sightline run`, checked once: commander hands over strings, zod says what they must be,
 * and the flags that are configuration (--model, --max-steps …) go through loadCliConfig so that their
 * errors read like every other configuration error, naming the flag that was typed.
 */
import { z } from 'zod';
import type { Config } from '../../../shared/config.js';
import { parseId } from '../../../shared/ids.js';
import { BrowserUrlScope } from '../../operators/browser-url-scope.js';
import { checkCdpEndpoint } from '../../operators/cdp-endpoint.js';
import type { CdpTarget } from '../../operators/create-operator.js';
import { EXIT, UserError } from '../io.js';

export const RunOptionsSchema = z.object({
  operator: z.string().optional(),
  url: z.string().optional(),
  cdp: z.string().optional(),
  allowRemoteCdp: z.boolean().optional(),
  allowFileUrls: z.boolean().optional(),
  model: z.string().optional(),
  dialect: z.string().optional(),
  baseUrl: z.string().optional(),
  maxSteps: z.string().optional(),
  maxCost: z.string().optional(),
  confirm: z.string().optional(),
  contextPolicy: z.string().optional(),
  yes: z.boolean().optional(),
  session: z.string().optional(),
  image: z.array(z.string()).optional(),
  contextFile: z.string().optional(),
  contextType: z.string().optional(),
  json: z.boolean().optional(),
  stream: z.boolean().optional(),
});
export type RunOptions = z.infer<typeof RunOptionsSchema>;

/** Config paths of the flags that are configuration, and how each is spelled on the command line. */
export const CONFIG_FLAG_NAMES = {
  'model.name': '--model',
  'model.dialect': '--dialect',
  'model.baseUrl': '--base-url',
  'agent.maxSteps': '--max-steps',
  'agent.maxCost': '--max-cost',
  'agent.confirm': '--confirm',
  'agent.operator': '--operator',
  'agent.allowFileUrls': '--allow-file-urls',
  'context.policy': '--context-policy',
} as const;

export function configFlags(options: RunOptions): Record<keyof typeof CONFIG_FLAG_NAMES, string | undefined> {
  return {
    'model.name': options.model,
    'model.dialect': options.dialect,
    'model.baseUrl': options.baseUrl,
    'agent.maxSteps': options.maxSteps,
    'agent.maxCost': options.maxCost,
    'agent.confirm': options.confirm,
    // --cdp attaches the browser operator, and --url is a page only it opens: either implies it, as the SDK's url does.
    'agent.operator': options.operator ?? (options.cdp === undefined && options.url === undefined ? undefined : 'browser'),
    'agent.allowFileUrls': allowFileUrlsFlag(options.allowFileUrls),
    'context.policy': options.contextPolicy,
  };
}

/** The task: one non-empty argument (quoted on the command line). */
export function checkTask(task: string): string {
  const trimmed = task.trim();
  if (trimmed === '') throw new UserError('the task is empty: say what to do, e.g. sightline run "open the settings".', EXIT.usage);
  return trimmed;
}

/** --url is the page the browser operator opens; it means nothing to the desktop operator. */
export function checkUrl(url: string | undefined, config: Config): string | undefined {
  if (url === undefined) return undefined;
  if (config.agent.operator !== 'browser') {
    throw new UserError(`--url opens a page in the browser operator: add --operator browser (the operator is ${config.agent.operator}).`, EXIT.usage);
  }
  const parsed = z.url({ protocol: /^(https?|file)$/ }).safeParse(url);
  if (!parsed.success) {
    throw new UserError(`--url: expected an http(s) or file URL (like https://example.com), got ${JSON.stringify(url)}.`, EXIT.usage);
  }
  // The browser operator refuses it too; here it is a usage error before anything starts, with the fix.
  const refusal = BrowserUrlScope.from(config.agent).refusal(url);
  if (refusal !== undefined) throw new UserError(`--url: ${refusal}.`, EXIT.usage);
  return url;
}

/**
 * --cdp is the person's running Chrome, which the browser operator attaches to (a new tab of it) instead of
 * launching its own; checked here so that a wrong or remote endpoint is a usage error before anything starts.
 */
export function checkCdp(options: { cdp?: string | undefined; allowRemoteCdp?: boolean | undefined }, config: Config): CdpTarget | undefined {
  if (options.cdp === undefined) {
    if (options.allowRemoteCdp === true) throw new UserError('--allow-remote-cdp goes with --cdp URL: there is no endpoint to allow.', EXIT.usage);
    return undefined;
  }
  if (config.agent.operator !== 'browser') {
    throw new UserError(`--cdp attaches the browser operator to your Chrome; the operator is ${config.agent.operator} (leave out --operator, or say --operator browser).`, EXIT.usage);
  }
  const checked = checkCdpEndpoint(options.cdp, { allowRemote: options.allowRemoteCdp });
  if (!checked.ok) throw new UserError(`--cdp: ${checked.problem}.`, EXIT.usage);
  return { endpoint: checked.endpoint.url, allowRemote: options.allowRemoteCdp === true };
}

/** --allow-file-urls is a switch: given, it sets agent.allowFileUrls; absent, the configuration decides. */
export function allowFileUrlsFlag(given: boolean | undefined): string | undefined {
  return given === true ? 'true' : undefined;
}

/** --session takes a session id (ses_ and 12 hex digits; the prefix may be left out). */
export function parseSessionFlag(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const id = parseId('session', text);
  if (id === undefined) {
    throw new UserError(`--session: "${text}" is not a session id (expected ses_ followed by 12 hex digits).`, EXIT.usage);
  }
  return id;
}
