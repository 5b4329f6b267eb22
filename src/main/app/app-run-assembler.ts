/**
 * A run for the app API: the one run assembly (run-assembly.ts), its model behind the run manager's pause
 * gate, and an agent wired to the run manager's handlers. Tests pass their own operator factory (and a fake
 * model server in the configuration). Setup failures a person can fix come out as AppApiError 'unavailable'
 * (or 'invalid-arguments') with the layer's own message.
 */
import { AppApiError, type Ephemeral } from '../../shared/app-api.js';
import type { Config, OperatorKind } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { secretRedactor, type Redact } from '../../shared/secret-redaction.js';
import { terminalText } from '../../shared/terminal-text.js';
import { createAgent, type Agent, type AskUserHandler, type ConfirmationHandler } from '../agent/index.js';
import type { CreateOperatorOptions } from '../operators/create-operator.js';
import type { Operator, OwnWindowHook } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { assembleRun, RunSetupError, type RunParts } from './run-assembly.js';
import type { StepGate } from './step-gate.js';

/** What one run asks for, beyond the task itself. */
export interface RunSettings {
  operator?: OperatorKind | undefined;
  url?: string | undefined;
  ephemeral?: Ephemeral | undefined;
}

/** The run manager's side of a run: how the agent reaches a person, where its events go, and the pause gate. */
export interface RunHandlers {
  confirm: ConfirmationHandler;
  askUser: AskUserHandler;
  onEvent: (event: AgentEvent) => void;
  /** Resolves when the run may take its next step (immediately unless paused); rejects when `signal` aborts. */
  beforeStep: StepGate;
}

export interface AssembledRun {
  agent: Agent;
  /** Releases the operator (the browser process, pressed keys) and ends the MCP servers. */
  close(): Promise<void>;
}

export type RunAssembler = (settings: RunSettings, handlers: RunHandlers) => Promise<AssembledRun>;

export interface RunAssemblerOptions {
  storage: Storage;
  config: Config;
  /** The Sightline home's folder, where the computer tools a Claude model refused are remembered (run-assembly.ts). */
  home: string;
  /** Where the browser operator looks for SIGHTLINE_BROWSER_PATH; process.env by default. */
  env?: Record<string, string | undefined>;
  /** The Electron app's window, hidden around captures and actions on the desktop. */
  ownWindow?: OwnWindowHook;
  /** A warning worth showing once (an MCP server that does not start); console.warn by default. */
  onWarning?: (message: string) => void;
  /** Test seams. */
  operatorFactory?: (options: CreateOperatorOptions) => Promise<Operator>;
  watchSettling?: boolean;
}

export function createRunAssembler(options: RunAssemblerOptions): RunAssembler {
  return async (settings, handlers) => {
    const parts = await openParts(options, settings, handlers.beforeStep).catch((error: unknown) => {
      throw toApiError(error, secretRedactor(options.config));
    });
    const agent = createAgent({
      storage: options.storage,
      config: options.config,
      model: parts.model,
      operator: parts.operator,
      extraTools: parts.tools,
      confirm: handlers.confirm,
      askUser: handlers.askUser,
      onEvent: handlers.onEvent,
      turnEndHooks: parts.turnEndHooks,
      ...(options.watchSettling === undefined ? {} : { watchSettling: options.watchSettling }),
    });
    return { agent, close: () => parts.close() };
  };
}

async function openParts(options: RunAssemblerOptions, settings: RunSettings, beforeStep: StepGate): Promise<RunParts> {
  const redact = secretRedactor(options.config);
  // An MCP server that does not start is reported with what it said on stderr, which may echo its env.
  const onWarning = options.onWarning ?? ((message: string) => console.warn(`sightline: ${terminalText(message)}`));
  const assembly = assembleRun({
    config: options.config,
    home: options.home,
    env: options.env ?? process.env,
    ownWindow: options.ownWindow,
    onWarning: (message: string) => onWarning(redact(message)),
    beforeModelCall: beforeStep,
    operatorFactory: options.operatorFactory,
  });
  return assembly.open(options.storage, { operator: settings.operator, url: settings.url });
}

/** Its message reaches the renderer and the timeline's HTTP client: a server's stderr in it is redacted. */
function toApiError(error: unknown, redact: Redact): unknown {
  if (!(error instanceof RunSetupError)) return error;
  return new AppApiError(error.reason === 'invalid' ? 'invalid-arguments' : 'unavailable', redact(error.message));
}
