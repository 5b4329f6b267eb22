/**
 * `agent.maxCost` and `--max-cost`: the most one turn may spend on model calls. One unambiguous form, whatever
 * the model: a plain number, or one written with a dollar sign (`0.5`, `"$0.50"`, `"0.50 dollars"`), is US
 * dollars; a whole number followed by `tokens` (`"200000 tokens"`) is input plus output tokens. A ceiling in
 * dollars needs the model's price (its list price or `model.pricing`); one in tokens works for every model.
 */

export type CostCeiling = { unit: 'dollars'; amount: number } | { unit: 'tokens'; amount: number };

const DOLLARS = /^\s*\$?\s*(\d+(?:\.\d+)?|\.\d+)\s*(?:\$|usd|dollars?)?\s*$/i;
const TOKENS = /^\s*(\d+)\s*tokens?\s*$/i;

/** What a ceiling says, in either form; undefined when the text is neither, or the amount is not above zero. */
export function parseCostCeiling(value: number | string): CostCeiling | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value > 0 ? { unit: 'dollars', amount: value } : undefined;
  const tokens = TOKENS.exec(value);
  if (tokens !== null) return positive({ unit: 'tokens', amount: Number(tokens[1]) });
  const dollars = DOLLARS.exec(value);
  if (dollars !== null) return positive({ unit: 'dollars', amount: Number(dollars[1]) });
  return undefined;
}

function positive(ceiling: CostCeiling): CostCeiling | undefined {
  return ceiling.amount > 0 ? ceiling : undefined;
}

/** The form the schema's message and docs/models.md ("Cost") give. */
export const COST_CEILING_FORMS = 'dollars (0.5 or "$0.50") or tokens ("200000 tokens"), above zero';
