/**
 * The one schema for Sightline's configuration. The same shape is read from `config.json` in the home
 * folder, then overridden by environment variables, then by CLI flags (src/main/config loads and merges).
 * Every field has a default, so an empty `config.json` (or none) is a valid configuration.
 *
 * Secrets (API keys) are part of the config so that they can come from any of the three sources, but
 * they are never logged, emitted as events or sent to the renderer: use `redactConfig` before showing one.
 */
import { z } from 'zod';
import { CONTEXT_POLICY_FORMS, DEFAULT_CONTEXT_POLICY_TEXT, parseContextPolicy } from './context-policy.js';
import { DIALECT_NAMES } from './dialects.js';
import { COST_CEILING_FORMS, parseCostCeiling } from './cost-ceiling.js';
import { ModelPricingSchema } from './pricing.js';
import { ANTHROPIC_COMPUTER_TOOL_TYPES, MODEL_PROVIDERS, type ModelProvider } from './providers.js';
import { stopShortcutError } from './stop-shortcut.js';
import { urlPatternError } from './url-patterns.js';

export const DEDUP_ALGORITHMS = ['phash', 'dhash', 'ahash'] as const;
export type DedupAlgorithm = (typeof DEDUP_ALGORITHMS)[number];

export const CONFIRMATION_POLICIES = ['never', 'risky', 'always'] as const;
export type ConfirmationPolicy = (typeof CONFIRMATION_POLICIES)[number];

export { MODEL_PROVIDERS, type ModelProvider };

/** OpenAI's two model APIs (`model.api`). */
export const MODEL_APIS = ['chat-completions', 'responses'] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

export const OPERATOR_KINDS = ['desktop', 'browser'] as const;
export type OperatorKind = (typeof OPERATOR_KINDS)[number];

