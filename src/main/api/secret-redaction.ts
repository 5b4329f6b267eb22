/** Masks the configuration's secrets (API keys) in text that may leave the process: error messages above all. */
import { SECRET_FIELD_PATHS, type Config } from '../../shared/config.js';

const REDACTED = '[redacted]';

export function secretRedactor(config: Config): (text: string) => string {
  const secrets = SECRET_FIELD_PATHS.map((path) => {
    const [section, key] = path.split('.') as [keyof Config, string];
    return (config[section] as Record<string, unknown>)[key];
  })
    .filter((value): value is string => typeof value === 'string' && value.length > 0)
    // Longest first, so a key that contains another is masked whole.
    .sort((first, second) => second.length - first.length);
  return (text) => secrets.reduce((masked, secret) => masked.split(secret).join(REDACTED), text);
}
