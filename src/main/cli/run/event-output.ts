/**
 * Where the agent's events go while `sightline run` works: a progress line on stderr for each, and with
 * --json one JSON object per line on stdout (nothing else is ever written to stdout then, so the output
 * can be piped straight into a JSON-lines reader). Streamed text is left out of the JSON unless --stream.
 */
import type { AgentEvent } from '../../../shared/events.js';
import { progressLine } from './progress-lines.js';

export interface EventOutputOptions {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  json: boolean;
  stream: boolean;
}

export function eventPrinter(options: EventOutputOptions): (event: AgentEvent) => void {
  return (event) => {
    const line = progressLine(event);
    if (line !== undefined) options.stderr(`${line}\n`);
    if (!options.json) return;
    if (event.type === 'model-text-delta' && !options.stream) return;
    options.stdout(`${JSON.stringify(event)}\n`);
  };
}
