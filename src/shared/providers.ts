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
