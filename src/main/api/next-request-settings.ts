/**
 * What the timeline needs to know of the next request's plan (issue 16): the context settings and the
 * running turn's shape, worked out from the configuration the next run will read, with the same functions
 * the run uses (the configured model's profile, its image edge, its active zone shape).
 */
import { contextPolicyOf } from '../../shared/context-policy.js';
import type { Config } from '../../shared/config.js';
import { activeZoneShape, earlierTurnsShape, effectiveMaxImageEdge, type NextRequestInput } from '../context/index.js';
import { configuredModelProfile } from '../llm/create-model-adapter.js';

export type NextRequestSettings = Omit<NextRequestInput, 'storage' | 'sessionId'>;

export function nextRequestSettings(config: Config): NextRequestSettings {
  const profile = configuredModelProfile(config.model);
  const maxImageEdge = effectiveMaxImageEdge(profile.maxImageEdge, config.perception.maxImageEdge);
  return {
    earlierTurns: earlierTurnsShape(profile.pricing, config.context.anchorTurns),
    policy: contextPolicyOf(config.context.policy),
    shape: activeZoneShape(profile, maxImageEdge),
  };
}