const ModelConfigSchema = z
  .object({
    /** Model name as the endpoint knows it. */
    name: z.string().min(1).default('gpt-4.1'),
    /**
     * Whose API the model is reached through: `openai` (any OpenAI-compatible endpoint), `anthropic` (Anthropic's
     * Messages API) or `google` (the Gemini API, through @google/genai). When absent, `anthropic` for a model name
     * starting with `claude`, `google` for one starting with `gemini`, else `openai`.
     */
    provider: z.enum(MODEL_PROVIDERS).optional(),
    /** Any OpenAI-compatible endpoint (OpenAI, OpenRouter, Ollama, vLLM, LM Studio), or an Anthropic gateway. */
    baseUrl: z.url().optional(),
    /** The key for OpenAI-compatible endpoints (OPENAI_API_KEY). */
    apiKey: z.string().min(1).optional(),
    /**
     * The key for Anthropic (ANTHROPIC_API_KEY). A field of its own, so an OpenAI key in the environment is never
     * sent to Anthropic, nor the other way round.
     */
    anthropicApiKey: z.string().min(1).optional(),
    /**
     * The key for Google's Gemini API (GEMINI_API_KEY or GOOGLE_API_KEY; GOOGLE_API_KEY wins when both are set, as
     * in Google's own SDK). A field of its own: it is sent to the google provider only.
     */
    googleApiKey: z.string().min(1).optional(),
    /**
     * Which of OpenAI's two APIs requests go to. When absent, the one the model profile's dialect needs (the
     * Responses API for OpenAI's computer tool, which gpt-5.4 and later take), else Chat Completions
     * (modelApi in src/main/llm/create-model-adapter.ts).
     */
    api: z.enum(MODEL_APIS).optional(),
    /** How the model is asked to act (src/shared/dialects.ts); the model profile's, by its name, when absent. */
    dialect: z.enum(DIALECT_NAMES).optional(),
    /**
     * The version of Anthropic's computer tool the anthropic-computer dialect declares: the model profile's (the
     * one the Claude model was trained on) when absent. For a model newer than Sightline's table, or a gateway
     * that serves an older tool.
     */
    anthropicComputerTool: z.enum(ANTHROPIC_COMPUTER_TOOL_TYPES).optional(),
    /**
     * How much effort a Claude model puts into its answers, thinking included: sent as Anthropic's
     * `output_config.effort` (https://platform.claude.com/docs/en/build-with-claude/effort); the model's default
     * when absent. Anthropic's API only.
     */
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
    /**
     * The model's price table (src/shared/pricing.ts), in place of the one Sightline knows by the model's name:
     * for a model it does not know, or a price that changed. Given whole, in config.json only: it replaces the
     * profile's table rather than merging into it, so what is in effect is exactly what is written.
     */
    pricing: ModelPricingSchema.optional(),
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

const SettleConfigSchema = z
  .object({
    /**
     * After an action the screen is watched until two consecutive frames are the same by the dedup rule, for
     * at most this long; a screen still changing then (a video, a spinner) is taken as it is and marked so.
     * 0 takes the screenshot at once.
     */
    maxMs: z.number().int().min(0).max(60_000).default(3000),
  })
  .strict();

const PerceptionConfigSchema = z
  .object({
    /** Display to capture, by the id node-screenshots reports; the primary display when absent. */
    displayId: z.number().int().optional(),
    /** Longest edge of the image sent to the model; the lossless original stays in the blob store. */
    maxImageEdge: z.number().int().min(256).max(8192).default(1280),
    dedup: DedupConfigSchema.default(DedupConfigSchema.parse({})),
    settle: SettleConfigSchema.default(SettleConfigSchema.parse({})),
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
    /**
     * How history is rendered (src/shared/context-policy.ts): `sightline` (zones, placeholders, compaction),
     * `keep-last:N` (the N most recent images only) or `keep-all` (every image whole), so people can compare.
     */
    policy: z
      .string()
      .refine((text) => parseContextPolicy(text) !== undefined, { error: CONTEXT_POLICY_FORMS })
      .default(DEFAULT_CONTEXT_POLICY_TEXT),
    /** Earlier turns, most recent first, whose anchor frames (first, last, error) are still sent whole. */
    anchorTurns: z.number().int().min(0).max(100).default(1),
    /** A request's token limit; the model's context window minus `outputReserveTokens` when absent. */
    tokenBudget: z.number().int().min(1000).optional(),
    /** Tokens kept free for the model's reply when the budget comes from the context window. */
    outputReserveTokens: z.number().int().min(0).max(1_000_000).default(4096),
  })
  .strict();

const UrlPatternTextSchema = z.string().check((context) => {
  const error = urlPatternError(context.value);
  if (error !== undefined) context.issues.push({ code: 'custom', message: error, input: context.value });
});

const AgentConfigSchema = z
  .object({
    operator: z.enum(OPERATOR_KINDS).default('desktop'),
    maxSteps: z.number().int().min(1).max(10_000).default(50),
    /**
     * The most one turn may spend on model calls (src/shared/cost-ceiling.ts): dollars, or tokens with the word
     * `tokens`. The turn ends as failed before a call that would go over it. No ceiling when absent.
     */
    maxCost: z
      .union([z.number(), z.string()])
      .refine((value) => parseCostCeiling(value) !== undefined, { error: COST_CEILING_FORMS })
      .optional(),
    confirm: z.enum(CONFIRMATION_POLICIES).default('risky'),
    /**
     * The browser operator's scope (src/shared/url-patterns.ts): when given, a page may only be opened at a
     * URL that one of these patterns matches. Absent means any http(s) URL.
     */
    allowedUrls: z.array(UrlPatternTextSchema).optional(),
    /** URLs the browser operator never opens, even when allowedUrls matches them. */
    blockedUrls: z.array(UrlPatternTextSchema).optional(),
    /** Whether the browser operator may open file: URLs (a start page on disk): off unless asked for. */
    allowFileUrls: z.boolean().default(false),
    /**
     * The emergency stop's global shortcut (src/shared/stop-shortcut.ts), as an Electron accelerator: it stops
     * every running turn. Ctrl+Alt+Esc on Windows and Linux, Cmd+Shift+Esc on macOS when absent.
     */
    stopShortcut: z
      .string()
      .check((context) => {
        const error = stopShortcutError(context.value);
        if (error !== undefined) context.issues.push({ code: 'custom', message: error, input: context.value });
      })
      .optional(),
  })
  .strict();

const SearchConfigSchema = z
  .object({
    tavilyApiKey: z.string().min(1).optional(),
    maxIterations: z.number().int().min(1).max(20).default(5),
    confidenceThreshold: z.number().min(0).max(1).default(0.8),
  })
  .strict();

/** An environment variable's name, as a worker's allow lists give it. */
const VariableNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name: letters, digits and _, not starting with a digit');

/**
 * What `sightline worker` lets a queued job do (docs/teams.md, "What a job may ask of a worker"). Whoever can write
 * to the queue's Redis can enqueue: a job is a request, and the worker's owner decides here what it may read and
 * loosen. Empty lists and `false` by default: a job reads no variable and types no secret of the worker's unless
 * named, and may only tighten the worker's own agent settings.
 */
const WorkerConfigSchema = z
  .object({
    /** The environment variables a job may read through `${env.NAME}`. */
    allowEnv: z.array(VariableNameSchema).default([]),
    /** The secrets (environment variables, by name) a job may declare under `secrets:` and have typed. */
    allowSecrets: z.array(VariableNameSchema).default([]),
    /** Whether a job may loosen the worker's settings: --yes, --allow-file-urls, a looser --confirm, more --max-steps. */
    allowLoosening: z.boolean().default(false),
  })
  .strict();

/**
 * MCP servers are named in config.json; the name prefixes their tools (`<server>__<tool>`). Letters,
 * digits and "-" only (no "_"), so the first "_" of a namespaced tool name is where its server's name
 * ends: two servers' tools can never share a name.
 */
export const MCP_SERVER_NAME_PATTERN = /^[A-Za-z0-9-]{1,24}$/;

/**
 * Which calls of a server's tools need a person's approval, when not the run's agent.confirm: `never`
 * loosens it for a server you trust, `always` tightens it. A run under `always` asks for every call anyway
 * (src/main/agent/tool-confirmation.ts).
 */
const McpServerConfirmationSchema = z.enum(CONFIRMATION_POLICIES).optional();

const McpStdioServerSchema = z
  .object({
    /** The program to start; it speaks MCP on its stdin and stdout. */
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    /** Added to a minimal inherited environment (PATH, HOME …); values may be secrets. */
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    confirm: McpServerConfirmationSchema,
  })
  .strict();

const McpHttpServerSchema = z
  .object({
    /** A streamable HTTP endpoint, e.g. https://example.com/mcp. */
    url: z.url(),
    /** Sent with every request (an Authorization header, say); values may be secrets. */
    headers: z.record(z.string(), z.string()).optional(),
    confirm: McpServerConfirmationSchema,
  })
  .strict();

export const McpServerConfigSchema = z.union([McpStdioServerSchema, McpHttpServerSchema], {
  error: 'a server with either "command" (and optional args, env, cwd, confirm) or "url" (and optional headers, confirm)',
});
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
export type McpStdioServerConfig = z.infer<typeof McpStdioServerSchema>;

const McpConfigSchema = z
  .object({
    /** Only in config.json: a record of objects has no environment variable. */
    servers: z
      .record(
        z.string().regex(MCP_SERVER_NAME_PATTERN, 'a server name of 1–24 letters, digits or "-"'),
        McpServerConfigSchema,
      )
      .default({}),
    /** How long one call of an MCP server's tool may take before the model is told it timed out. */
    callTimeoutMs: z.number().int().min(100).max(3_600_000).default(60_000),
    /** How long a server may take to start and list its tools before it is reported and left out. */
    startTimeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  })
  .strict();
export type McpConfig = z.infer<typeof McpConfigSchema>;

export const ConfigSchema = z
  .object({
    model: ModelConfigSchema.default(ModelConfigSchema.parse({})),
    perception: PerceptionConfigSchema.default(PerceptionConfigSchema.parse({})),
    storage: StorageConfigSchema.default(StorageConfigSchema.parse({})),
    context: ContextConfigSchema.default(ContextConfigSchema.parse({})),
    agent: AgentConfigSchema.default(AgentConfigSchema.parse({})),
    search: SearchConfigSchema.default(SearchConfigSchema.parse({})),
    mcp: McpConfigSchema.default(McpConfigSchema.parse({})),
    worker: WorkerConfigSchema.default(WorkerConfigSchema.parse({})),
  })
  .strict();

export type Config = z.infer<typeof ConfigSchema>;
/** What a person may write: every field optional, nested sections partial. */
export type ConfigInput = z.input<typeof ConfigSchema>;

export const DEFAULT_CONFIG: Config = ConfigSchema.parse({});

/** Fields whose values are never printed, logged, put in an error message or sent to the renderer. */
export const SECRET_FIELD_PATHS = ['model.apiKey', 'model.anthropicApiKey', 'model.googleApiKey', 'search.tavilyApiKey'] as const;
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
  for (const server of Object.values(copy.mcp.servers)) {
    const values = 'command' in server ? server.env : server.headers;
    for (const name of Object.keys(values ?? {})) values![name] = REDACTED_SECRET;
    if (!('command' in server)) server.url = urlSecrets(server.url).reduce((url, secret) => url.split(secret).join(REDACTED_SECRET), server.url);
  }
  return copy;
}

/**
 * What output must never show of the MCP servers' settings: every header value (an Authorization header
 * is masked whole), the credentials a server's URL carries (a password, a `?token=`) and the values of
 * environment variables whose names say they are secret.
 */
export function mcpSecretValues(config: Config): string[] {
  return Object.values(config.mcp.servers).flatMap((server) => {
    if (!('command' in server)) return [...Object.values(server.headers ?? {}), ...urlSecrets(server.url)];
    return Object.entries(server.env ?? {})
      .filter(([name]) => SECRET_VARIABLE_NAME.test(name))
      .map(([, value]) => value);
  }).filter((value) => value !== '');
}

/** A variable whose name says it holds a credential: its value is masked (MCP servers' env, a queue worker's environment). */
export const SECRET_VARIABLE_NAME = /key|token|secret|password|passwd|auth|credential/i;

/** A URL's password, and the values of its query parameters whose names say they are secret. */
function urlSecrets(text: string): string[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const found = [...url.searchParams].filter(([name]) => SECRET_VARIABLE_NAME.test(name)).map(([, value]) => value);
  // Both spellings: the config's text may percent-encode what the parsed URL decodes.
  const password = url.password === '' ? [] : [url.password, safeDecode(url.password)];
  return [...new Set([...found, ...found.map((value) => encodeURIComponent(value)), ...password])].filter((value) => value !== '');
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
