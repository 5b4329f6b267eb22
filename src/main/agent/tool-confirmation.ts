/**
 * One gate for every tool with side effects: the tools beyond computer that act outside Sightline (MCP
 * servers' tools) pass the same confirmation policy, handler and events as a risky click. A tool says what
 * it may do through `sideEffects`; this wraps it so that, before it runs, a person (or the rule, or the
 * flag) is asked as the policy says, and a refusal is recorded on the step like a refused computer action.
 *
 * The policy of one tool: the run's (agent.confirm, `--confirm`), unless the tool has its own (an MCP
 * server's `confirm`), which may loosen or tighten it; but a run under `always` asks for every side effect
 * everywhere, so it wins over any tool's own.
 */
import type { ToolArguments, ToolCallAction } from '../../shared/actions.js';
import type { ConfirmationPolicy } from '../../shared/config.js';
import type { ConfirmationHandler } from './agent-contract.js';
import { askConfirmation, refusalText } from './confirmation-gate.js';
import type { ToolDefinition, ToolResult, ToolSideEffects } from './tools/tool-definition.js';

export interface ToolConfirmationGate {
  /** The run's policy (agent.confirm). */
  policy: ConfirmationPolicy;
  confirm: ConfirmationHandler;
}

/** The policy that decides for one tool: the run's `always` wins; otherwise the tool's own, else the run's. */
export function policyForTool(runPolicy: ConfirmationPolicy, sideEffects: ToolSideEffects): ConfirmationPolicy {
  if (runPolicy === 'always') return 'always';
  return sideEffects.policy ?? runPolicy;
}

/** Why a person must approve a call of this tool; undefined when the call may run unasked. */
export function toolConfirmationReason(runPolicy: ConfirmationPolicy, toolName: string, sideEffects: ToolSideEffects): string | undefined {
  switch (policyForTool(runPolicy, sideEffects)) {
    case 'never':
      return undefined;
    case 'risky':
      return sideEffects.risk;
    case 'always':
      return sideEffects.risk ?? `the confirmation policy is "always": every call of ${toolName} needs approval`;
  }
}

/** The tools with the gate in front of those that have side effects; the others are returned as they are. */
export function withConfirmationGate(tools: readonly ToolDefinition[], gate: ToolConfirmationGate): ToolDefinition[] {
  return tools.map((tool) => (tool.sideEffects === undefined ? tool : gatedTool(tool, tool.sideEffects, gate)));
}

function gatedTool(tool: ToolDefinition, sideEffects: ToolSideEffects, gate: ToolConfirmationGate): ToolDefinition {
  // The gated tool no longer says it has side effects: gating it twice would ask twice.
  const { sideEffects: _gated, ...rest } = tool;
  return {
    ...rest,
    execute: async (argumentsValue, scope): Promise<ToolResult> => {
      const reason = toolConfirmationReason(gate.policy, tool.name, sideEffects);
      if (reason === undefined) return tool.execute(argumentsValue, scope);
      // Validated arguments are JSON: the tool's schema parsed them from the model's JSON text.
      const action: ToolCallAction = { tool: tool.name, arguments: (argumentsValue ?? {}) as ToolArguments };
      const answer = await askConfirmation(action, reason, scope, gate.confirm);
      if (answer.approved) return tool.execute(argumentsValue, scope);
      return {
        parts: [{ type: 'text', text: refusalText(answer, reason) }],
        isError: true,
        record: { action, result: { ok: false, refused: true } },
      };
    },
  };
}
