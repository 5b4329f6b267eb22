/**
 * A provider's own environment variables (OPENAI_BASE_URL, ANTHROPIC_BASE_URL; see PROVIDER_ENVIRONMENT_ALIASES)
 * count only when that provider is in effect. Which one is in effect is read from the merged entries themselves
 * (model.provider, else the model's name), which no provider's variable sets, so the answer never depends on
 * the values it filters.
 */
import { DEFAULT_CONFIG, MODEL_PROVIDERS, type ModelProvider } from '../../shared/config.js';
import { modelProvider } from '../../shared/providers.js';
import type { ConfigEntry } from './entries.js';
import { PROVIDER_ENVIRONMENT_ALIASES } from './fields.js';

/** The entries, in their order, without those of another provider's variables. */
export function entriesForProviderInEffect(entries: readonly ConfigEntry[]): ConfigEntry[] {
  const provider = providerOfEntries(entries);
  return entries.filter((entry) => entry.provider === undefined || entry.provider === provider);
}

/**
 * The provider the merged entries ask for. An invalid model.provider or model.name is reported by validation;
 * here it only must not throw, and the entries it would filter are then never used.
 */
function providerOfEntries(entries: readonly ConfigEntry[]): ModelProvider {
  const provider = entries.findLast((entry) => entry.path === 'model.provider')?.value;
  const name = entries.findLast((entry) => entry.path === 'model.name')?.value;
  return modelProvider({
    provider: MODEL_PROVIDERS.find((known) => known === provider),
    name: typeof name === 'string' ? name : DEFAULT_CONFIG.model.name,
  });
}

/** The provider variables set in the environment that the provider in effect does not use, for `config show`. */
export function providerVariablesNotInEffect(env: Readonly<Record<string, string | undefined>>, provider: ModelProvider): string[] {
  return Object.entries(PROVIDER_ENVIRONMENT_ALIASES)
    .filter(([variable, alias]) => alias.provider !== provider && env[variable] !== undefined && env[variable] !== '')
    .map(([variable]) => variable);
}

/** The well-known variable for a field under the provider in effect (ANTHROPIC_BASE_URL for a Claude model's base URL). */
export function providerVariableFor(path: string, provider: ModelProvider): string | undefined {
  return Object.entries(PROVIDER_ENVIRONMENT_ALIASES).find(([, alias]) => alias.path === path && alias.provider === provider)?.[0];
}
