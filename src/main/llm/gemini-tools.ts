/**
 * Tool declarations → the Gemini API's `tools` (https://ai.google.dev/gemini-api/docs/function-calling,
 * https://ai.google.dev/gemini-api/docs/computer-use).
 *
 * Function tools go as `functionDeclarations` with their JSON Schema as `parametersJsonSchema`, so every tool of
 * the registry (Sightline's own, web_search, MCP servers' tools, whatever a run adds) is declared the same way.
 * Gemini's computer_use tool is one `computerUse` entry: the registry holds one tool per predefined function
 * Sightline answers, all carrying the same declaration. Other providers' native tools have no form here.
 */
import type { ComputerUse, Tool } from '@google/genai';
import { Environment } from '@google/genai';
import type { GeminiComputerToolDeclaration, ModelToolDeclaration } from './model-adapter.js';
import { unsendableNativeTool } from './model-errors.js';

export function toGeminiTools(declarations: readonly ModelToolDeclaration[]): Tool[] {
  let computer: GeminiComputerToolDeclaration | undefined;
  const functions: NonNullable<Tool['functionDeclarations']> = [];
  for (const declaration of declarations) {
    const native = declaration.native;
    if (native === undefined) {
      functions.push({ name: declaration.name, description: declaration.description, parametersJsonSchema: { ...declaration.parameters, type: 'object' } });
    } else if (native.kind === 'gemini-computer') {
      computer ??= native;
    } else {
      throw unsendableNativeTool(declaration.name, native, 'the Gemini API');
    }
  }
  const tools: Tool[] = [];
  if (computer !== undefined) {
    // Checked against the installed SDK's own types, so a renamed environment or field fails the build.
    const computerUse = {
      environment: computer.environment === 'ENVIRONMENT_DESKTOP' ? Environment.ENVIRONMENT_DESKTOP : Environment.ENVIRONMENT_BROWSER,
      ...(computer.excludedPredefinedFunctions.length === 0 ? {} : { excludedPredefinedFunctions: [...computer.excludedPredefinedFunctions] }),
    } satisfies ComputerUse;
    tools.push({ computerUse } satisfies Tool);
  }
  if (functions.length > 0) tools.push({ functionDeclarations: functions });
  return tools;
}
