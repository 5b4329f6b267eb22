/** How numbers and times read in the timeline: short, and the same everywhere. */
import { costText, dollarText, type CostTotals } from '../../../shared/cost.js';
import { usageText, type UsageTotals } from '../../../shared/usage-text.js';

/** 950 → "950", 12_400 → "12.4k", 3_200_000 → "3.2M". */
export function formatTokens(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trimZero((count / 1000).toFixed(count < 10_000 ? 1 : 0))}k`;
  return `${trimZero((count / 1_000_000).toFixed(1))}M`;
}

function trimZero(text: string): string {
  return text.replace(/\.0$/, '');
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** 850 → "850 ms", 4200 → "4.2 s", 95_000 → "1 min 35 s". */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  const seconds = milliseconds / 1000;
  if (seconds < 60) return `${trimZero(seconds.toFixed(1))} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/**
 * A stored time for a list: the time of day when it is today, else the date. `now` is a parameter so
 * tests do not depend on the clock.
 */
export function formatWhen(iso: string, now: Date = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const sameYear = date.getFullYear() === now.getFullYear();
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', ...(sameYear ? {} : { year: 'numeric' }) });
}

/** The full date and time, for tooltips. */
export function formatFullTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** Text cut to `length` characters with an ellipsis, for labels that must stay on one line. */
export function truncate(text: string, length: number): string {
  const single = text.replace(/\s+/g, ' ').trim();
  return single.length <= length ? single : `${single.slice(0, Math.max(0, length - 1)).trimEnd()}…`;
}

/** "1 step", "3 steps". */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}


/** "12k in (12k cached, 300 written) · 210 out": cached against uncached input at a glance. */
export function formatUsage(usage: UsageTotals): string {
  return usageText(usage, formatTokens);
}

/** The exact counts behind formatUsage, for a tooltip: what the cache served, what was paid in full, what it took. */
export function describeUsage(usage: UsageTotals): string {
  const exact = (count: number): string => count.toLocaleString('en-US');
  const uncached = Math.max(0, usage.input - usage.cachedInput);
  return (
    `${exact(usage.input)} input tokens: ${exact(usage.cachedInput)} read from the prompt cache, ${exact(uncached)} uncached; ` +
    `${exact(usage.cacheWriteInput)} written to the cache. ${exact(usage.output)} output tokens.`
  );
}

/** "$0.0264", or "30k tokens (no price known)" where the model's price was unknown; null before any model call. */
export function formatCost(cost: CostTotals): string | null {
  return costText(cost, formatTokens);
}

/** A step's cost: "$0.0088". */
export function formatStepCost(dollars: number): string {
  return dollarText(dollars);
}
