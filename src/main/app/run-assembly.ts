/**
 * Everything a run needs, whichever face starts it (`sightline run`, the app, `sightline mcp`): the model
 * adapter, the operator, the tools beyond the built-in ones (web_search when Tavily is configured, the tools
 * of the MCP servers in config.json), the turn-end hooks (compaction), and one close for all of it. One
 * place builds them, so the faces cannot drift apart.
 *
 * Two steps: `assembleRun` builds the model, cheaply and before the face opens anything, so a missing key
 * costs nothing; `open` then starts the operator and the MCP servers.
 *
 * Failures a person can fix (no API key, no display, no browser, a url for the desktop operator, a dialect
 * that cannot work with the configuration) come out as RunSetupError with the layer's own message; each face
 * says it its own way (exit 2, an API error).
 */
import type { Config, OperatorKind } from '../../shared/config.js';
import type { DialectName } from '../../shared/dialects.js';
import { stopShortcutInEffect, type StopShortcut } from '../../shared/stop-shortcut.js';
import { availableDialectNames, createSearchTools, loadMcpTools, type ToolDefinition, type TurnEndHook } from '../agent/index.js';
import { CompactionQueue, createCompactionHook } from '../context/index.js';
import { createModelAdapter } from '../llm/create-model-adapter.js';
import type { ModelAdapter } from '../llm/model-adapter.js';
import type { ComputerToolMemory } from '../llm/computer-tool-memory.js';
import { ModelConfigurationError } from '../llm/model-errors.js';
import { BrowserNotFoundError } from '../operators/browser-executable.js';
import { BrowserOperatorError } from '../operators/browser-operator.js';
import { createOperator, type CdpTarget, type CreateOperatorOptions } from '../operators/create-operator.js';
import type { BrowserSettings } from '../operators/browser-settings.js';
import { DisplayUnavailableError, UnknownDisplayError } from '../operators/display-errors.js';
import type { Operator, OwnWindowHook } from '../operators/operator.js';
import { modelToolMemoryAt, type Storage } from '../storage/index.js';
import { dialectChosenBy, dialectProblems } from './dialect-compatibility.js';
import { withStepGate, type StepGate } from './step-gate.js';

/** `unavailable`: the machine or configuration lacks something; `invalid`: the request itself is wrong. */
export class RunSetupError extends Error {
  constructor(
    message: string,
    readonly reason: 'unavailable' | 'invalid',
  ) {
    super(message);
    this.name = 'RunSetupError';
  }
}

export interface RunAssemblyOptions {
  config: Config;
  /** Where the browser operator looks for SIGHTLINE_BROWSER_PATH. */
  env: Record<string, string | undefined>;
  /** The Electron app's window, hidden around captures and actions on the desktop. */
  ownWindow?: OwnWindowHook | undefined;
  /** A warning worth showing once (an MCP server that does not start, web_search left out). */
  onWarning: (message: string) => void;
  /**
   * `optional` for `sightline mcp`: the tools it serves need no model, so a missing one is no setup error;
   * only web_search is left out (its research helper thinks with the model), with a warning.
   */
  model?: 'required' | 'optional';
  /** Awaited before every model call, the research helper's too: the app's pause gate. */
  beforeModelCall?: StepGate | undefined;
  /** Test seam: where operators come from. */
  operatorFactory?: ((options: CreateOperatorOptions) => Promise<Operator>) | undefined;
  /**
   * The Sightline home's folder. Its memory of the computer tools a Claude model refused (storage's
   * modelToolMemoryAt) is read and written here, for every face: a model stepped down once starts on the older
   * tool in every later run, whichever face starts it.
   */
  home: string;
}

/** What one run asks for beyond the configuration. */
export interface RunTarget {
  operator?: OperatorKind | undefined;
  url?: string | undefined;
  /** The person's own browser, over CDP (`--cdp`): only with the browser operator. */
  cdp?: CdpTarget | undefined;
  /** The browser's viewport, pixel ratio and context settings (a Midscene script's web target). */
  browser?: BrowserSettings | undefined;
}

export interface RunParts<Model extends ModelAdapter | undefined = ModelAdapter> {
  model: Model;
  operator: Operator;
  /** The tools beyond the built-in ones: web_search, then the MCP servers' tools. */
  tools: ToolDefinition[];
  turnEndHooks: TurnEndHook[];
  /** Ends the MCP servers and releases the operator; each is released even when the other fails. */
  close(): Promise<void>;
}

export interface RunAssembly<Model extends ModelAdapter | undefined = ModelAdapter> {
  readonly model: Model;
  /** Opens the operator the target asks for (else the configured one) and the configured MCP servers. */
  open(storage: Storage, target: RunTarget): Promise<RunParts<Model>>;
}

export function assembleRun(options: RunAssemblyOptions & { model?: 'required' }): RunAssembly;
export function assembleRun(options: RunAssemblyOptions & { model: 'optional' }): RunAssembly<ModelAdapter | undefined>;
export function assembleRun(options: RunAssemblyOptions): RunAssembly<ModelAdapter | undefined> {
  const built = buildModel(options);
  const { model } = built;
  // The dialect speaks to the run's own model; `sightline mcp` lends its tools to another agent's.
  if (options.model !== 'optional' && model !== undefined) refuseUnworkableDialect(options.config, model.profile.dialect);
  return {
    model,
    open: async (storage, target) => {
      const operator = await openOperator(options, target);
      try {
        const mcp = await loadMcpTools(options.config.mcp, { onWarning: options.onWarning });
        return {
          model,
          operator,
          tools: [...searchTools(options, built), ...mcp.tools],
          // One queue per run is enough: the hook waits for its compaction, so a session's next run starts after it.
          turnEndHooks: [createCompactionHook(new CompactionQueue({ storage }))],
          close: async () => {
            await Promise.allSettled([mcp.close(), operator.close()]);
          },
        };
      } catch (error) {
        await operator.close();
        throw error;
      }
    },
  };
}

