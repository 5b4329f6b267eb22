/**
 * The API keys a run uses, and the ones a person saved in the desktop app. The configuration (config.json,
 * then the environment) wins; a saved key fills a field it leaves unset. Saved keys live behind the
 * ApiKeySecrets interface, which the Electron shell implements with safeStorage (src/main/electron/
 * secret-store.ts); `sightline timeline` has none, so there keys are only read, never saved.
 *
 * A saved key takes effect at the next run: the run assembly asks `config()` at each run's start.
 * Nothing here returns, logs or publishes a key: status says only whether one is set and where from.
 */
import { AppApiError, type ApiKeyKind, type ApiKeySource, type KeyStatus } from '../../shared/app-api.js';
import type { Config, SecretFieldPath } from '../../shared/config.js';
import type { ConfigSource } from '../config/sources.js';

/** Where the desktop app keeps the keys it was given, encrypted. */
export interface ApiKeySecrets {
  /** Whether the system can encrypt a key at all. */
  canSave(): boolean;
  /** A sentence for the person when saved keys would be only obfuscated (Linux without a keyring). */
  weakEncryptionWarning(): string | undefined;
  save(path: SecretFieldPath, key: string): void;
  /** Every saved key, decrypted. */
  load(): Partial<Record<SecretFieldPath, string>>;
}

export const API_KEY_FIELDS: Readonly<Record<ApiKeyKind, SecretFieldPath>> = {
  model: 'model.apiKey',
  anthropic: 'model.anthropicApiKey',
  tavily: 'search.tavilyApiKey',
};

const KEY_NAMES: Readonly<Record<ApiKeyKind, string>> = { model: 'model API key', anthropic: 'Anthropic API key', tavily: 'Tavily API key' };

/** The variables each key is read from, for the messages that send people there. */
const KEY_VARIABLES = 'OPENAI_API_KEY / ANTHROPIC_API_KEY / TAVILY_API_KEY';

export const SAVING_UNAVAILABLE_MESSAGE = `API keys are saved in the Sightline desktop app. Here, set them in config.json, or with ${KEY_VARIABLES} in the environment.`;

const NO_ENCRYPTION_MESSAGE = `This system offers no way to encrypt API keys, so Sightline cannot save them. Set them in config.json, or with ${KEY_VARIABLES} in the environment.`;

export interface ApiKeySettingsOptions {
  /** The configuration as loaded, without saved keys. */
  config: Config;
  /** Where each configuration value came from (loadConfig's `sources`); a key without one counts as config.json's. */
  sources?: Readonly<Record<string, ConfigSource>> | undefined;
  secrets?: ApiKeySecrets | undefined;
}

export class ApiKeySettings {
  private saved: Partial<Record<SecretFieldPath, string>>;

  constructor(private readonly options: ApiKeySettingsOptions) {
    this.saved = options.secrets?.load() ?? {};
  }

  /** The configuration a run starts with: the loaded one, with saved keys where it sets none. */
  config(): Config {
    return withStoredSecrets(this.options.config, this.saved);
  }

  status(): KeyStatus {
    const secrets = this.options.secrets;
    const canSave = secrets?.canSave() ?? false;
    const warning = secrets === undefined ? undefined : canSave ? secrets.weakEncryptionWarning() : NO_ENCRYPTION_MESSAGE;
    const keyStatus = (kind: ApiKeyKind) => {
      const source = this.sourceOf(kind);
      return { set: source !== null, source };
    };
    return {
      model: keyStatus('model'),
      anthropic: keyStatus('anthropic'),
      tavily: keyStatus('tavily'),
      canSave,
      ...(warning === undefined ? {} : { warning }),
    };
  }

  save(kind: ApiKeyKind, key: string): { saved: true; warning?: string } {
    const secrets = this.options.secrets;
    if (secrets === undefined) throw new AppApiError('unavailable', SAVING_UNAVAILABLE_MESSAGE);
    if (!secrets.canSave()) throw new AppApiError('unavailable', NO_ENCRYPTION_MESSAGE);
    const path = API_KEY_FIELDS[kind];
    try {
      secrets.save(path, key);
    } catch (error) {
      // The store's messages name files, not keys; masked anyway, since this one is not in the redactor yet.
      const message = (error instanceof Error ? error.message : String(error)).split(key).join('[redacted]');
      throw new AppApiError('unavailable', `Sightline could not save the ${KEY_NAMES[kind]}: ${message}`);
    }
    this.saved = { ...this.saved, [path]: key };
    const warnings = [this.overriddenWarning(kind), secrets.weakEncryptionWarning()].filter((text) => text !== undefined);
    return { saved: true, ...(warnings.length === 0 ? {} : { warning: warnings.join(' ') }) };
  }

  private sourceOf(kind: ApiKeyKind): ApiKeySource | null {
    const path = API_KEY_FIELDS[kind];
    if (fieldValue(this.options.config, path) !== undefined) return this.options.sources?.[path]?.kind === 'env' ? 'environment' : 'config';
    return this.saved[path] === undefined ? null : 'saved';
  }

  /** Said when saving a key that the configuration overrides, so the person is not surprised it goes unused. */
  private overriddenWarning(kind: ApiKeyKind): string | undefined {
    const source = this.sourceOf(kind);
    if (source === 'saved' || source === null) return undefined;
    const where = source === 'environment' ? 'the environment' : 'config.json';
    return `The ${KEY_NAMES[kind]} set in ${where} takes precedence; the saved one is used once it is removed there.`;
  }
}

/** The configuration with stored keys filled in where the config file and the environment set none. */
export function withStoredSecrets(config: Config, stored: Partial<Record<SecretFieldPath, string>>): Config {
  return {
    ...config,
    model: {
      ...config.model,
      apiKey: config.model.apiKey ?? stored['model.apiKey'],
      anthropicApiKey: config.model.anthropicApiKey ?? stored['model.anthropicApiKey'],
    },
    search: { ...config.search, tavilyApiKey: config.search.tavilyApiKey ?? stored['search.tavilyApiKey'] },
  };
}

function fieldValue(config: Config, path: SecretFieldPath): string | undefined {
  switch (path) {
    case 'model.apiKey':
      return config.model.apiKey;
    case 'model.anthropicApiKey':
      return config.model.anthropicApiKey;
    case 'search.tavilyApiKey':
      return config.search.tavilyApiKey;
  }
}
