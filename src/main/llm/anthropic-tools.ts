/**
 * Tool declarations → Anthropic's `tools`, and the beta flags they need
 * (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/computer-use-tool).
 *
 * Function tools go as custom tools with their JSON Schema as `input_schema`. Anthropic's computer tool goes
 * in its own form, named `computer` as the model was trained to call it, with the beta header of its version.
 * OpenAI's computer tool has no form here: it is refused before any network call.
 */
import type { BetaTool, BetaToolUnion } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import type { AnthropicComputerToolDeclaration, ModelToolDeclaration } from './model-adapter.js';
import { unsendableNativeTool } from './model-errors.js';

/** The beta header each version of the computer tool needs. */
export const COMPUTER_TOOL_BETAS: Readonly<Record<AnthropicComputerToolDeclaration['toolType'], string>> = {
  computer_20241022: 'computer-use-2024-10-22',
  computer_20250124: 'computer-use-2025-01-24',
  computer_20251124: 'computer-use-2025-11-24',
};

export interface AnthropicTools {
  tools: BetaToolUnion[];
  betas: string[];
}

export function toAnthropicTools(declarations: readonly ModelToolDeclaration[]): AnthropicTools {
  const tools: BetaToolUnion[] = [];
  const betas = new Set<string>();
  for (const declaration of declarations) {
    const native = declaration.native;
    if (native === undefined) {
      tools.push(functionTool(declaration));
    } else if (native.kind === 'anthropic-computer') {
      tools.push(computerTool(native));
      betas.add(COMPUTER_TOOL_BETAS[native.toolType]);
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
  }
}
