/**
 * The SDK's entry: `Sightline.launch(options)` starts a browser (or takes the desktop) and returns an automation;
 * `Sightline.attach(page, options)` drives a Playwright page the caller already has, so a `@playwright/test` test
 * can mix deterministic steps and the model's. Both build the run the way `sightline run` does (the one run
 * assembly: model, operator, MCP tools, compaction; the home's configuration under the options), so a script
 * and the CLI behave alike and share the same sessions, timeline and safety rules.
 */
import type { Page } from 'playwright-core';
import { describeForApproval } from '../../shared/action-descriptions.js';
import type { ConfirmationPolicy } from '../../shared/config.js';
import { COST_CEILING_FORMS, parseCostCeiling, type CostCeiling } from '../../shared/cost-ceiling.js';
import type { DialectName } from '../../shared/dialects.js';
import type { AgentEvent } from '../../shared/events.js';
import { configuredSecrets, declaredSecretProblem, redactorOf } from '../../shared/secret-redaction.js';
import { createAgent, unpricedCeilingRefusal, type ConfirmationHandler } from '../agent/index.js';
import { assembleRun, RunSetupError, type RunParts } from '../app/run-assembly.js';
import type { BrowserSettings } from '../operators/browser-settings.js';
import { openRuntime, type Runtime } from '../app/runtime.js';
import { ConfigError } from '../config/errors.js';
import { resolveHome } from '../config/home.js';
import { loadConfig } from '../config/load.js';
import { BrowserOperator } from '../operators/browser-operator.js';
import { checkCdpEndpoint } from '../operators/cdp-endpoint.js';
import type { CdpTarget } from '../operators/create-operator.js';
import { DatabaseOpenError, DatabaseVersionError } from '../storage/index.js';
import { SightlineSetupError } from './automation-errors.js';
import { withSecretTyping } from './secret-typing.js';
import { SightlineAgent, type EventListener, type ReplayOption } from './sightline-agent.js';

/** What a risky action is, for a script's own confirmation handler. */
export interface ConfirmationQuestion {
  /** The action in words ("type "[password: 7 characters]"", "key alt+F4"). */
  action: string;
  /** Why the policy asks. */
  reason: string;
  sessionId: string;
}

export interface SightlineOptions {
  /** What to drive: a browser page (default when `url` is given) or the desktop. The configuration's otherwise. */
  operator?: 'browser' | 'desktop';
  /** The page the browser opens first. */
  url?: string;
  /**
   * The launched browser's viewport (CSS pixels), pixel ratio, user agent, certificate checks, extra headers,
   * cookies and downloads folder (a Midscene script's web target). Not for `attach`: that page is the caller's.
   */
  browser?: BrowserSettings;
  /** The model, as its endpoint names it (model.name). */
  model?: string;
  /** An OpenAI-compatible endpoint or a gateway (model.baseUrl). */
  baseUrl?: string;
  /** How the model is asked to act (model.dialect); the model profile's when absent. */
  dialect?: DialectName;
  /** When a person must approve an action (agent.confirm): never, risky (default) or always. */
  confirm?: ConfirmationPolicy;
  /** Approves every action the policy asks about, as `--yes` does. */
  yes?: boolean;
  /** Asked about each action the policy asks about; without it (and without `yes`) such an action is refused. */
  onConfirm?: (question: ConfirmationQuestion) => boolean | Promise<boolean>;
  /** Tool calls a step may make (agent.maxSteps). */
  maxSteps?: number;
  /**
   * The most the whole automation (every step together; a flow run by `sightline flow`) may spend on model calls:
   * dollars, or text such as "200000 tokens". A step whose next model call would go over it fails, saying so.
   * agent.maxCost, in the configuration, still bounds each step on its own.
   */
  maxCost?: number | string;
  /** The Sightline home (data and config.json); SIGHTLINE_HOME, else ~/.sightline. */
  home?: string;
  /** Where keys and settings are read from; process.env by default. */
  env?: Record<string, string | undefined>;
  /**
   * Secrets by name: the model sees `{{NAME}}` and the operator types the value. They never reach the model, the
   * database, events or reports; the value is masked wherever it might appear. A secret is typed only during a
   * step whose text holds its placeholder (`do('Type {{PIN}} into the PIN field')`); elsewhere typing the
   * placeholder is refused and the model told why. Each value needs at least 4 characters (shorter ones could
   * not be masked without mangling ordinary text), and is refused at launch otherwise.
   */
  secrets?: Record<string, string>;
  /** Any other configuration field by its dotted path: `{ 'model.apiKey': …, 'agent.allowedUrls': [...] }`. */
  config?: Record<string, unknown>;
  /** Names the session for a flow (the timeline shows flows by name). */
  flowName?: string;
  /** Listens to the run's events from the start. */
  onEvent?: EventListener;
  /**
   * Replays each `do` step from its latest passing recording (the same flowName, step and text) without the model,
   * checking the screen before and after each action, and heals a step whose screen diverged with the model
   * (`{ heal: false }`: fails it instead). Questions reuse their recorded verdict only on an identical frame.
   */
  replay?: ReplayOption;
}

