/** How a tool is shown to the model: its name, description and a JSON schema of its arguments. */
import { z } from 'zod';
import type { ModelToolDeclaration } from '../../llm/model-adapter.js';
import type { ToolDefinition } from './tool-definition.js';

/** The JSON schema the model is shown (the tool's own, or one derived from its zod schema). */
export function toolParametersSchema(tool: ToolDefinition): Record<string, unknown> {
  if (tool.parametersJsonSchema !== undefined) return tool.parametersJsonSchema;
  // Derived as the input side: defaulted fields are optional for the model.
  const { $schema: _schema, ...schema } = z.toJSONSchema(tool.arguments, { io: 'input', unrepresentable: 'any' });
  return schema;
}

/** The JSON schema published to clients that validate against it: the exact one when the tool has it. */
export function publishedParametersSchema(tool: ToolDefinition): Record<string, unknown> {
  return tool.publishedJsonSchema ?? toolParametersSchema(tool);
}

export function toModelTool(tool: ToolDefinition): ModelToolDeclaration {
  const declaration: ModelToolDeclaration = { name: tool.name, description: tool.description, parameters: toolParametersSchema(tool) };
  if (tool.nativeDeclaration !== undefined) declaration.native = tool.nativeDeclaration;
  return declaration;
}
