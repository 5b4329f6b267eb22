/** Whose API a model is reached through: OpenAI's (and every OpenAI-compatible server's) or Anthropic's. */
export const MODEL_PROVIDERS = ['openai', 'anthropic'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/**
 * `model.provider`, else Anthropic for Claude models by their own name (`claude-…`), else OpenAI-compatible.
 * Here rather than beside the adapters because the configuration loader needs it too: some environment
 * variables count only for the provider in effect (src/main/config/fields.ts).
 */
export function modelProvider(model: { provider?: ModelProvider | undefined; name: string }): ModelProvider {
  return model.provider ?? (model.name.toLowerCase().startsWith('claude') ? 'anthropic' : 'openai');
}

/**
 * Anthropic's computer tool versions, oldest first; each adds actions (the agent's claude-computer-translation.ts).
 * The model profiles say which one each Claude model was trained on; `model.anthropicComputerTool` overrides it.
 */
export const ANTHROPIC_COMPUTER_TOOL_TYPES = ['computer_20241022', 'computer_20250124', 'computer_20251124'] as const;
export type AnthropicComputerToolType = (typeof ANTHROPIC_COMPUTER_TOOL_TYPES)[number];
