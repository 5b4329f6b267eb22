/**
 * Which price table a run would cost its calls with, and where it came from: `model.pricing` in config.json,
 * the list price Sightline knows by the model's name, or none (costs then show in tokens, no cache assumed).
 * `sightline config show` prints it next to the dialect.
 */
import type { Config } from '../../shared/config.js';
import { pricingText } from '../../shared/cost.js';
import type { ModelPricing } from '../../shared/pricing.js';
import { configuredModelProfile } from '../llm/create-model-adapter.js';
import { formatCount } from './run/progress-lines.js';

export interface PricingInEffect {
  pricing: ModelPricing | null;
  from: 'config' | 'model-profile' | 'none';
}

export function pricingInEffect(config: Config): PricingInEffect {
  const pricing = configuredModelProfile(config.model).pricing ?? null;
  if (config.model.pricing !== undefined) return { pricing, from: 'config' };
  return { pricing, from: pricing === null ? 'none' : 'model-profile' };
}

export function pricingLine(inEffect: PricingInEffect, model: string): string {
  if (inEffect.pricing === null) {
    return `pricing: unknown for ${model}: costs are shown in tokens and no prompt cache is assumed (set model.pricing in config.json to give one)`;
  }
  const from = inEffect.from === 'config' ? 'model.pricing' : `the list price of ${model}`;
  return `pricing: ${pricingText(inEffect.pricing, formatCount)} (${from})`;
}
