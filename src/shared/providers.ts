/** Whose API a model is reached through: OpenAI's (and every OpenAI-compatible server's) or Anthropic's. */
export const MODEL_PROVIDERS = ['openai', 'anthropic'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];
