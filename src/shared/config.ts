/**
 * The one schema for Sightline's configuration. The same shape is read from `config.json` in the home
 * folder, then overridden by environment variables, then by CLI flags (src/main/config loads and merges).
 * Every field has a default, so an empty `config.json` (or none) is a valid configuration.
 *
 * Secrets (API keys) are part of the config so that they can come from any of the three sources, but
 * they are never logged, emitted as events or sent to the renderer: use `redactConfig` before showing one.
 */
import { z } from 'zod';

export const DEDUP_ALGORITHMS = ['phash', 'dhash', 'ahash'] as const;
export type DedupAlgorithm = (typeof DEDUP_ALGORITHMS)[number];

export const CONFIRMATION_POLICIES = ['never', 'risky', 'always'] as const;
export type ConfirmationPolicy = (typeof CONFIRMATION_POLICIES)[number];

export const OPERATOR_KINDS = ['desktop', 'browser'] as const;
export type OperatorKind = (typeof OPERATOR_KINDS)[number];

const ModelConfigSchema = z
  .object({
    /** Model name as the endpoint knows it. */
    name: z.string().min(1).default('gpt-4.1'),
    /** Any OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio). */
    baseUrl: z.url().optional(),
    apiKey: z.string().min(1).optional(),
    api: z.enum(['chat-completions', 'responses']).default('chat-completions'),
    /** Retries on 429, 5xx and timeouts, with exponential backoff. */
    maxRetries: z.number().int().min(0).max(10).default(3),
    timeoutMs: z.number().int().positive().default(120_000),
  })
  .strict();

const DedupConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Largest Hamming distance between global hashes that can still count as "unchanged". */
    threshold: z.number().int().min(0).max(64).default(10),
    algorithm: z.enum(DEDUP_ALGORITHMS).default('phash'),
  })
  .strict();

const PerceptionConfigSchema = z
  .object({
    /** Display to capture, by the id node-screenshots reports; the primary display when absent. */
    displayId: z.number().int().optional(),
    /** Longest edge of the image sent to the model; the lossless original stays in the blob store. */
    maxImageEdge: z.number().int().min(256).max(8192).default(1280),
    dedup: DedupConfigSchema.default(DedupConfigSchema.parse({})),
  })
  .strict();

const StorageConfigSchema = z
  .object({
    /** Cold files older than this many days are deleted by the retention sweep; rows are kept and marked. */
    retentionDays: z.number().int().min(1).default(30),
  })
  .strict();

const ContextConfigSchema = z
  .object({
    /** Earlier turns, most recent first, whose anchor frames (first, last, error) are still sent whole. */
    anchorTurns: z.number().int().min(0).max(100).default(1),
    /** A request's token limit; the model's context window minus `outputReserveTokens` when absent. */
    tokenBudget: z.number().int().min(1000).optional(),
    /** Tokens kept free for the model's reply when the budget comes from the context window. */
    outputReserveTokens: z.number().int().min(0).max(1_000_000).default(4096),
  })
  .strict();

const AgentConfigSchema = z
  .object({
    operator: z.enum(OPERATOR_KINDS).default('desktop'),
    maxSteps: z.number().int().min(1).max(10_000).default(50),
    confirm: z.enum(CONFIRMATION_POLICIES).default('risky'),
  })
  .strict();

const SearchConfigSchema = z
  .object({
    tavilyApiKey: z.string().min(1).optional(),
    maxIterations: z.number().int().min(1).max(20).default(5),
    confidenceThreshold: z.number().min(0).max(1).default(0.8),
  })
  .strict();

export const ConfigSchema = z
  .object({
    model: ModelConfigSchema.default(ModelConfigSchema.parse({})),
    perception: PerceptionConfigSchema.default(PerceptionConfigSchema.parse({})),
    storage: StorageConfigSchema.default(StorageConfigSchema.parse({})),
    context: ContextConfigSchema.default(ContextConfigSchema.parse({})),
    agent: AgentConfigSchema.default(AgentConfigSchema.parse({})),
    search: SearchConfigSchema.default(SearchConfigSchema.parse({})),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
/** What a person may write: every field optional, nested sections partial. */
export type ConfigInput = z.input<typeof ConfigSchema>;

export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});

/** Fields whose values are never printed, logged, put in an error message or sent to the renderer. */
export const SECRET_FIELD_PATHS = ['model.apiKey', 'search.tavilyApiKey'] as const;
export type SecretFieldPath = (typeof SECRET_FIELD_PATHS)[number];

/** What a redacted secret shows instead of its value. */
export const REDACTED_SECRET = '(set)';

/** A copy of the config that is safe to print, log or send to the renderer: secrets become "(set)". */
export function redactConfig(config: Config): Config {
  const copy = structuredClone(config);
  for (const path of SECRET_FIELD_PATHS) {
    const [section, key] = path.split('.') as [keyof Config, string];
    const holder = copy[section] as Record<string, unknown>;
    if (holder[key] !== undefined) holder[key] = REDACTED_SECRET;
  }
  return copy;
}
