/**
 * Builds the model adapter a configuration asks for: an `openai` client pointed at any OpenAI-compatible
 * endpoint, with the client's own retries (429, 5xx, timeouts, with exponential backoff that honours
 * Retry-After) and timeout, wrapped in the adapter for the configured API.
 *
 * The configuration is the only source: environment variables and flags are merged into it upstream
 * (src/main/config). In particular the client is never left to read OPENAI_* variables by itself.
 */
import OpenAI from 'openai';
import type { Config } from '../../shared/config.js';
import { ChatCompletionsAdapter } from './chat-completions-adapter.js';
import type { ModelAdapter } from './model-adapter.js';
import type { AdapterSettings } from './model-call.js';
import { ModelConfigurationError } from './model-errors.js';
import type { ModelProfile, ModelProfileOverrides } from './model-profiles.js';
import { resolveModelProfile } from './model-profiles.js';
import { ResponsesAdapter } from './responses-adapter.js';

export type ModelConfig = Config['model'];

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** Sent to local servers that ignore the key (Ollama, LM Studio) when none is configured. */
const LOCAL_PLACEHOLDER_KEY = 'sightline-local';

export function createModelAdapter(config: ModelConfig, profileOverrides?: ModelProfileOverrides): ModelAdapter {
  const baseUrl = (config.baseUrl ?? OPENAI_BASE_URL).replace(/\/+$/, '');
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
  };
  return config.api === 'responses' ? new ResponsesAdapter(settings) : new ChatCompletionsAdapter(settings);
}

/**
 * The profile of the configured model: the table's, by its name, with `model.dialect` (config.json,
 * SIGHTLINE_MODEL_DIALECT or --dialect) in place of the profile's dialect when set. Resolved here once, so
 * `profile.dialect` is the dialect in effect wherever the profile goes.
 */
export function configuredModelProfile(config: ModelConfig, profileOverrides: ModelProfileOverrides = {}): ModelProfile {
  const dialect = config.dialect === undefined ? {} : { dialect: config.dialect };
  return resolveModelProfile(config.name, { ...profileOverrides, ...dialect });
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
