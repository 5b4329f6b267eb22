/**
 * Which dialect a run would speak with this configuration, and why: the model profile's (matched by the
 * model's name), or model.dialect's (config.json, SIGHTLINE_MODEL_DIALECT or --dialect). With it, the
 * coordinates the model names points in and the size its screenshots are sent at, and anything that keeps
 * the combination from working. `sightline config show` and `sightline doctor` print it.
 */
import type { Config } from '../../shared/config.js';
import { DIALECT_FACTS, type DialectName } from '../../shared/dialects.js';
import type { CoordinateSpace } from '../../shared/model-view.js';
import { availableDialectNames } from '../agent/index.js';
import { dialectProblems } from '../app/dialect-compatibility.js';
import type { ConfigSource } from '../config/sources.js';
import { effectiveMaxImageEdge } from '../context/index.js';
import { configuredModelProfile } from '../llm/create-model-adapter.js';
import type { ImageSizing } from '../llm/model-profiles.js';

export type DialectReason =
  | { kind: 'profile'; family: string; model: string }
  | { kind: 'config'; source: Exclude<ConfigSource, { kind: 'default' }> };

export interface DialectInEffect {
  name: DialectName;
  /** How the model is asked to act, in words. */
  protocol: string;
  reason: DialectReason;
  /** The reason in words: `model profile family ui-tars-1.5 for model ui-tars-1.5-7b`, `--dialect flag` … */
  why: string;
  coordinateSpace: CoordinateSpace;
  /** The longest edge a screenshot is fitted to (the smaller of the profile's and perception.maxImageEdge). */
  maxImageEdge: number;
  imageSizing: ImageSizing;
  /** Why the combination cannot work; empty when it can. */
  problems: string[];
}

export function dialectInEffect(config: Config, sources: Readonly<Record<string, ConfigSource>>): DialectInEffect {
  const profile = configuredModelProfile(config.model);
  const source = sources['model.dialect'];
  const reason: DialectReason =
    config.model.dialect !== undefined && source !== undefined && source.kind !== 'default'
      ? { kind: 'config', source }
      : { kind: 'profile', family: profile.family, model: config.model.name };
  const why = describeReason(reason);
  return {
    name: profile.dialect,
    protocol: DIALECT_FACTS[profile.dialect].protocol,
    reason,
    why,
    coordinateSpace: profile.coordinateSpace,
    maxImageEdge: effectiveMaxImageEdge(profile.maxImageEdge, config.perception.maxImageEdge),
    imageSizing: profile.imageSizing,
    problems: dialectProblems({ dialect: profile.dialect, chosenBy: why, config, available: availableDialectNames() }),
  };
}

/** The lines both `config show` and `doctor` print about it. */
export function dialectLines(dialect: DialectInEffect): string[] {
  return [
    `dialect: ${dialect.name} (${dialect.why})`,
    `  protocol:      ${dialect.protocol}`,
    `  coordinates:   ${describeCoordinates(dialect.coordinateSpace)}`,
    `  image sizing:  ${describeImageSizing(dialect.imageSizing, dialect.maxImageEdge)}`,
    ...dialect.problems.map((problem) => `  problem:       ${problem}`),
  ];
}

function describeReason(reason: DialectReason): string {
  if (reason.kind === 'profile') return `model profile family ${reason.family} for model ${reason.model}`;
  switch (reason.source.kind) {
    case 'file':
      return `model.dialect in config.json`;
    case 'env':
      return `environment variable ${reason.source.variable}`;
    case 'flag':
      return `${reason.source.flag} flag`;
  }
}

function describeCoordinates(space: CoordinateSpace): string {
  return space === 'pixels' ? 'pixels of the image sent' : '0–1000 on both axes, whatever the image size';
}

function describeImageSizing(sizing: ImageSizing, maxImageEdge: number): string {
  const fitted = `longest edge at most ${maxImageEdge} px`;
  if (sizing.kind === 'fit-edge') return fitted;
  const pixels = (count: number) => count.toLocaleString('en-US');
  return (
    `${fitted}, then the model's own smart resize (sides multiples of ${sizing.factor}, ` +
    `${pixels(sizing.minPixels)} to ${pixels(sizing.maxPixels)} pixels), so its resize leaves the image as sent`
  );
}
