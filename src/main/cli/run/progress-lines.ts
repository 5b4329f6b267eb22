/**
 * What a person watching `sightline run` reads on stderr: one short line per thing that happened, e.g.
 *   step 3  click (640, 412)  ok  1.2s  1,234 tokens  $0.0042
 *   unchanged: same as img_3f9c0a12b7e4
 * Pure functions from events to text, so the wording is tested without running anything.
 */
import { describeAction } from '../../../shared/action-descriptions.js';
import { costText, dollarText, type CostTotals } from '../../../shared/cost.js';
import type { AgentEvent } from '../../../shared/events.js';
import { terminalLine } from '../../../shared/terminal-text.js';
import type { TokenUsage } from '../../../shared/token-usage.js';

/** The line (without newline) an event shows as, or undefined for events that show nothing. */
export function progressLine(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'turn-started':
      return `turn ${event.sequence} of session ${event.sessionId}: ${event.request}`;
    case 'screenshot':
      return event.unchangedFrom === undefined ? undefined : `unchanged: same as ${event.unchangedFrom}`;
    case 'step':
      return stepLine(event);
    case 'ask-user':
      return `the model asks: ${event.question}`;
    case 'ask-user-answered':
      return `answered: ${event.answer}`;
    case 'search-report':
      return `searched "${event.question}": ${event.answer} (confidence ${event.confidence.toFixed(2)}, ${event.sources.length} sources)`;
    case 'media':
      return mediaLine(event);
    case 'warning':
      return `warning: ${event.message}`;
    case 'turn-ended':
      return turnEndLine(event);
    case 'model-text-delta':
    case 'confirmation-requested':
    case 'confirmation-answered':
      // The confirmation handler speaks for itself; streamed text would interleave with the lines.
      return undefined;
  }
}

/** Where the generated media is: the id `sightline` and the timeline know it by. */
function mediaLine(event: Extract<AgentEvent, { type: 'media' }>): string {
  const size = event.width !== undefined && event.height !== undefined ? `, ${event.width}×${event.height}` : '';
  return `the model generated ${event.kind === 'image' ? 'an image' : 'audio'}: ${event.mediaId} (${event.mime}${size})`;
}

function stepLine(event: Extract<AgentEvent, { type: 'step' }>): string {
  const what = event.action === undefined ? event.tool : describeAction(event.action);
  const result = event.ok ? 'ok' : `failed: ${event.error ?? 'unknown error'}`;
  const parts = [`step ${event.sequence}`, what, result, seconds(event.latencyMs)];
  if (event.usage !== undefined) parts.push(`${formatCount(totalTokens(event.usage))} tokens`, stepCostText(event.costDollars));
  // The model's own words: one line, without control characters or escape sequences.
  if (event.intent !== undefined && event.intent.trim() !== '') parts.push(`intent: ${terminalLine(event.intent.trim())}`);
  return parts.join('  ');
}

/** A step's model call in dollars, or said to be unknown (never $0) when the model has no price. */
function stepCostText(costDollars: number | undefined): string {
  return costDollars === undefined ? 'cost unknown' : dollarText(costDollars);
}

function turnEndLine(event: Extract<AgentEvent, { type: 'turn-ended' }>): string {
  const steps = `${event.steps} ${event.steps === 1 ? 'step' : 'steps'}`;
  const tokens = `${formatCount(event.usage.inputTokens)} input + ${formatCount(event.usage.outputTokens)} output tokens`;
  const verdict = TURN_END_WORDS[event.reason];
  const summary = event.summary === undefined || event.summary === '' ? '' : `: ${event.summary}`;
  return `${verdict} after ${steps}, ${tokens}${turnCostText(event.cost)}${summary}`;
}

/**
 * The turn's cost after its tokens: ", cost $0.0123" where the model's price is known; where it is not, the cost
 * is said to be unknown (the tokens just shown are what it was), never $0.
 */
function turnCostText(cost: CostTotals | undefined): string {
  if (cost === undefined) return '';
  if (cost.dollars === null) return cost.unpricedTokens === 0 ? '' : ', cost unknown (no price known for the model)';
  return `, cost ${costText(cost, formatCount) ?? ''}`;
}

const TURN_END_WORDS: Record<Extract<AgentEvent, { type: 'turn-ended' }>['reason'], string> = {
  finished: 'finished',
  failed: 'failed',
  'step-limit': 'stopped at the step limit',
  'cost-limit': 'stopped at the cost ceiling',
  stopped: 'stopped',
  error: 'failed with an error',
  setup: 'failed: the setup is wrong',
};

export function totalTokens(usage: TokenUsage): number {
  return usage.inputTokens + usage.outputTokens;
}

/** 1234 → "1,234": the same in every locale, so scripts and tests can read it. */
export function formatCount(count: number): string {
  return count.toLocaleString('en-US');
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)}s`;
}
