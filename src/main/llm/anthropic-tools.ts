/**
 * Tool declarations → Anthropic's `tools`, and the beta flags they need
 * (https://platform.claude.com/docs/en/agents-and-tools/tool-use/computer-use-tool).
 *
 * Function tools go as custom tools with their JSON Schema as `input_schema`. Anthropic's computer tool goes
 * in its own form: a beta version named `computer` as the model was trained to call it, with the beta header of
 * its version; the toolset as one entry for all its member tools (each a tool of the registry carrying the same
 * declaration), with no header. OpenAI's computer tool has no form here: it is refused before any network call.
 */
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AnthropicComputerToolDeclaration, ModelToolDeclaration } from './model-adapter.js';
import { computerToolsetEntry } from './anthropic-computer-toolset.js';
import { unsendableNativeTool } from './model-errors.js';

/** The beta header each version of the computer tool needs; the toolset is stable and needs none. */
export const COMPUTER_TOOL_BETAS: Readonly<Record<AnthropicComputerToolDeclaration['toolType'], string | undefined>> = {
  computer_20241022: 'computer-use-2024-10-22',
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
  computer_toolset_20260801: undefined,
};

export interface AnthropicTools {
  tools: BetaToolUnion[];
  betas: string[];
}

export function toAnthropicTools(declarations: readonly ModelToolDeclaration[]): AnthropicTools {
  const tools: BetaToolUnion[] = [];
  const betas = new Set<string>();
  let toolsetDeclared = false;
  for (const declaration of declarations) {
    const native = declaration.native;
    if (native === undefined) {
      tools.push(functionTool(declaration));
    } else if (native.kind === 'anthropic-computer' && native.toolType === 'computer_toolset_20260801') {
      // The members share one entry, declared where the first of them is.
      if (!toolsetDeclared) tools.push(computerToolsetEntry(native.disabledMembers));
      toolsetDeclared = true;
    } else if (native.kind === 'anthropic-computer') {
      tools.push(computerTool(native));
      const beta = COMPUTER_TOOL_BETAS[native.toolType];
      if (beta !== undefined) betas.add(beta);
    } else {
      throw unsendableNativeTool(declaration.name, native, "Anthropic's Messages API");
    }
  }
  return { tools, betas: [...betas] };
}

function functionTool(declaration: ModelToolDeclaration): BetaTool {
  return {
    name: declaration.name,
    description: declaration.description,
    input_schema: { ...declaration.parameters, type: 'object' } as BetaTool['input_schema'],
  };
}

function computerTool(native: AnthropicComputerToolDeclaration): BetaToolUnion {
  const display = { name: 'computer' as const, display_width_px: native.displayWidth, display_height_px: native.displayHeight };
  switch (native.toolType) {
    case 'computer_20241022':
      return { type: 'computer_20241022', ...display };
    case 'computer_20250124':
      return { type: 'computer_20250124', ...display };
    case 'computer_20251124':
      return { type: 'computer_20251124', ...display, ...(native.enableZoom === true ? { enable_zoom: true } : {}) };
    case 'computer_toolset_20260801':
      return computerToolsetEntry(native.disabledMembers);
  }
}
