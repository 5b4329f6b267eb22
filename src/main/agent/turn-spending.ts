/**
 * What a turn has spent on model calls, and the ceiling `agent.maxCost` puts on it. The turn ends as failed,
 * before the call that would go over the ceiling, rather than after it: a person who sets $0.50 expects to
 * pay at most about $0.50. What the next call will cost is not known until it returns, so it is estimated:
 * as the turn's previous call cost (each request is the previous one plus a step, so the two cost about the
 * same), or, for the turn's first call, as the request's estimated tokens at the full input price (an upper
 * bound where a prompt cache would serve part of it).
 */
import { dollarText, addCallCost, callCost, NO_COST, type CostTotals } from '../../shared/cost.js';
import type { CostCeiling } from '../../shared/cost-ceiling.js';
import type { ModelPricing } from '../../shared/pricing.js';
import type { TokenUsage } from '../../shared/token-usage.js';
import { addUsage, emptyUsage } from './token-usage-totals.js';
import type { TurnEnding } from './turn-lifecycle.js';

export interface TurnSpending {
  /** The tokens of the turn's model calls so far. */
  total: TokenUsage;
  /** Their cost: dollars where the price is known, else their tokens. */
  cost: CostTotals;
  /** How many model calls completed: what a replay saves (shared/replay.ts). */
  calls: number;
  /** The last call's cost, in dollars and in tokens: the estimate of the next one. */
  lastCall?: { dollars: number | null; tokens: number };
}

/** Whose ceiling it is, and what was spent against it before this turn (a flow's ceiling spans its steps). */
export interface CeilingBudget {
  /** "the turn", "the automation": whose ceiling the summary names. */
  owner: string;
  /** The setting that sets it, for the summary (agent.maxCost, --max-cost). */
  setting: string;
  spentBefore: { dollars: number; tokens: number };
}

const TURN_BUDGET: CeilingBudget = { owner: 'the turn', setting: 'agent.maxCost', spentBefore: { dollars: 0, tokens: 0 } };

export function noSpending(): TurnSpending {
  return { total: emptyUsage(), cost: NO_COST, calls: 0 };
}

/** Adds a completed call; returns its cost in dollars, undefined when the model's price is unknown. */
export function spend(spending: TurnSpending, usage: TokenUsage, pricing: ModelPricing | undefined): number | undefined {
  const dollars = pricing === undefined ? undefined : callCost(usage, pricing);
  const call = { dollars: dollars ?? null, tokens: usage.inputTokens + usage.outputTokens };
  spending.total = addUsage(spending.total, usage);
  spending.cost = addCallCost(spending.cost, call);
  spending.lastCall = call;
  spending.calls += 1;
  return dollars;
}

/**
 * How the turn ends when its next call would go over the ceiling; undefined while it may go on.
 * `requestTokens` is the estimate of the request about to be sent (its token report).
 */
export function ceilingEnding(
  ceiling: CostCeiling | undefined,
  spending: TurnSpending,
  pricing: ModelPricing | undefined,
  requestTokens: number,
  budget: CeilingBudget = TURN_BUDGET,
): TurnEnding | undefined {
  if (ceiling === undefined) return undefined;
  if (ceiling.unit === 'dollars' && pricing === undefined) {
    return {
      status: 'failed',
      reason: 'cost-limit',
      summary:
        `${capitalized(budget.owner)}'s cost ceiling is ${dollarText(ceiling.amount)} (${budget.setting}), but the model's price is unknown, so ` +
        `nothing could be held to it: give the ceiling in tokens ("200000 tokens"), or the model's price in model.pricing.`,
    };
  }
  const spent =
    (ceiling.unit === 'dollars' ? (spending.cost.dollars ?? 0) : spending.total.inputTokens + spending.total.outputTokens) +
    (ceiling.unit === 'dollars' ? budget.spentBefore.dollars : budget.spentBefore.tokens);
  const next = nextCallEstimate(ceiling.unit, spending, pricing, requestTokens);
  if (spent + next <= ceiling.amount) return undefined;
  const amount = (value: number) => (ceiling.unit === 'dollars' ? dollarText(value) : `${Math.round(value).toLocaleString('en-US')} tokens`);
  return {
    status: 'failed',
    reason: 'cost-limit',
    summary:
      `Stopped before the next model call: ${budget.owner} has spent ${amount(spent)}, and the next call would cost about ` +
      `${amount(next)}, over ${budget.owner}'s ceiling of ${amount(ceiling.amount)} (${budget.setting}).`,
  };
}

function nextCallEstimate(unit: CostCeiling['unit'], spending: TurnSpending, pricing: ModelPricing | undefined, requestTokens: number): number {
  if (unit === 'tokens') return spending.lastCall?.tokens ?? requestTokens;
  const last = spending.lastCall?.dollars;
  if (last !== undefined && last !== null) return last;
  return pricing === undefined ? 0 : (requestTokens * pricing.inputPerMillion) / 1_000_000;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
