/**
 * What a run is made of: a model adapter, an operator and an agent wired to them. The app API assembles one
 * per run through `createRunAssembler`; tests pass their own operator factory (and a fake model server in
 * the configuration). Model and operator errors the user can fix (no API key, no display, no browser) come
 * out as AppApiError 'unavailable' with the layer's own message.
 */
import { AppApiError, type Ephemeral } from '../../shared/app-api.js';
import type { Config, OperatorKind } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import { createAgent, type Agent, type AskUserHandler, type ConfirmationHandler, type TurnEndHook } from '../agent/index.js';
import { createModelAdapter } from '../llm/create-model-adapter.js';
import type { ModelAdapter } from '../llm/model-adapter.js';
import { ModelConfigurationError } from '../llm/model-errors.js';
import { BrowserNotFoundError } from '../operators/browser-executable.js';
import { BrowserOperatorError } from '../operators/browser-operator.js';
import { createOperator, type CreateOperatorOptions } from '../operators/create-operator.js';
import { DisplayUnavailableError, UnknownDisplayError } from '../operators/display-errors.js';
import type { Operator, OwnWindowHook } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';

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
  /** Test seams. */
  operatorFactory?: (options: CreateOperatorOptions) => Promise<Operator>;
  settleDelayMs?: number;
}

export function createRunAssembler(options: RunAssemblerOptions): RunAssembler {
  return async (settings, handlers) => {
    const { config } = options;
    const model = withStepGate(buildModel(config), handlers.beforeStep);
    const operator = await buildOperator(options, settings);
    const agent = createAgent({
      storage: options.storage,
      config,
      model,
      operator,
      confirm: handlers.confirm,
      askUser: handlers.askUser,
      onEvent: handlers.onEvent,
      ...(options.turnEndHooks ? { turnEndHooks: options.turnEndHooks } : {}),
      ...(options.settleDelayMs === undefined ? {} : { settleDelayMs: options.settleDelayMs }),
    });
    return { agent, close: () => operator.close() };
  };
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

function buildModel(config: Config): ModelAdapter {
  try {
    return createModelAdapter(config.model);
  } catch (error) {
    if (error instanceof ModelConfigurationError) throw new AppApiError('unavailable', error.message);
    throw error;
  }
}

async function buildOperator(options: RunAssemblerOptions, settings: RunSettings): Promise<Operator> {
  const kind = settings.operator ?? options.config.agent.operator;
  if (settings.url !== undefined && kind !== 'browser') {
    throw new AppApiError('invalid-arguments', `A url opens a page in the browser operator; the operator is ${kind}.`);
  }
  const factory = options.operatorFactory ?? createOperator;
  try {
    return await factory({
      kind,
      displayId: options.config.perception.displayId,
      url: settings.url,
      ownWindow: options.ownWindow,
      env: options.env ?? process.env,
    });
  } catch (error) {
    const fixable =
      error instanceof BrowserNotFoundError ||
      error instanceof BrowserOperatorError ||
      error instanceof DisplayUnavailableError ||
      error instanceof UnknownDisplayError;
    if (fixable) throw new AppApiError('unavailable', error.message);
    throw error;
  }
}