/** Sightline.connect: the person's own running Chrome, reached over CDP, instead of a browser Sightline launches. */
export interface ConnectOptions extends Omit<SightlineOptions, 'operator'> {
  /**
   * The browser's DevTools endpoint: `http://127.0.0.1:9222` for Chrome started with `--remote-debugging-port=9222`
   * (and a `--user-data-dir` of its own), or its `ws://` address. On this machine only, unless `allowRemote`.
   */
  cdp: string;
  /** Which tab: a new one (default; closed by close()), or the one in front (`current`; left open). */
  tab?: 'new' | 'current';
  /** Lets `cdp` be on another machine: whoever reaches that port controls the browser, with no password. */
  allowRemote?: boolean;
}

export const Sightline = {
  /** Starts the operator the options ask for and opens a new session on it. */
  async launch(options: SightlineOptions = {}): Promise<SightlineAgent> {
    return openAutomation(options, undefined);
  },

  /**
   * Drives `page`, a Playwright page the caller owns (from @playwright/test or playwright-core on Chromium); close()
   * leaves the page and its browser open. `options.url`, when given, is opened in the page first.
   */
  async attach(page: Page, options: Omit<SightlineOptions, 'operator'> = {}): Promise<SightlineAgent> {
    if (typeof page !== 'object' || page === null || typeof (page as { context?: unknown }).context !== 'function') {
      throw new SightlineSetupError('Sightline.attach takes a Playwright Page (the `page` of a @playwright/test test, or browser.newPage()).');
    }
    return openAutomation({ ...options, operator: 'browser' }, page);
  },

  /**
   * Acts in the person's own running Chrome (their cookies and signed-in sessions) over CDP, in a new tab by
   * default, inside the same URL scope, confirmation and masking as a launched browser. close() closes only the
   * tab it opened and disconnects: the browser and the person's other tabs stay as they were.
   */
  async connect(options: ConnectOptions): Promise<SightlineAgent> {
    if (typeof options !== 'object' || options === null) throw new SightlineSetupError('Sightline.connect takes options with cdp: the browser\'s DevTools endpoint, e.g. { cdp: \'http://127.0.0.1:9222\' }.');
    const { cdp, tab, allowRemote, ...rest } = options;
    const checked = checkCdpEndpoint(cdp, { allowRemote });
    if (!checked.ok) throw new SightlineSetupError(`cdp: ${checked.problem}.`);
    if (tab !== undefined && tab !== 'new' && tab !== 'current') throw new SightlineSetupError(`tab: expected 'new' or 'current', got ${JSON.stringify(tab)}.`);
    return openAutomation({ ...rest, operator: 'browser' }, undefined, { endpoint: checked.endpoint.url, allowRemote: allowRemote === true, tab: tab ?? 'new' });
  },
};

async function openAutomation(options: SightlineOptions, page: Page | undefined, cdp?: CdpTarget): Promise<SightlineAgent> {
  const env = options.env ?? process.env;
  const secrets = checkedSecrets(options.secrets);
  const budget = checkedBudget(options.maxCost);
  const home = resolveHome({ flag: options.home, env, cwd: process.cwd() });
  const config = loadOptionsConfig(options, home, env);
  // A ceiling in dollars that no price can be held to is refused before the runtime opens or any request is sent.
  const unheld = unpricedCeilingRefusal(config, options.maxCost, 'maxCost') ?? unpricedCeilingRefusal(config, config.agent.maxCost, 'agent.maxCost');
  if (unheld !== undefined) throw new SightlineSetupError(unheld);
  const secretValues = Object.values(secrets);
  const redact = redactorOf([...configuredSecrets(config), ...secretValues]);
  const warnings: string[] = [];
  const onWarning = (message: string) => void warnings.push(message);
  const operatorFactory = page === undefined ? undefined : () => BrowserOperator.attach(page, { scope: config.agent });
  const assembly = setupStep(() => assembleRun({ config, env, onWarning, operatorFactory, home: home.root }));
  const runtime = await openSetupRuntime(home, config, redact);
  let parts: RunParts;
  try {
    const url = page === undefined ? options.url : undefined;
    parts = await assembly.open(runtime.storage, {
      operator: options.operator ?? (options.url !== undefined ? 'browser' : undefined),
      url,
      cdp,
      ...(page === undefined && options.browser !== undefined ? { browser: options.browser } : {}),
    });
  } catch (error) {
    runtime.close();
    throw error instanceof RunSetupError ? new SightlineSetupError(error.message) : error;
  }
  const secretTyping = withSecretTyping(parts.operator, secrets);
  const operator = secretTyping.operator;
  const listeners = new Set<EventListener>(options.onEvent === undefined ? [] : [options.onEvent]);
  const session = runtime.storage.sessions.create({
    title: options.flowName ?? 'Automation',
    operator: operator.describe().kind,
    model: config.model.name,
    flowName: options.flowName ?? null,
  });
  const confirm = confirmationHandler(options, session.id, redact);
  const agent = createAgent({
    storage: runtime.storage,
    config,
    model: parts.model,
    operator,
    confirm,
    askUser: async () => undefined,
    extraTools: parts.tools,
    turnEndHooks: parts.turnEndHooks,
    secrets: secretValues,
    onEvent: (event: AgentEvent) => {
      for (const listener of listeners) listener(event);
    },
  });
  const automation = SightlineAgent.open({
    agent,
    storage: runtime.storage,
    operator,
    sessionId: session.id,
    secrets,
    secretTyping,
    confirm,
    confirmPolicy: config.agent.confirm,
    budget,
    budgetOwner: options.flowName === undefined ? 'the automation' : 'the flow',
    recordingName: options.flowName ?? 'Automation',
    replay: options.replay,
    listeners,
    release: () => release(parts, runtime),
  });
  if (page !== undefined && options.url !== undefined) {
    try {
      await automation.goto(options.url);
    } catch (error) {
      await automation.close();
      throw new SightlineSetupError(error instanceof Error ? error.message : String(error));
    }
  }
  return automation;
}

