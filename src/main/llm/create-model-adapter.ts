/**
 * Builds the model adapter a configuration asks for: an `openai` client pointed at any OpenAI-compatible
 * endpoint, or an `@anthropic-ai/sdk` client for Anthropic's Messages API, with the client's own retries
 * (429, 529 and other 5xx, timeouts, with exponential backoff that honours Retry-After) and timeout, wrapped
 * in the adapter for the configured API.
 *
 * The configuration is the only source: environment variables and flags are merged into it upstream
 * (src/main/config). In particular the clients are never left to read OPENAI_* or ANTHROPIC_* variables by themselves.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { Config, ModelApi, ModelProvider } from '../../shared/config.js';
import { DIALECT_FACTS, type DialectName } from '../../shared/dialects.js';
import { modelProvider } from '../../shared/providers.js';
import { AnthropicMessagesAdapter } from './anthropic-messages-adapter.js';
import { ChatCompletionsAdapter } from './chat-completions-adapter.js';
import { GeminiAdapter } from './gemini-adapter.js';
import { patientFetch } from './gemini-fetch.js';
import type { ComputerToolMemory } from './computer-tool-memory.js';
import type { ModelAdapter } from './model-adapter.js';
import type { AdapterSettings } from './model-call.js';
import { ModelConfigurationError } from './model-errors.js';
import type { ModelProfile, ModelProfileOverrides } from './model-profiles.js';
import { isBedrock, resolveModelProfile, TOOLSET_ELSEWHERE } from './model-profiles.js';
import { ResponsesAdapter } from './responses-adapter.js';

export type ModelConfig = Config['model'];

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
/** Without `/v1`: Anthropic's client adds it to every path. */
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
/** Without the version: Google's client adds `/v1beta` (GEMINI_API_VERSION) to every path. */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';
/** The Gemini API version whose shapes the adapter speaks (computer_use is a v1beta tool). */
export const GEMINI_API_VERSION = 'v1beta';

/** Sent to local servers that ignore the key (Ollama, LM Studio) when none is configured. */
const LOCAL_PLACEHOLDER_KEY = 'sightline-local';

/** What a run's adapter keeps beyond the configuration: the home's memory of computer tools a model refused. */
export interface ModelAdapterSurroundings {
  computerToolMemory?: ComputerToolMemory | undefined;
}

export function createModelAdapter(config: ModelConfig, profileOverrides?: ModelProfileOverrides, surroundings: ModelAdapterSurroundings = {}): ModelAdapter {
  if (modelProvider(config) === 'anthropic') return createAnthropicAdapter(config, profileOverrides, surroundings);
  if (modelProvider(config) === 'google') return createGeminiAdapter(config, profileOverrides);
  const baseUrl = modelBaseUrl(config);
  refuseRetiredModel(config.name, baseUrl);
  const apiKey = config.apiKey ?? (isLocalEndpoint(baseUrl) ? LOCAL_PLACEHOLDER_KEY : undefined);
  if (apiKey === undefined) {
    throw new ModelConfigurationError(
      `No API key for the model endpoint ${baseUrl}. Set the OPENAI_API_KEY environment variable, ` +
        `or model.apiKey in config.json. (Local endpoints such as Ollama or LM Studio need none.)`,
    );
  }
  const client = new OpenAI({
    apiKey,
    baseURL: baseUrl,
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
    // Explicit, so that stray OPENAI_ORG_ID / OPENAI_PROJECT_ID variables do not change our requests.
    organization: null,
    project: null,
  });
  const settings: AdapterSettings = {
    client,
    profile: configuredModelProfile(config, profileOverrides),
    baseUrl,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    secrets: config.apiKey === undefined ? [] : [config.apiKey],
    versionInBaseUrl: true,
  };
  return modelApi(config, profileOverrides) === 'responses' ? new ResponsesAdapter(settings) : new ChatCompletionsAdapter(settings);
}

/**
 * Which of OpenAI's APIs requests go to: `model.api` when set; otherwise the one the dialect in effect needs
 * (openai-computer: the Responses API, which gpt-5.4 and later get by their profile), else Chat Completions.
 * Only an API a person set can disagree with the dialect, and the compatibility check then says what to change.
 */
export function modelApi(config: Pick<ModelConfig, 'name' | 'provider' | 'dialect' | 'api'>, profileOverrides: Pick<ModelProfileOverrides, 'dialect'> = {}): ModelApi {
  if (config.api !== undefined) return config.api;
  return DIALECT_FACTS[configuredDialect(config, profileOverrides).dialect].requiredApi ?? 'chat-completions';
}

/** computer-use-preview's retirement, as OpenAI's deprecations page gives it (developers.openai.com/api/docs/deprecations). */
export const RETIRED_OPENAI_MODELS: ReadonlyArray<{ pattern: RegExp; name: string; shutDown: string; substitute: string }> = [
  { pattern: /^computer-use-preview(-\d{4}-\d{2}-\d{2})?$/, name: 'computer-use-preview', shutDown: '2026-07-23', substitute: 'gpt-5.4-mini' },
];

