/**
 * The last line of defence for API keys: everything `sightline run` and `sightline mcp` write passes
 * through here, so a key that slipped into an error message or an event (a provider echoing it back, say)
 * is never printed. The redactor is the one of shared/secret-redaction.ts.
 */
import type { Redact } from '../../../shared/secret-redaction.js';

/** Returns a writer that masks every secret in what it writes. */
export function redactingWriter(write: (text: string) => void, redact: Redact): (text: string) => void {
  return (text) => write(redact(text));
}
