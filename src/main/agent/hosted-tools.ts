/**
 * The agent's tools for a model that is not ours: another agent calls them, over MCP. The face that serves
 * them (src/main/mcp-server) decides when a turn begins and ends and what its caller was last shown;
 * everything that happens to one call is here and the same as for the agent's own model: the tool
 * definitions, the screen recorder, the safety policy, and the ToolTurn that runs and records each call.
 */
import type { Config } from '../../shared/config.js';
import type { AgentEvent } from '../../shared/events.js';
import type { UserMessage } from '../../shared/messages.js';
import { injectionDebugLogFromEnvironment } from '../context/index.js';
import type { Operator } from '../operators/operator.js';
import type { Storage } from '../storage/index.js';
import type { ConfirmationHandler } from './agent-contract.js';
import { createComputerTool } from './tools/computer-tool.js';
import { createCropImageTool } from './tools/crop-image-tool.js';
import { createGetHistoryImageTool } from './tools/get-history-image-tool.js';
import { publishedParametersSchema } from './tools/model-tool-schema.js';
import { createToolRegistry } from './tools/registry.js';
import { createScreenshotTool } from './tools/screenshot-tool.js';
import type { ToolDefinition } from './tools/tool-definition.js';
import { withConfirmationGate } from './tool-confirmation.js';
import { ToolTurn, type ToolTurnParts } from './tool-turn.js';
import { watchOperator } from './watched-operator.js';
import { TypedPasswords } from './typed-passwords.js';
import { SpelledSecrets } from './spelled-secrets.js';


export interface HostedToolsOptions {
  storage: Storage;
  config: Config;
  operator: Operator;
  /** Approves or refuses a risky action; there may be nobody to ask. */
  confirm: ConfirmationHandler;
  /** Served after the built-in tools (list_sessions, web_search). */
  extraTools?: readonly ToolDefinition[];
  onEvent?: (event: AgentEvent) => void;
  /** False takes the screenshot after an action at once instead of watching the screen settle (tests' screens never change on their own). */
  watchSettling?: boolean;
  /** The answer to a call its caller cancelled while it ran. */
  cancelledNotice: string;
}

/** A tool as it is published to another agent: its exact argument schema, which that agent may validate against. */
export interface PublishedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface HostedTools {
  /** screenshot, computer, get_history_image, crop_image, then the extra tools, each with its exact schema. */
  readonly listed: readonly PublishedTool[];
  /** Takes the configured secrets out of text that leaves the process. */
  redact(text: string): string;
  /** Begins a turn of calls in a session that exists, and stores its request. */
  beginTurn(sessionId: string, request: UserMessage): Promise<ToolTurn>;
}

export function createHostedTools(options: HostedToolsOptions): HostedTools {
  const { storage, config, operator } = options;
  const { redact, emit, screen } = watchOperator(options);
  const screenshot = createScreenshotTool(screen);
  const computer = createComputerTool({ operator, screen, policy: config.agent.confirm, confirm: options.confirm, redactSecrets: redact });
  const registry = createToolRegistry(
    [screenshot, withScreenshotAction(computer, screenshot), createGetHistoryImageTool(), createCropImageTool()],
    withConfirmationGate(options.extraTools ?? [], { policy: config.agent.confirm, confirm: options.confirm }),
  );
  // stderr, never stdout: over stdio, stdout is the MCP protocol's.
  const injectionDebugLog = injectionDebugLogFromEnvironment(process.env, (line) => void process.stderr.write(`${line}\n`));
  const parts: ToolTurnParts = {
    storage,
    emit,
    redact,
    registry,
    screen,
    operator,
    stoppedNotice: options.cancelledNotice,
    injectionDebugLog,
    typedPasswords: new TypedPasswords(),
    spelledSecrets: new SpelledSecrets(redact),
  };
  return {
    listed: registry.list().map((tool) => ({ name: tool.name, description: tool.description, inputSchema: publishedParametersSchema(tool) })),
    redact,
    async beginTurn(sessionId, request) {
      const turn = ToolTurn.begin(parts, { request, sessionId, operatorKind: operator.describe().kind, modelName: '' });
      await turn.storeRequest(request);
      return turn;
    },
  };
}

/** `computer` with action "screenshot" is the screenshot tool: it works before any screenshot was shown. */
function withScreenshotAction(computer: ToolDefinition, screenshot: ToolDefinition<Record<string, never>>): ToolDefinition {
  return {
    ...computer,
    execute: (action, scope) =>
      (action as { action?: string }).action === 'screenshot' ? screenshot.execute({}, scope) : computer.execute(action, scope),
  };
}
