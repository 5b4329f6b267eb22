/**
 * Which dialect a run would speak with this configuration, and why: the model profile's (matched by the
 * model's name), function-tools where the profile's needs another provider (a Claude model behind an
 * OpenAI-compatible gateway), or model.dialect's (config.json, SIGHTLINE_MODEL_DIALECT or --dialect). With it, the
 * coordinates the model names points in and the size its screenshots are sent at, and anything that keeps
 * the combination from working. `sightline config show` and `sightline doctor` print it.
 */
import type { Config, ModelApi, ModelProvider } from '../../shared/config.js';
import { modelProvider } from '../../shared/providers.js';
import { DIALECT_FACTS, type DialectName } from '../../shared/dialects.js';
import type { CoordinateSpace } from '../../shared/model-view.js';
import { availableDialectNames } from '../agent/index.js';
import { dialectProblems } from '../app/dialect-compatibility.js';
import type { ConfigSource } from '../config/sources.js';
import { effectiveMaxImageEdge } from '../context/index.js';
import { configuredDialect, configuredModelProfile, modelApi } from '../llm/create-model-adapter.js';
import { isBedrock, resolveModelProfile, type ImageSizing, type ModelProfile } from '../llm/model-profiles.js';
import type { AnthropicComputerToolType } from '../../shared/providers.js';
import type { ComputerToolMemory } from '../storage/index.js';

export type DialectReason =
  | { kind: 'profile'; family: string; model: string }
  | { kind: 'config'; source: Exclude<ConfigSource, { kind: 'default' }> }
  /**
   * The profile's dialect needs another provider than the configured one (a Claude model behind an
   * OpenAI-compatible gateway), so the one every provider carries is in effect. `providerFrom` says whether
   * model.provider or the model's name set the provider.
   */
  | { kind: 'provider'; family: string; model: string; profileDialect: DialectName; provider: ModelProvider; providerFrom: 'config' | 'name' };

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
  /**
   * Which of OpenAI's APIs the requests go to (OpenAI-compatible endpoints only), and whether model.api set it or,
   * unset, the dialect the profile chose (gpt-5.4 and later: the Responses API their computer tool needs).
   */
  api?: { name: ModelApi; by: 'model.api' | 'dialect' | 'default' };
  /** Why the combination cannot work; empty when it can. */
  problems: string[];
  /** For anthropic-computer: which of Anthropic's computer tools a run declares, and why. */
  computerTool?: { toolType: AnthropicComputerToolType; why: string };
}

export function dialectInEffect(config: Config, sources: Readonly<Record<string, ConfigSource>>, memory?: ComputerToolMemory): DialectInEffect {
  const profile = configuredModelProfile(config.model);
  const reason = dialectReason(config, sources, profile.family);
  const why = describeReason(reason);
  const computerTool = profile.dialect === 'anthropic-computer' ? computerToolInEffect(config, sources, profile, memory) : undefined;
  return {
    ...(computerTool === undefined ? {} : { computerTool }),
    name: profile.dialect,
    protocol: DIALECT_FACTS[profile.dialect].protocol,
    reason,
    why,
    coordinateSpace: profile.coordinateSpace,
    maxImageEdge: effectiveMaxImageEdge(profile.maxImageEdge, config.perception.maxImageEdge),
    imageSizing: profile.imageSizing,
    ...(modelProvider(config.model) === 'openai' ? { api: apiInEffect(config) } : {}),
    problems: dialectProblems({ dialect: profile.dialect, chosenBy: why, config, available: availableDialectNames() }),
  };
}

function apiInEffect(config: Config): NonNullable<DialectInEffect['api']> {
  const name = modelApi(config.model);
  if (config.model.api !== undefined) return { name, by: 'model.api' };
  return { name, by: name === 'responses' ? 'dialect' : 'default' };
}

const API_REASONS: Readonly<Record<NonNullable<DialectInEffect['api']>['by'], string>> = {
  'model.api': 'model.api',
  dialect: 'model.api not set: the API the dialect needs',
  default: 'model.api not set: the default',
};

function dialectReason(config: Config, sources: Readonly<Record<string, ConfigSource>>, family: string): DialectReason {
  const source = sources['model.dialect'];
  if (config.model.dialect !== undefined && source !== undefined && source.kind !== 'default') return { kind: 'config', source };
  const choice = configuredDialect(config.model);
  const model = config.model.name;
  if (choice.by !== 'provider') return { kind: 'profile', family, model };
  const providerFrom = config.model.provider === undefined ? 'name' : 'config';
  return { kind: 'provider', family, model, profileDialect: choice.profileDialect, provider: choice.provider, providerFrom };
}

/**
 * Which computer tool the run declares, and why, in the order that decides it: model.anthropicComputerTool, a
 * step-down the home remembers (the model refused the newer tool), Bedrock (which serves the beta tools only),
 * else the model profile's table (Anthropic's compatibility table).
 */
function computerToolInEffect(
  config: Config,
  sources: Readonly<Record<string, ConfigSource>>,
  profile: Pick<ModelProfile, 'anthropicComputerTool' | 'family'>,
  memory: ComputerToolMemory | undefined,
): { toolType: AnthropicComputerToolType; why: string } | undefined {
  const source = sources['model.anthropicComputerTool'];
  if (config.model.anthropicComputerTool !== undefined && source !== undefined && source.kind !== 'default') {
    return { toolType: config.model.anthropicComputerTool, why: describeReason({ kind: 'config', source }).replace('model.dialect', 'model.anthropicComputerTool') };
  }
  const remembered = memory?.recall(config.model.name);
  if (remembered !== undefined) {
    return { toolType: remembered.toolType, why: `${config.model.name} refused ${remembered.refused} on ${remembered.at} (remembered in ${memory!.location})` };
  }
  const toolType = profile.anthropicComputerTool;
  if (toolType === undefined) return undefined;
  if (toolType !== resolveModelProfile(config.model.name).anthropicComputerTool || isBedrock(config.model.name)) {
    return { toolType, why: 'Amazon Bedrock serves the beta computer tools only' };
  }
  return { toolType, why: `Anthropic's compatibility table for ${config.model.name} (model profile family ${profile.family})` };
}

/** The lines both `config show` and `doctor` print about it. */
export function dialectLines(dialect: DialectInEffect): string[] {
  return [
    `dialect: ${dialect.name} (${dialect.why})`,
    `  protocol:      ${dialect.protocol}`,
    ...(dialect.computerTool === undefined ? [] : [`  computer tool: ${dialect.computerTool.toolType} (${dialect.computerTool.why})`]),
    `  coordinates:   ${describeCoordinates(dialect.coordinateSpace)}`,
    `  image sizing:  ${describeImageSizing(dialect.imageSizing, dialect.maxImageEdge)}`,
    ...(dialect.api === undefined ? [] : [`  model api:     ${dialect.api.name} (${API_REASONS[dialect.api.by]})`]),
    ...dialect.problems.map((problem) => `  problem:       ${problem}`),
  ];
}

function describeReason(reason: DialectReason): string {
  if (reason.kind === 'profile') return `model profile family ${reason.family} for model ${reason.model}`;
  if (reason.kind === 'provider') {
    const provider =
      reason.providerFrom === 'config' ? `model.provider ${reason.provider}` : `provider ${reason.provider}, implied by the model name,`;
    return (
      `${provider} cannot carry ${reason.profileDialect}, the dialect of model profile family ${reason.family} ` +
      `for model ${reason.model}: the one every provider carries`
    );
  }
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
