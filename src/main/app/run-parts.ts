/**
 * What every run is made of, whichever face starts it (`sightline run`, the app, a test): the model adapter,
 * the operator, and the tools beyond the built-in ones (web_search when Tavily is configured, the tools of
 * the configured MCP servers). One place builds them, so the CLI and the app cannot drift apart.
 *
 * Failures a person can fix (no API key, no display, no browser, a url for the desktop operator) come out
 * as RunSetupError with the layer's own message; each face says it its own way (exit 2, an API error).
 */
import type { Config, OperatorKind } from '../../shared/config.js';
import { loadMcpTools, type ToolDefinition } from '../agent/index.js';
import { createSearchTools } from '../agent/search/create-search-tools.js';
import { createModelAdapter } from '../llm/create-model-adapter.js';
import type { ModelAdapter } from '../llm/model-adapter.js';
import { ModelConfigurationError } from '../llm/model-errors.js';
import { BrowserNotFoundError } from '../operators/browser-executable.js';
import { BrowserOperatorError } from '../operators/browser-operator.js';
import { createOperator, type CreateOperatorOptions } from '../operators/create-operator.js';
import { DisplayUnavailableError, UnknownDisplayError } from '../operators/display-errors.js';
import type { Operator, OwnWindowHook } from '../operators/operator.js';

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

export interface RunPartsOptions {
  config: Config;
  /** Where the browser operator looks for SIGHTLINE_BROWSER_PATH. */
  env: Record<string, string | undefined>;
  /** The Electron app's window, hidden around captures and actions on the desktop. */
  ownWindow?: OwnWindowHook | undefined;
  /** A warning worth showing once (an MCP server that does not start). */
  onWarning: (message: string) => void;
  /** Test seam: where operators come from. */
  operatorFactory?: ((options: CreateOperatorOptions) => Promise<Operator>) | undefined;
}

/** What one run asks for beyond the configuration. */
export interface RunTarget {
  operator?: OperatorKind | undefined;
  url?: string | undefined;
}

export interface RunParts {
  operator: Operator;
  extraTools: ToolDefinition[];
  /** Ends the MCP servers and releases the operator; each is released even when the other fails. */
  close(): Promise<void>;
}

/** The model adapter for the configuration. Built first and cheaply, so a missing key costs nothing. */
export function buildModel(config: Config): ModelAdapter {
  try {
    return createModelAdapter(config.model);
  } catch (error) {
    if (error instanceof ModelConfigurationError) throw new RunSetupError(error.message, 'unavailable');
    throw error;
  }
}

export async function openRunParts(options: RunPartsOptions, target: RunTarget, model: ModelAdapter): Promise<RunParts> {
  const operator = await openOperator(options, target);
  try {
    const mcp = await loadMcpTools(options.config.mcp, { onWarning: options.onWarning });
    return {
      operator,
      extraTools: [...createSearchTools(options.config, { model }), ...mcp.tools],
      close: async () => {
        await Promise.allSettled([mcp.close(), operator.close()]);
      },
    };
  } catch (error) {
    await operator.close();
    throw error;
  }
}

/** The operator a run acts on: the target's kind, else the configured one. */
export async function openOperator(
  options: Pick<RunPartsOptions, 'config' | 'env' | 'ownWindow' | 'operatorFactory'>,
  target: RunTarget,
): Promise<Operator> {
  const kind = target.operator ?? options.config.agent.operator;
  if (target.url !== undefined && kind !== 'browser') {
    throw new RunSetupError(`A url opens a page in the browser operator; the operator is ${kind}.`, 'invalid');
  }
  const factory = options.operatorFactory ?? createOperator;
  try {
    return await factory({
      kind,
      displayId: options.config.perception.displayId,
      url: target.url,
      ownWindow: options.ownWindow,
      env: options.env,
    });
  } catch (error) {
    const fixable =
      error instanceof BrowserNotFoundError ||
      error instanceof BrowserOperatorError ||
      error instanceof DisplayUnavailableError ||
      error instanceof UnknownDisplayError;
    if (fixable) throw new RunSetupError(error.message, 'unavailable');
    throw error;
  }
}
