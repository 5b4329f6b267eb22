/**
 * A run for the app API: the shared run parts (run-parts.ts) and an agent wired to the run manager's
 * handlers. Tests pass their own operator factory (and a fake model server in the configuration). Setup
 * failures a person can fix come out as AppApiError 'unavailable' (or 'invalid-arguments') with the
 * layer's own message.
 */
import { AppApiError, type Ephemeral } from '../../shared/app-api.js';
import type { Config, OperatorKind } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { createAgent, type Agent, type AskUserHandler, type ConfirmationHandler, type TurnEndHook } from '../agent/index.js';
import type { ModelAdapter } from '../llm/model-adapter.js';
import type { CreateOperatorOptions } from '../operators/create-operator.js';
import type { Operator, OwnWindowHook } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import { buildModel, openRunParts, RunSetupError } from './run-parts.js';

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
  beforeStep: (signal: AbortSignal | undefined) => Promise<void>;
}

export interface AssembledRun {
  agent: Agent;
  /** Releases the operator (the browser process, pressed keys). */
  close(): Promise<void>;
}

export type RunAssembler = (settings: RunSettings, handlers: RunHandlers) => Promise<AssembledRun>;

export interface RunAssemblerOptions {
  storage: Storage;
  config: Config;
  /** Where the browser operator looks for SIGHTLINE_BROWSER_PATH; process.env by default. */
  env?: Record<string, string | undefined>;
  /** The Electron app's window, hidden around captures and actions on the desktop. */
  ownWindow?: OwnWindowHook;
  turnEndHooks?: TurnEndHook[];
  /** A warning worth showing once (an MCP server that does not start); console.warn by default. */
  onWarning?: (message: string) => void;
  /** Test seams. */
  operatorFactory?: (options: CreateOperatorOptions) => Promise<Operator>;
  settleDelayMs?: number;
}

export function createRunAssembler(options: RunAssemblerOptions): RunAssembler {
  return async (settings, handlers) => {
    const { config } = options;
    const model = withStepGate(buildModelOrExplain(config), handlers.beforeStep);
    const partsOptions = {
      config,
      env: options.env ?? process.env,
      ownWindow: options.ownWindow,
      onWarning: options.onWarning ?? ((message: string) => console.warn(`sightline: ${message}`)),
      operatorFactory: options.operatorFactory,
    };
    const parts = await openRunParts(partsOptions, { operator: settings.operator, url: settings.url }, model).catch((error: unknown) => {
      throw toApiError(error);
    });
    const agent = createAgent({
      storage: options.storage,
      config,
      model,
      operator: parts.operator,
      extraTools: parts.extraTools,
      confirm: handlers.confirm,
      askUser: handlers.askUser,
      onEvent: handlers.onEvent,
      ...(options.turnEndHooks ? { turnEndHooks: options.turnEndHooks } : {}),
      ...(options.settleDelayMs === undefined ? {} : { settleDelayMs: options.settleDelayMs }),
    });
    return { agent, close: () => parts.close() };
  };
}

function toApiError(error: unknown): unknown {
  if (!(error instanceof RunSetupError)) return error;
  return new AppApiError(error.reason === 'invalid' ? 'invalid-arguments' : 'unavailable', error.message);
}

function buildModelOrExplain(config: Config): ModelAdapter {
  try {
    return buildModel(config);
  } catch (error) {
    throw toApiError(error);
  }
}

/**
 * Pausing without a hook in the loop: every step starts with a model call, so a model that waits for the gate
 * before each call makes the loop wait before its next step. The step in progress finishes first.
 */
export function withStepGate(model: ModelAdapter, beforeStep: RunHandlers['beforeStep']): ModelAdapter {
  return {
    profile: model.profile,
    complete: async (request, callOptions) => {
      await beforeStep(callOptions?.signal);
      return model.complete(request, callOptions);
    },
  };
}