/** The home's configuration, with the options over it as flags are over it for the CLI. */
function loadOptionsConfig(options: SightlineOptions, home: ReturnType<typeof resolveHome>, env: Record<string, string | undefined>) {
  const named: Record<string, unknown> = {
    'model.name': options.model,
    'model.baseUrl': options.baseUrl,
    'model.dialect': options.dialect,
    'agent.confirm': options.confirm,
    'agent.maxSteps': options.maxSteps,
    'agent.operator': options.operator ?? (options.url !== undefined ? 'browser' : undefined),
  };
  // A named option given wins over the same field in `config`; one not given leaves it be.
  const flags: Record<string, unknown> = { ...(options.config ?? {}), ...Object.fromEntries(Object.entries(named).filter(([, value]) => value !== undefined)) };
  const names = Object.fromEntries(Object.keys(flags).map((path) => [path, optionNameOf(path)]));
  try {
    return loadConfig({ home, env, flags, flagNames: names }).config;
  } catch (error) {
    if (error instanceof ConfigError) throw new SightlineSetupError(error.message);
    throw error;
  }
}

const OPTION_NAMES: Record<string, string> = {
  'model.name': 'model',
  'model.baseUrl': 'baseUrl',
  'model.dialect': 'dialect',
  'agent.confirm': 'confirm',
  'agent.maxSteps': 'maxSteps',
  'agent.operator': 'operator',
};

function optionNameOf(path: string): string {
  return OPTION_NAMES[path] === undefined ? `config['${path}']` : `option ${OPTION_NAMES[path]}`;
}

/** Names a script can write in a flow and a placeholder: letters, digits and _; values text of 4 characters or more. */
function checkedSecrets(secrets: Record<string, string> | undefined): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(secrets ?? {})) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new SightlineSetupError(`secrets: ${JSON.stringify(name)} is not a name (letters, digits and _).`);
    if (typeof value !== 'string' || value === '') throw new SightlineSetupError(`secrets: ${name} has no value.`);
    const problem = declaredSecretProblem(name, value);
    if (problem !== undefined) throw new SightlineSetupError(`secrets: ${problem}.`);
    checked[name] = value;
  }
  return checked;
}

function checkedBudget(maxCost: number | string | undefined): CostCeiling | undefined {
  if (maxCost === undefined) return undefined;
  const ceiling = parseCostCeiling(maxCost);
  if (ceiling === undefined) throw new SightlineSetupError(`maxCost: ${JSON.stringify(maxCost)} is not a cost; expected ${COST_CEILING_FORMS}.`);
  return ceiling;
}

function confirmationHandler(options: SightlineOptions, sessionId: string, redact: (text: string) => string): ConfirmationHandler {
  return async (request) => {
    if (options.yes === true) return { approved: true, by: 'flag' };
    if (options.onConfirm !== undefined) {
      const approved = await options.onConfirm({ action: redact(describeForApproval(request.action)), reason: redact(request.reason), sessionId });
      return { approved: approved === true, by: 'user' };
    }
    return {
      approved: false,
      by: 'policy',
      refusal: `refused: ${request.reason}. Nobody is asked in this script; the script allows such actions with yes: true or an onConfirm handler. Nothing was done; do not try to get around the refusal.`,
    };
  };
}

function setupStep<T>(build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (error instanceof RunSetupError) throw new SightlineSetupError(error.message);
    throw error;
  }
}

async function openSetupRuntime(home: ReturnType<typeof resolveHome>, config: Parameters<typeof openRuntime>[0]['config'], redact: (text: string) => string): Promise<Runtime> {
  try {
    return await openRuntime({ home, config, redactStoredText: redact });
  } catch (error) {
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) throw new SightlineSetupError(error.message);
    throw error;
  }
}

async function release(parts: RunParts, runtime: Runtime): Promise<void> {
  try {
    await parts.close();
  } finally {
    runtime.close();
  }
}
