/** Whose API a model is reached through: OpenAI's (and every OpenAI-compatible server's), Anthropic's or Google's (Gemini API). */
export const MODEL_PROVIDERS = ['openai', 'anthropic', 'google'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/**
 * `model.provider`, else Anthropic for Claude models by their own name (`claude-…`), Google for Gemini models
 * (`gemini-…`), else OpenAI-compatible.
 * Here rather than beside the adapters because the configuration loader needs it too: some environment
 * variables count only for the provider in effect (src/main/config/fields.ts).
 */
export function modelProvider(model: { provider?: ModelProvider | undefined; name: string }): ModelProvider {
  if (model.provider !== undefined) return model.provider;
  const name = model.name.toLowerCase();
  if (name.startsWith('claude')) return 'anthropic';
  if (name.startsWith('gemini')) return 'google';
  return 'openai';
}

/**
 * Anthropic's computer tool versions, oldest first; each adds actions (the agent's claude-computer-translation.ts).
 * The last is the stable toolset (one `tools` entry whose 17 members the model calls by their own names, no beta
 * header); the others are the single `computer` tool of the beta API. The model profiles say which one each Claude
 * model takes; `model.anthropicComputerTool` overrides it.
 */
export const ANTHROPIC_COMPUTER_TOOL_TYPES = ['computer_20241022', 'computer_20250124', 'computer_20251124', 'computer_toolset_20260801'] as const;
export type AnthropicComputerToolType = (typeof ANTHROPIC_COMPUTER_TOOL_TYPES)[number];

/** The toolset version of Anthropic's computer tool. */
export const ANTHROPIC_COMPUTER_TOOLSET = 'computer_toolset_20260801' satisfies AnthropicComputerToolType;
