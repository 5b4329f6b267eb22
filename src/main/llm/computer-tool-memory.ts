/**
 * Which computer tool a Claude model was found to refuse, and what it is offered instead: a 400 that names the
 * tool type declared ("'<model>' does not support tool types: computer_toolset_20260801. Did you mean one of …",
 * https://platform.claude.com/docs/en/api/errors, "Computer use tool version not supported") steps the model down
 * once, from the toolset to computer_20251124, the newest beta tool every model that has the toolset also took
 * (computer-use-tool, "Earlier tool versions"), and served where the toolset is not (Bedrock and the other
 * platforms, "Compatibility"). The step-down is remembered per model in the home, so the next run starts there;
 * `model.anthropicComputerTool` still overrides it. Storage of the memory is the home's (storage/), this is the rule.
 */
import type { AnthropicComputerToolType } from '../../shared/providers.js';

export type { ComputerToolMemory, RememberedComputerTool } from '../storage/index.js';

/** The one step down each version has: only the toolset has one (the beta versions are where it steps to). */
export const COMPUTER_TOOL_STEP_DOWN: Readonly<Partial<Record<AnthropicComputerToolType, AnthropicComputerToolType>>> = {
  computer_toolset_20260801: 'computer_20251124',
};

/** Whether an API error's message is the refusal of this tool type ("does not support tool types: <type>"). */
export function refusesToolType(message: string, toolType: AnthropicComputerToolType): boolean {
  const listed = /does not support tool types?:\s*([^.\n]*)/i.exec(message)?.[1];
  return listed !== undefined && listed.split(/[\s,]+/).includes(toolType);
}
