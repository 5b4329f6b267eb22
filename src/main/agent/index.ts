/** The agent layer's public surface: what the CLI, the app API and the MCP server import. */
export { createAgent, AgentBusyError } from './agent.js';
export { createAgentToolRegistry, type AgentToolRegistryOptions } from './agent-tool-registry.js';
export type {
  Agent,
  AgentDependencies,
  AnswerRequest,
  AskUserHandler,
  ConfirmationAnswer,
  ConfirmationHandler,
  ConfirmationRequest,
  TurnEndHook,
  TurnOutcome,
  TurnRequest,
} from './agent-contract.js';
export { SessionUnavailableError } from './turn-lifecycle.js';
export { unpricedCeilingRefusal } from './unpriced-ceiling.js';
export { ToolRegistryError } from './tools/registry.js';
export { createHostedTools, type HostedTools, type HostedToolsOptions } from './hosted-tools.js';
export type { CallOrigin, TakenStep, ToolTurn } from './tool-turn.js';
export { SCREENSHOT_TOOL_NAME } from './tools/screenshot-tool.js';
export type { ToolCallScope, ToolDefinition, ToolResult, ToolStepRecord } from './tools/tool-definition.js';
export { assessRisk, needsConfirmation, type RiskAssessment, type RiskEvidence } from './safety-policy.js';
export { toolConfirmationReason } from './tool-confirmation.js';
export { NO_USER_AVAILABLE } from './tools/ask-user-tool.js';
export { MAX_CONSECUTIVE_MALFORMED_REPLIES } from './malformed-output.js';
export { loadMcpTools, type LoadedMcpTools, type LoadMcpToolsOptions, type McpServerFailure } from './mcp/load-mcp-tools.js';
export { createSearchTools } from './search/create-search-tools.js';
export { availableDialectNames } from './dialects/dialects.js';
export { checkerOf } from './tools/answer-tool.js';
