/**
 * A turn in one line, for when the token budget leaves no room for more of it:
 *
 *   [Turn 2 · finished · "open the team settings" → Opened the settings page and saved.]
 *
 * The outcome is the model's own `finish` summary when it gave one, else its last words.
 */
import { textOfParts, type Message } from '../../shared/messages.js';
import type { TurnRecord } from '../storage/index.js';

const REQUEST_PREVIEW_LENGTH = 120;
const OUTCOME_PREVIEW_LENGTH = 200;

/** What the turn came to, in the model's words; undefined when it said nothing. */
export function turnOutcomeText(messages: readonly Message[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    for (const call of [...message.toolCalls].reverse()) {
      if (call.name !== 'finish') continue;
      const summary = finishSummary(call.argumentsText);
      if (summary !== undefined) return summary;
    }
  }
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'assistant') continue;
    const text = textOfParts(message.parts).trim();
    if (text !== '') return text;
  }
  return undefined;
}

export function turnSummaryLine(turn: TurnRecord, outcome: string | undefined): string {
  const request = preview(turn.userRequest, REQUEST_PREVIEW_LENGTH);
  const result = outcome === undefined ? '' : ` → ${preview(outcome, OUTCOME_PREVIEW_LENGTH)}`;
  return `[Turn ${turn.sequence} · ${turn.status} · "${request}"${result}]`;
}

function finishSummary(argumentsText: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    const summary = (parsed as { summary?: unknown } | null)?.summary;
    return typeof summary === 'string' && summary.trim() !== '' ? summary : undefined;
  } catch {
    return undefined;
  }
}

function preview(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}