/**
 * A model OpenAI has shut down is refused before any request, saying when and what to use instead: the API
 * would only answer that the model does not exist. Only on OpenAI's own API: a deployment elsewhere (Azure
 * OpenAI, a gateway) may still serve it, so a base URL on another host is let through.
 */
function refuseRetiredModel(model: string, baseUrl: string): void {
  const name = model.trim().toLowerCase().slice(model.trim().lastIndexOf('/') + 1);
  const retired = RETIRED_OPENAI_MODELS.find((candidate) => candidate.pattern.test(name));
  if (retired === undefined || !isOpenAiOwnApi(baseUrl)) return;
  throw new ModelConfigurationError(
    `The model "${retired.name}" was shut down by OpenAI on ${retired.shutDown}, so OpenAI's API no longer serves it. ` +
      `Use ${retired.substitute} instead (--model ${retired.substitute}, SIGHTLINE_MODEL or model.name in config.json), ` +
      `or set model.baseUrl to a deployment that still serves it (an Azure OpenAI resource, for one).`,
  );
}

function isOpenAiOwnApi(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.toLowerCase() === new URL(OPENAI_BASE_URL).hostname;
  } catch {
    return false;
  }
}

/**
 * Where the provider in effect sends requests: model.baseUrl (which the loader fills from OPENAI_BASE_URL or
 * ANTHROPIC_BASE_URL only for their own provider), else the provider's own API.
 */
export function modelBaseUrl(config: Pick<ModelConfig, 'provider' | 'name' | 'baseUrl'>): string {
  const provider = modelProvider(config);
  const defaultUrl = provider === 'anthropic' ? ANTHROPIC_BASE_URL : provider === 'google' ? GEMINI_BASE_URL : OPENAI_BASE_URL;
  return (config.baseUrl ?? defaultUrl).replace(/\/+$/, '');
}

/**
 * Anthropic always needs its key, local gateways included: an OpenAI key is never sent in its place (it is a
 * field of its own, model.anthropicApiKey, read from ANTHROPIC_API_KEY).
 */
function createAnthropicAdapter(config: ModelConfig, profileOverrides: ModelProfileOverrides | undefined, surroundings: ModelAdapterSurroundings): ModelAdapter {
  const baseUrl = modelBaseUrl(config);
  const apiKey = config.anthropicApiKey;
  if (apiKey === undefined) {
    throw new ModelConfigurationError(
      `No Anthropic API key for the model "${config.name}". Set the ANTHROPIC_API_KEY environment variable, ` +
        `or model.anthropicApiKey in config.json.`,
    );
  }
  const client = new Anthropic({
    apiKey,
    // Explicit, so that a stray ANTHROPIC_AUTH_TOKEN does not change our requests; ANTHROPIC_BASE_URL reaches
    // model.baseUrl through the configuration loader, for the anthropic provider only.
    authToken: null,
    baseURL: baseUrl,
    // The key goes as Anthropic's documented `x-api-key` header (https://docs.anthropic.com/en/api/overview), the
    // one every Anthropic gateway reads, and as nothing else: this client version would send it as a bearer token.
    defaultHeaders: { 'x-api-key': apiKey, Authorization: null },
    // ANTHROPIC_LOG=debug would make the client print requests to the console; Sightline reports its own errors.
    logLevel: 'off',
    timeout: config.timeoutMs,
    maxRetries: config.maxRetries,
  });
  // A tool the model refused before is not offered again, unless model.anthropicComputerTool asks for it.
  const chosen = config.anthropicComputerTool !== undefined;
  const memory = chosen ? undefined : surroundings.computerToolMemory;
  const remembered = memory?.recall(config.name);
  const overrides = remembered === undefined ? profileOverrides : { ...profileOverrides, anthropicComputerTool: remembered.toolType };
  return new AnthropicMessagesAdapter({
    client,
    profile: configuredModelProfile(config, overrides),
    computerToolMemory: memory,
    baseUrl,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    secrets: [apiKey],
    keySetting: 'ANTHROPIC_API_KEY or model.anthropicApiKey in config.json',
    effort: config.effort,
  });
}

/**
 * Google's Gemini API through @google/genai. The key is model.googleApiKey only (GEMINI_API_KEY or GOOGLE_API_KEY),
 * sent as Google's `x-goog-api-key` header; every other setting the client could read from the environment
 * (GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GEMINI_BASE_URL, GOOGLE_GENAI_API_VERSION) is given explicitly, so the
 * configuration stays the only source.
 */