type BuiltModel = { model: ModelAdapter } | { model: undefined; problem: string };

/** The configured model, behind the gate when there is one. Without a model, a required one is a setup error. */
function buildModel(options: RunAssemblyOptions): BuiltModel {
  const computerToolMemory = modelToolMemoryAt(options.home);
  let model: ModelAdapter;
  try {
    model = createModelAdapter(options.config.model, undefined, { computerToolMemory });
  } catch (error) {
    if (!(error instanceof ModelConfigurationError)) throw error;
    if (options.model === 'optional') return { model: undefined, problem: error.message };
    throw new RunSetupError(error.message, 'unavailable');
  }
  sayRememberedStepDown(options, computerToolMemory, model);
  return { model: options.beforeModelCall === undefined ? model : withStepGate(model, options.beforeModelCall) };
}

/** A run that starts on the tool a model was stepped down to says why, so the older tool is no surprise. */
function sayRememberedStepDown(options: RunAssemblyOptions, memory: ComputerToolMemory, model: ModelAdapter): void {
  const name = options.config.model.name;
  const remembered = options.config.model.anthropicComputerTool === undefined ? memory.recall(name) : undefined;
  if (remembered === undefined || model.profile.anthropicComputerTool !== remembered.toolType) return;
  options.onWarning(`${name} refused ${remembered.refused} on ${remembered.at}; it is offered ${remembered.toolType} (remembered in ${memory.location})`);
}

/** A dialect that cannot work with this configuration (see dialect-compatibility.ts) is refused before anything starts. */
function refuseUnworkableDialect(config: Config, dialect: DialectName): void {
  const problems = dialectProblems({ dialect, chosenBy: dialectChosenBy(config), config, available: availableDialectNames() });
  if (problems.length > 0) throw new RunSetupError(problems.join('\n'), 'invalid');
}

/** web_search when a Tavily key is configured. Its research sub-agent thinks with the model: without one it is left out, and said so. */
function searchTools(options: RunAssemblyOptions, built: BuiltModel): ToolDefinition[] {
  if (built.model !== undefined) return createSearchTools(options.config, { model: built.model });
  if (options.config.search.tavilyApiKey !== undefined) options.onWarning(`web_search is left out: its research helper needs a model (${built.problem})`);
  return [];
}

/** The emergency stop's combination in effect here (the schema has checked the configured text). */
function configuredStopShortcut(config: Config): StopShortcut | undefined {
  const parsed = stopShortcutInEffect(config.agent.stopShortcut, process.platform);
  return parsed.ok ? parsed.shortcut : undefined;
}

/** The operator a run acts on: the target's kind, else the configured one. */
async function openOperator(options: RunAssemblyOptions, target: RunTarget): Promise<Operator> {
  const kind = target.operator ?? options.config.agent.operator;
  if (target.url !== undefined && kind !== 'browser') {
    throw new RunSetupError(`A url opens a page in the browser operator; the operator is ${kind}.`, 'invalid');
  }
  if (target.cdp !== undefined && kind !== 'browser') {
    throw new RunSetupError(`--cdp attaches the browser operator to your Chrome; the operator is ${kind}.`, 'invalid');
  }
  const factory = options.operatorFactory ?? createOperator;
  let operator: Operator;
  try {
    operator = await factory({
      kind,
      displayId: options.config.perception.displayId,
      url: target.url,
      ...(target.cdp === undefined ? {} : { cdp: target.cdp }),
      ...browserSettingsOf(target.browser),
      scope: {
        allowedUrls: options.config.agent.allowedUrls,
        blockedUrls: options.config.agent.blockedUrls,
        allowFileUrls: options.config.agent.allowFileUrls,
      },
      ownWindow: options.ownWindow,
      stopShortcut: configuredStopShortcut(options.config),
      env: options.env,
    });
  } catch (error) {
    throw asSetupError(error);
  }
  try {
    // The desktop operator reaches for its display only when asked: asking now makes a missing display a
    // setup error, rather than a failure inside the turn (or, for `sightline mcp`, after serving began).
    operator.describe();
  } catch (error) {
    await operator.close().catch(() => undefined);
    throw asSetupError(error);
  }
  return operator;
}

function browserSettingsOf(settings: BrowserSettings | undefined): Partial<CreateOperatorOptions> {
  if (settings === undefined) return {};
  const { viewport, deviceScaleFactor, ...browserContext } = settings;
  return { viewport, deviceScaleFactor, browserContext };
}

function asSetupError(error: unknown): unknown {
  const fixable =
    error instanceof BrowserNotFoundError ||
    error instanceof BrowserOperatorError ||
    error instanceof DisplayUnavailableError ||
    error instanceof UnknownDisplayError;
  return fixable ? new RunSetupError(error.message, 'unavailable') : error;
}
