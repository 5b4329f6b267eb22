/** Which dialect and configuration combinations cannot work, and what each refusal tells the person to change. */
import { describe, expect, it } from 'vitest';
import { dialectChosenBy, dialectProblems } from '../../src/main/app/dialect-compatibility.js';
import { DEFAULT_CONFIG, type Config } from '../../src/shared/config.js';
import { DIALECT_FACTS, DIALECT_NAMES, type DialectName } from '../../src/shared/dialects.js';

const ALL = DIALECT_NAMES;

function configWith(changes: { model?: Partial<Config['model']>; tavilyApiKey?: string; servers?: Config['mcp']['servers'] } = {}): Config {
  return {
    ...DEFAULT_CONFIG,
    model: { ...DEFAULT_CONFIG.model, ...changes.model },
    search: { ...DEFAULT_CONFIG.search, ...(changes.tavilyApiKey === undefined ? {} : { tavilyApiKey: changes.tavilyApiKey }) },
    mcp: { ...DEFAULT_CONFIG.mcp, servers: changes.servers ?? {} },
  };
}

function problems(dialect: DialectName, config: Config, available: readonly DialectName[] = ALL): string[] {
  return dialectProblems({ dialect, chosenBy: dialectChosenBy(config), config, available });
}

describe('dialectProblems', () => {
  it('finds nothing wrong with the defaults, whatever the dialect, when the API fits', () => {
    for (const dialect of ALL) {
      const api = DIALECT_FACTS[dialect].requiredApi ?? 'chat-completions';
      const provider = DIALECT_FACTS[dialect].requiredProvider;
      expect(problems(dialect, configWith({ model: { api, ...(provider === undefined ? {} : { provider }) } })), dialect).toEqual([]);
    }
  });

  it('refuses openai-computer on Chat Completions, saying to set model.api to responses', () => {
    // model.api set to Chat Completions by a person: unset, it follows the profile's dialect (modelApi).
    const found = problems('openai-computer', configWith({ model: { name: 'computer-use-preview', api: 'chat-completions' } }));
    expect(found).toEqual([
      'The openai-computer dialect (chosen by the model profile for computer-use-preview) needs model.api responses, ' +
        'but model.api is chat-completions: set model.api to responses (SIGHTLINE_MODEL_API=responses, or "api": "responses" ' +
        'under "model" in config.json), or choose another dialect (--dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json).',
    ]);
    expect(problems('openai-computer', configWith({ model: { api: 'responses' } }))).toEqual([]);
  });

  it('refuses ui-tars when web_search would be offered, naming the Tavily key to unset', () => {
    const [found, ...more] = problems('ui-tars', configWith({ model: { name: 'ui-tars-1.5-7b' }, tavilyApiKey: 'tvly-x' }));
    expect(more).toEqual([]);
    expect(found).toContain('The ui-tars dialect (chosen by the model profile for ui-tars-1.5-7b) cannot offer the model tools beyond its own actions');
    expect(found).toContain('this run would offer web_search (a Tavily key is configured)');
    expect(found).toContain('for this run, unset TAVILY_API_KEY (and search.tavilyApiKey in config.json)');
    expect(found).toContain('or choose another dialect');
    expect(found).not.toContain('tvly-x');
  });

  it('refuses ui-tars when MCP servers would be offered, naming them', () => {
    const servers = { files: { command: 'npx', args: [] }, tickets: { url: 'https://tickets.example.com/mcp' } };
    const [found] = problems('ui-tars', configWith({ model: { dialect: 'ui-tars' }, servers }));
    expect(found).toContain('(chosen by model.dialect)');
    expect(found).toContain('the tools of the MCP servers files, tickets (mcp.servers)');
    expect(found).toContain('remove mcp.servers from config.json');
    const [both] = problems('ui-tars', configWith({ tavilyApiKey: 'tvly-x', servers: { files: { command: 'x', args: [] } } }));
    expect(both).toContain('web_search (a Tavily key is configured) and the tools of the MCP server files (mcp.servers)');
  });

  it('lets dialects that declare extra tools offer them', () => {
    const config = configWith({ tavilyApiKey: 'tvly-x', servers: { files: { command: 'x', args: [] } } });
    expect(problems('function-tools', config)).toEqual([]);
    expect(problems('qwen-computer-use', config)).toEqual([]);
  });

  it('refuses a dialect on another provider than its own, whether model.provider or the model name says so', () => {
    const withProvider = (provider: 'openai' | 'anthropic'): Config => configWith({ model: { provider } });
    const chooseAnother = 'or choose another dialect (--dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json).';
    expect(problems('anthropic-computer', withProvider('openai'))).toEqual([
      'The anthropic-computer dialect (chosen by the model profile for gpt-4.1) needs model.provider anthropic, but model.provider is openai: ' +
        `set model.provider to anthropic ("provider": "anthropic" under "model" in config.json), ${chooseAnother}`,
    ]);
    expect(problems('anthropic-computer', configWith())).toEqual([
      'The anthropic-computer dialect (chosen by the model profile for gpt-4.1) needs model.provider anthropic, but the model name gpt-4.1 implies openai: ' +
        `set model.provider to anthropic ("provider": "anthropic" under "model" in config.json), ${chooseAnother}`,
    ]);
    expect(problems('anthropic-computer', withProvider('anthropic'))).toEqual([]);
    expect(problems('anthropic-computer', configWith({ model: { name: 'claude-sonnet-4-5' } }))).toEqual([]);
    // OpenAI's computer tool on a Claude model: the provider is wrong, and model.api (OpenAI's choice of API) is not judged.
    expect(problems('openai-computer', configWith({ model: { name: 'claude-sonnet-4-5' } }))).toEqual([
      'The openai-computer dialect (chosen by the model profile for claude-sonnet-4-5) needs model.provider openai, but the model name claude-sonnet-4-5 implies anthropic: ' +
        `set model.provider to openai ("provider": "openai" under "model" in config.json), ${chooseAnother}`,
    ]);
    expect(problems('function-tools', withProvider('anthropic'))).toEqual([]);
    expect(problems('function-tools', withProvider('openai'))).toEqual([]);
  });

  it("keeps Gemini's computer_use to the google provider, and lets it offer extra tools", () => {
    const chooseAnother = 'or choose another dialect (--dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json).';
    const gemini = 'gemini-2.5-computer-use-preview-10-2025';
    expect(problems('gemini-computer-use', configWith({ model: { name: gemini, provider: 'openai' } }))).toEqual([
      `The gemini-computer-use dialect (chosen by the model profile for ${gemini}) needs model.provider google, but model.provider is openai: ` +
        `set model.provider to google ("provider": "google" under "model" in config.json), ${chooseAnother}`,
    ]);
    expect(problems('gemini-computer-use', configWith({ model: { name: gemini }, tavilyApiKey: 'tvly-x', servers: { files: { command: 'x', args: [] } } }))).toEqual([]);
  });

  it('refuses a dialect this build lacks, listing the ones it has', () => {
    expect(problems('qwen-computer-use', configWith(), ['function-tools', 'ui-tars'])).toEqual([
      'The qwen-computer-use dialect (chosen by the model profile for gpt-4.1) is not available in this build of Sightline ' +
        '(it has: function-tools, ui-tars): choose one of those with --dialect, SIGHTLINE_MODEL_DIALECT or model.dialect in config.json.',
    ]);
  });
});
