/**
 * A cost ceiling in dollars for a model whose price Sightline does not know (no row of the model table prices it,
 * and config.json gives no `model.pricing`) could not hold anything: every call would cost an unknown amount. The
 * faces that take a ceiling (`sightline run` and `flow`, the SDK's `maxCost`) refuse it here, before a runtime
 * opens or a request is sent; the turn's own check (ceilingEnding) stays behind it for any other way in.
 */
import type { Config } from '../../shared/config.js';
import { dollarText } from '../../shared/cost.js';
import { parseCostCeiling } from '../../shared/cost-ceiling.js';
import { terminalLine } from '../../shared/terminal-text.js';
import { configuredModelProfile } from '../llm/create-model-adapter.js';

/** Why `maxCost` (given by `setting`) cannot be held for the configured model; undefined when it can. */
export function unpricedCeilingRefusal(config: Config, maxCost: number | string | undefined, setting: string): string | undefined {
  if (maxCost === undefined) return undefined;
  const ceiling = parseCostCeiling(maxCost);
  if (ceiling === undefined || ceiling.unit !== 'dollars') return undefined;
  if (configuredModelProfile(config.model).pricing !== undefined) return undefined;
  const model = terminalLine(config.model.name).slice(0, 120);
  return (
    `${setting}: a ceiling of ${dollarText(ceiling.amount)} cannot be held for ${model}, whose price is unknown (\`sightline models\` lists the ` +
    `prices Sightline knows): give the ceiling in tokens ("200000 tokens"), or the model's price in model.pricing in config.json.`
  );
}
