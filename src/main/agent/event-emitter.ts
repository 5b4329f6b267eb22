/**
 * The agent's one way out to listeners. Every event passes through here, so this is where secrets are
 * taken out: an API key that slipped into an error message (a provider echoing it, a tool's exception)
 * never reaches `--json` output, the timeline or a log.
 */
import type { AgentEvent } from '../../shared/events.js';
import { redactStrings } from '../../shared/secret-redaction.js';

export type Emit = (event: AgentEvent) => void;

/**
 * An emitter that redacts and never lets a listener's exception into the loop: a broken listener must
 * not end a turn half-recorded.
 */
export function createEventEmitter(listener: ((event: AgentEvent) => void) | undefined, redact: (text: string) => string): Emit {
  return (event) => {
    if (listener === undefined) return;
    try {
      listener(redactStrings(event, redact));
    } catch (error) {
      console.error(`An agent event listener failed: ${redact(error instanceof Error ? error.message : String(error))}`);
    }
  };
}
