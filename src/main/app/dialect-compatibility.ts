/**
 * Combinations of dialect and configuration that cannot work, found before any model call: a dialect that
 * needs another model API (openai-computer speaks the Responses API only), one that cannot declare the
 * extra tools the run would offer (UI-TARS's grammar has no place for web_search or MCP servers' tools), or
 * one this build does not have. Each problem says what to change. The facts per dialect are data
 * (src/shared/dialects.ts DIALECT_FACTS); this only compares them with the configuration.
 */
import type { Config } from '../../shared/config.js';
import { DIALECT_FACTS, type DialectName } from '../../shared/dialects.js';
import { modelProvider } from '../../shared/providers.js';
import { modelApi } from '../llm/create-model-adapter.js';

export interface DialectCheckInput {
  /** The dialect in effect: the model profile's, or model.dialect's. */
  dialect: DialectName;
  /** Why it is in effect, in words: `model.dialect`, or the model profile for the model's name. */
  chosenBy: string;
  config: Config;
  /** The dialects this build can speak. */
  available: readonly DialectName[];
}

/** Every reason the dialect cannot run with this configuration; none when it can. */
export function dialectProblems(input: DialectCheckInput): string[] {
  return [apiProblem(input), providerProblem(input), extraToolsProblem(input), availabilityProblem(input)].filter(
    (problem): problem is string => problem !== undefined,
  );
}

/** How a dialect's choice is worded when only the configuration is known (the CLI names the source too). */
export function dialectChosenBy(config: Config): string {
  return config.model.dialect === undefined ? `the model profile for ${config.model.name}` : 'model.dialect';
}

const CHOOSE_ANOTHER = 'or choose another dialect (--dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json)';

function apiProblem({ dialect, chosenBy, config }: DialectCheckInput): string | undefined {
  const required = DIALECT_FACTS[dialect].requiredApi;
  // model.api chooses between OpenAI's two APIs; another provider's requests never use it.
  const api = modelApi(config.model);
  if (required === undefined || required === api || modelProvider(config.model) !== 'openai') return undefined;
  return (
    `The ${dialect} dialect (chosen by ${chosenBy}) needs model.api ${required}, but model.api is ${api}: ` +
    `set model.api to ${required} (SIGHTLINE_MODEL_API=${required}, or "api": "${required}" under "model" in config.json), ${CHOOSE_ANOTHER}.`
  );
}

/**
 * A dialect bound to one provider's API (Claude's computer tool is Anthropic's). The provider is read only
 * where the configuration names one (`model.provider`): a configuration without that field says nothing
 * about the provider, so it is not refused on that ground here.
 */
function providerProblem({ dialect, chosenBy, config }: DialectCheckInput): string | undefined {
  const required = DIALECT_FACTS[dialect].requiredProvider;
  const provider = modelProvider(config.model);
  if (required === undefined || provider === required) return undefined;
  const source = config.model.provider === undefined ? `the model name ${config.model.name} implies ${provider}` : `model.provider is ${provider}`;
  return (
    `The ${dialect} dialect (chosen by ${chosenBy}) needs model.provider ${required}, but ${source}: ` +
    `set model.provider to ${required} ("provider": "${required}" under "model" in config.json), ${CHOOSE_ANOTHER}.`
  );
}

function extraToolsProblem({ dialect, chosenBy, config }: DialectCheckInput): string | undefined {
  if (DIALECT_FACTS[dialect].offersExtraTools) return undefined;
  const offered: string[] = [];
  const fixes: string[] = [];
  if (config.search.tavilyApiKey !== undefined) {
    offered.push('web_search (a Tavily key is configured)');
    fixes.push('unset TAVILY_API_KEY (and search.tavilyApiKey in config.json)');
  }
  const servers = Object.keys(config.mcp.servers);
  if (servers.length > 0) {
    offered.push(`the tools of the MCP server${servers.length === 1 ? '' : 's'} ${servers.join(', ')} (mcp.servers)`);
    fixes.push('remove mcp.servers from config.json');
  }
  if (offered.length === 0) return undefined;
  return (
    `The ${dialect} dialect (chosen by ${chosenBy}) cannot offer the model tools beyond its own actions, ` +
    `but this run would offer ${offered.join(' and ')}: for this run, ${fixes.join(' and ')}, ${CHOOSE_ANOTHER}.`
  );
}

function availabilityProblem({ dialect, chosenBy, available }: DialectCheckInput): string | undefined {
  if (available.includes(dialect)) return undefined;
  return (
    `The ${dialect} dialect (chosen by ${chosenBy}) is not available in this build of Sightline ` +
    `(it has: ${available.join(', ')}): choose one of those with --dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json.`
  );
}
