/**
 * The model table (model-table.ts) joined with the profile each row's name resolves to: what `sightline models`
 * lists and docs/models.md's table shows. Nothing here is a claim of its own: the price and source are the row's,
 * the dialect, computer tool and context window the family profile's.
 */
import type { DialectName } from '../../shared/dialects.js';
import type { ModelPricing } from '../../shared/pricing.js';
import { resolveModelProfile, type ModelProfile } from './model-profiles.js';
import { MODEL_TABLE, type ModelSource } from './model-table.js';

export interface CatalogEntry {
  /** The name the row is listed under. */
  model: string;
  /** The names it covers (the model and its snapshots). */
  pattern: string;
  /** The profile family its name resolves to. */
  family: string;
  dialect: DialectName;
  /** The provider's computer tool that dialect declares for it, or null where Sightline's own tools stand in. */
  computerTool: string | null;
  contextWindow: number;
  pricing: ModelPricing | null;
  /** Why a current model has no price; null where it has one. */
  unpriced: string | null;
  source: ModelSource;
}

export function modelCatalog(): CatalogEntry[] {
  return MODEL_TABLE.map((row) => {
    const profile = resolveModelProfile(row.model);
    return {
      model: row.model,
      pattern: row.pattern,
      family: profile.family,
      dialect: profile.dialect,
      computerTool: computerToolOf(profile),
      contextWindow: profile.contextWindow,
      pricing: row.pricing ?? null,
      unpriced: row.pricing === undefined ? (row.unpriced ?? 'no price known') : null,
      source: row.source,
    };
  });
}

/**
 * The tool each computer dialect declares (agent/dialects): Anthropic's by the profile's version, OpenAI's
 * `computer_use_preview` for the preview model and the GA `computer` for the rest, Gemini's `computer_use`.
 */
function computerToolOf(profile: ModelProfile): string | null {
  switch (profile.dialect) {
    case 'anthropic-computer':
      return profile.anthropicComputerTool ?? null;
    case 'openai-computer':
      return profile.family === 'computer-use-preview' ? 'computer_use_preview' : 'computer';
    case 'gemini-computer-use':
      return 'computer_use';
    default:
      return null;
  }
}
