/**
 * Claude's computer toolset (`computer_toolset_20260801`) as tools of the registry: one per member (left_click,
 * type, key, screenshot, zoom, …), named as Claude calls them, so the stored history keeps Claude's calls as
 * written. They all carry one native declaration, which the Anthropic adapter sends once as the toolset's entry
 * (members the operator cannot perform withheld there). A member's input is the fields of the beta tool's
 * action without `action` (https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool,
 * "Available actions"), so each call runs as that action through the same runner, translation and pipeline as
 * the beta `computer` tool (claude-computer-tool.ts): one gate, one pointer.
 *
 * A reply may carry several member calls (a batch): the loop runs them in order and, once one fails, answers the
 * rest with the halt text the docs prescribe (`haltsBatch`).
 */
import type { z } from 'zod';
import {
  COMPUTER_TOOLSET_HALT_TEXT,
  COMPUTER_TOOLSET_MEMBERS,
  type ComputerToolsetMember,
} from '../../llm/anthropic-computer-toolset.js';
import type { AnthropicComputerToolDeclaration } from '../../llm/model-adapter.js';
import { claudeComputerRunner, type ClaudeComputerToolOptions } from './claude-computer-tool.js';
import { ClaudeComputerArgumentsSchema, type ClaudeComputerArguments } from './claude-computer-translation.js';
import type { ToolDefinition } from './tool-definition.js';

/** A member's input: the beta tool's fields without `action`, which is the member's name. */
const MemberInputSchema = ClaudeComputerArgumentsSchema.omit({ action: true });
type MemberInput = z.infer<typeof MemberInputSchema>;

export interface ClaudeComputerToolsetOptions extends Omit<ClaudeComputerToolOptions, 'toolType'> {
  /** Members the operator cannot perform: withheld from the model (`enabled: false`). */
  disabledMembers?: readonly ComputerToolsetMember[];
}

export function createClaudeComputerToolsetTools(options: ClaudeComputerToolsetOptions): ToolDefinition<MemberInput>[] {
  const run = claudeComputerRunner({ ...options, toolType: 'computer_toolset_20260801' });
  const disabled = new Set<string>(options.disabledMembers ?? []);
  const native: AnthropicComputerToolDeclaration = {
    kind: 'anthropic-computer',
    toolType: 'computer_toolset_20260801',
    displayWidth: options.screenshotSize.width,
    displayHeight: options.screenshotSize.height,
    ...(disabled.size === 0 ? {} : { disabledMembers: [...disabled] }),
  };
  return COMPUTER_TOOLSET_MEMBERS.filter((member) => !disabled.has(member)).map((member) => ({
    name: member,
    description: `Claude's computer toolset member ${member}: coordinates are pixels of the latest screenshot.`,
    arguments: MemberInputSchema,
    // Anthropic declares the members itself, so this is never sent: it is what a malformed call's answer shows.
    parametersJsonSchema: { type: 'object', description: `The input of Claude's computer toolset member ${member}, as Anthropic documents it.` },
    nativeDeclaration: native,
    haltsBatch: COMPUTER_TOOLSET_HALT_TEXT,
    execute: (input, scope) => run({ ...input, action: member } satisfies ClaudeComputerArguments, scope),
  }));
}