function createGeminiAdapter(config: ModelConfig, profileOverrides: ModelProfileOverrides | undefined): ModelAdapter {
  const baseUrl = modelBaseUrl(config);
  const apiKey = config.googleApiKey;
  if (apiKey === undefined) {
    throw new ModelConfigurationError(
      `No Gemini API key for the model "${config.name}". Set the GEMINI_API_KEY (or GOOGLE_API_KEY) environment variable, ` +
        `or model.googleApiKey in config.json.`,
    );
  }
  const client = new GoogleGenAI({
    apiKey,
    vertexai: false,
    apiVersion: GEMINI_API_VERSION,
    httpOptions: {
      baseUrl,
      apiVersion: GEMINI_API_VERSION,
      // Anthropic's and OpenAI's clients back off from half a second up to 8 seconds; Google's from 1 s up to 60 s.
      retryOptions: { attempts: config.maxRetries + 1, initialDelay: 0.5, maxDelay: 8, httpStatusCodes: [408, 429, 500, 502, 503, 504] },
      fetch: patientFetch(config.timeoutMs),
    },
  });
  return new GeminiAdapter({
    client,
    profile: configuredModelProfile(config, profileOverrides),
    baseUrl,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    secrets: [apiKey],
    keySetting: 'GEMINI_API_KEY (or GOOGLE_API_KEY) or model.googleApiKey in config.json',
  });
}

/**
 * The profile of the configured model: the table's, by its name, with the dialect in effect in place of the
 * profile's (see configuredDialect), `model.anthropicComputerTool` in place of its computer tool version and
 * `model.pricing` in place of its price table (whole: a configured table replaces the known one).
 * Resolved here once, so the profile says what is in effect wherever it goes.
 */
export function configuredModelProfile(config: ModelConfig, profileOverrides: ModelProfileOverrides = {}): ModelProfile {
  const computerTool =
    config.anthropicComputerTool !== undefined
      ? { anthropicComputerTool: config.anthropicComputerTool }
      : toolsetElsewhere(config)
        ? { anthropicComputerTool: TOOLSET_ELSEWHERE }
        : {};
  const pricing = config.pricing === undefined ? {} : { pricing: config.pricing };
  const profile = resolveModelProfile(config.name, { ...profileOverrides, ...computerTool, ...pricing });
  return { ...profile, dialect: configuredDialect(config, profileOverrides).dialect };
}

/** A Bedrock endpoint serves the beta tools only: a model whose profile says toolset is offered the newest of them there. */
function toolsetElsewhere(config: ModelConfig): boolean {
  if (resolveModelProfile(config.name).anthropicComputerTool !== 'computer_toolset_20260801') return false;
  return isBedrock(config.name, config.baseUrl);
}

/** The dialect every provider carries: what a model speaks where its own dialect's provider is not the one configured. */
export const PROVIDER_NEUTRAL_DIALECT: DialectName = 'function-tools';

/**
 * Which dialect a configured model speaks, and what chose it:
 * - `chosen`: `model.dialect` (config.json, SIGHTLINE_MODEL_DIALECT or --dialect), or a profile override, as
 *   given: a choice that cannot work is refused by the compatibility check, never silently replaced;
 * - `profile`: the model profile's, the dialect the model was trained on (Claude: anthropic-computer);
 * - `provider`: function-tools, because the profile's dialect needs another provider than the configured one
 *   (a Claude model behind an OpenAI-compatible gateway cannot get Anthropic's computer tool, but reads
 *   function tools well).
 */
export type DialectChoice =
  | { dialect: DialectName; by: 'chosen' | 'profile' }
  | { dialect: DialectName; by: 'provider'; profileDialect: DialectName; provider: ModelProvider };

export function configuredDialect(
  config: Pick<ModelConfig, 'name' | 'provider' | 'dialect'>,
  profileOverrides: Pick<ModelProfileOverrides, 'dialect'> = {},
): DialectChoice {
  const chosen = config.dialect ?? profileOverrides.dialect;
  if (chosen !== undefined) return { dialect: chosen, by: 'chosen' };
  const profileDialect = resolveModelProfile(config.name).dialect;
  const provider = modelProvider(config);
  const required = DIALECT_FACTS[profileDialect].requiredProvider;
  if (required === undefined || required === provider) return { dialect: profileDialect, by: 'profile' };
  return { dialect: PROVIDER_NEUTRAL_DIALECT, by: 'provider', profileDialect, provider };
}

/** Loopback, private-network and `.local` hosts: where Ollama, LM Studio and home vLLM servers live. */
export function isLocalEndpoint(baseUrl: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(baseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    throw new ModelConfigurationError(`The model base URL "${baseUrl}" is not a valid URL.`);
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname.endsWith('.local')) return true;
  if (hostname === '::1' || hostname === '0.0.0.0' || hostname === 'host.docker.internal') return true;
  const octets = hostname.split('.').map(Number);
  if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet))) return false;
  const [first, second] = octets as [number, number, number, number];
  return (
    first === 127 || first === 10 || (first === 192 && second === 168) || (first === 172 && second >= 16 && second <= 31)
  );
}
