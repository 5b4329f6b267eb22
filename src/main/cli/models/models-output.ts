/**
 * How `sightline models` prints the model table: one aligned line per row (the names it covers, dialect, computer
 * tool, context window, prices per million tokens, the day its source was read), or the entries as JSON with each
 * source page.
 */
import type { CatalogEntry } from '../../llm/model-catalog.js';
import type { ModelPricing } from '../../../shared/pricing.js';
import { formatCount } from '../run/progress-lines.js';

const HEADINGS = ['MODEL', 'DIALECT', 'TOOL', 'CONTEXT', 'PRICE PER MILLION (INPUT / CACHED / OUTPUT)', 'READ'] as const;

export function modelsText(entries: readonly CatalogEntry[]): string {
  const rows = entries.map((entry) => [
    entry.pattern,
    entry.dialect,
    entry.computerTool ?? '-',
    formatCount(entry.contextWindow),
    entry.pricing === null ? 'unknown' : pricesText(entry.pricing),
    entry.source.read,
  ]);
  const table = [[...HEADINGS], ...rows];
  const widths = HEADINGS.map((_, column) => Math.max(...table.map((cells) => cells[column]!.length)));
  const lines = table.map((cells) => cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  '));
  const footer =
    'A model without a price has its costs shown as unknown, and a --max-cost in dollars refused: give model.pricing in ' +
    'config.json for one. `sightline models --json` gives each row\'s source page and why an unpriced one has none.';
  return `${lines.join('\n')}\n\n${footer}\n`;
}

export function modelsJson(entries: readonly CatalogEntry[]): string {
  return `${JSON.stringify({ models: entries }, null, 2)}\n`;
}

/** "$2.5 / $0.25 / $15": as the providers write them. */
export function pricesText(pricing: ModelPricing): string {
  const price = (dollars: number) => `$${Number(dollars.toPrecision(6))}`;
  return [pricing.inputPerMillion, pricing.cachedInputPerMillion, pricing.outputPerMillion].map(price).join(' / ');
}
