/**
 * Whether the model and Tavily keys are present: never their values, only where they come from, or
 * where they would come from when absent.
 */
import { PROVIDER_ENVIRONMENT_ALIASES } from '../../config/fields.js';
import { providerVariablesNotInEffect } from '../../config/provider-scope.js';
import { describeSource } from '../../config/sources.js';
import { modelProvider } from '../../../shared/providers.js';
import type { DoctorCheckResult, DoctorEnvironment } from './check.js';

export function checkModelKey(environment: DoctorEnvironment): DoctorCheckResult {
  const { model } = environment.config;
  const name = 'model key';
  if (modelProvider(model) === 'anthropic') return checkAnthropicKey(environment);
  if (modelProvider(model) === 'google') return checkGoogleKey(environment);
  const endpoint = endpointOf(environment, 'the OpenAI API');
  const source = environment.sources['model.apiKey'];
  if (model.apiKey !== undefined && source !== undefined) {
    return { name, status: 'ok', detail: `set (from ${describeSource(source)}) for ${model.name} at ${endpoint}${unusedVariablesNote(environment)}` };
  }
  const whereFrom = 'set OPENAI_API_KEY, or model.apiKey in config.json';
  if (model.baseUrl !== undefined) {
    // Local servers (Ollama, LM Studio, vLLM) usually need no key, so this alone is not a problem.
    return { name, status: 'warning', detail: `not set; fine if ${model.baseUrl} needs none`, fix: `if it does, ${whereFrom}` };
  }
  return { name, status: 'problem', detail: `not set: ${model.name} at the OpenAI API needs one`, fix: `${whereFrom} (or point OPENAI_BASE_URL at a local server)` };
}

/** Anthropic always needs its own key, gateways included: the OpenAI key is never sent there. */
function checkAnthropicKey(environment: DoctorEnvironment): DoctorCheckResult {
  const { model } = environment.config;
  const endpoint = endpointOf(environment, 'the Anthropic API');
  const source = environment.sources['model.anthropicApiKey'];
  if (model.anthropicApiKey !== undefined && source !== undefined) {
    return { name: 'model key', status: 'ok', detail: `set (from ${describeSource(source)}) for ${model.name} at ${endpoint}${unusedVariablesNote(environment)}` };
  }
  return {
    name: 'model key',
    status: 'problem',
    detail: `not set: ${model.name} at ${endpoint} needs Anthropic's key${unusedVariablesNote(environment)}`,
    fix: 'set ANTHROPIC_API_KEY, or model.anthropicApiKey in config.json',
  };
}

/** Google's Gemini API needs its own key (GEMINI_API_KEY or GOOGLE_API_KEY), gateways included. */
function checkGoogleKey(environment: DoctorEnvironment): DoctorCheckResult {
  const { model } = environment.config;
  const endpoint = endpointOf(environment, 'the Gemini API');
  const source = environment.sources['model.googleApiKey'];
  if (model.googleApiKey !== undefined && source !== undefined) {
    return { name: 'model key', status: 'ok', detail: `set (from ${describeSource(source)}) for ${model.name} at ${endpoint}${unusedVariablesNote(environment)}` };
  }
  return {
    name: 'model key',
    status: 'problem',
    detail: `not set: ${model.name} at ${endpoint} needs a Gemini API key${unusedVariablesNote(environment)}`,
    fix: 'set GEMINI_API_KEY (or GOOGLE_API_KEY), or model.googleApiKey in config.json',
  };
}

/** The endpoint requests go to, and where a configured one came from (config.json, ANTHROPIC_BASE_URL …). */
function endpointOf(environment: DoctorEnvironment, providerDefault: string): string {
  const { baseUrl } = environment.config.model;
  const source = environment.sources['model.baseUrl'];
  if (baseUrl === undefined) return providerDefault;
  return source === undefined ? baseUrl : `${baseUrl} (from ${describeSource(source)})`;
}

/** Another provider's base URL variable, exported for other tools, is ignored here: said, so nobody wonders. */
function unusedVariablesNote(environment: DoctorEnvironment): string {
  const provider = modelProvider(environment.config.model);
  return providerVariablesNotInEffect(environment.env, provider)
    .map((variable) => `; ${variable} is not used (it counts for the ${PROVIDER_ENVIRONMENT_ALIASES[variable]?.provider ?? 'other'} provider only)`)
    .join('');
}

export function checkTavilyKey(environment: DoctorEnvironment): DoctorCheckResult {
  const source = environment.sources['search.tavilyApiKey'];
  if (environment.config.search.tavilyApiKey !== undefined && source !== undefined) {
    return { name: 'tavily key', status: 'ok', detail: `set (from ${describeSource(source)}); web_search enabled` };
  }
  return {
    name: 'tavily key',
    status: 'warning',
    detail: 'web_search disabled; set TAVILY_API_KEY',
    fix: 'to let the agent search the web, get a key at https://app.tavily.com and set TAVILY_API_KEY, or search.tavilyApiKey in config.json',
  };
}
