/**
 * The last line of defence for API keys: everything `sightline run` writes passes through here, so a key
 * that slipped into an error message or an event (a provider echoing it back, say) is never printed.
 */
import { SECRET_FIELD_PATHS, mcpSecretValues, type Config } from '../../../shared/config.js';

const REDACTED = '[redacted]';

/** The secret values of a configuration, longest first so that a key containing another is masked whole. */
export function secretsOf(config: Config): string[] {
  const values = SECRET_FIELD_PATHS.map((path) => {
    const [section, key] = path.split('.') as [keyof Config, string];
    return (config[section] as Record<string, unknown>)[key];
  });
  return [...values, ...mcpSecretValues(config)]
    .filter((value): value is string => typeof value === 'string' && value !== '')
    .sort((a, b) => b.length - a.length);
}

/** Returns a writer that masks every secret in what it writes. */
export function redactingWriter(write: (text: string) => void, secrets: readonly string[]): (text: string) => void {
  if (secrets.length === 0) return write;
  return (text) => write(secrets.reduce((masked, secret) => masked.split(secret).join(REDACTED), text));
}
