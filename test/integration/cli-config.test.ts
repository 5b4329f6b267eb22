import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/main/cli/program.js';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { captureIo, runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;

beforeEach(() => {
  home = createTemporaryHome('sightline-cli-config');
});

afterEach(() => {
  home.remove();
});

function writeConfig(text: string): void {
  mkdirSync(home.root, { recursive: true });
  writeFileSync(home.configFile, text);
}

interface ShowJson {
  home: string;
  configFile: string;
  configFileExists: boolean;
  config: typeof DEFAULT_CONFIG;
  sources: Record<string, { kind: string; variable?: string; flag?: string; file?: string }>;
}

describe('sightline config path', () => {
  it('prints where config.json is for --home, without creating anything', async () => {
    const missingHome = join(home.root, 'elsewhere');
    const run = await runSightline(['--home', missingHome, 'config', 'path']);
    expect(run).toEqual({ exitCode: 0, stdout: `${join(missingHome, 'config.json')}\n`, stderr: '' });
    expect(existsSync(missingHome)).toBe(false);
  });

  it('follows SIGHTLINE_HOME when there is no --home', async () => {
    const run = await runSightline(['config', 'path'], { SIGHTLINE_HOME: home.root });
    expect(run.stdout).toBe(`${home.configFile}\n`);
  });

  it('accepts --home after the subcommand', async () => {
    const run = await runSightline(['config', 'path', '--home', home.root]);
    expect(run.stdout).toBe(`${home.configFile}\n`);
  });
});

describe('sightline config show', () => {
  it('shows every value with its source, secrets redacted', async () => {
    writeConfig(JSON.stringify({ agent: { maxSteps: 9 } }));
    const run = await runSightline(['--home', home.root, 'config', 'show'], {
      OPENAI_API_KEY: 'sk-do-not-print-me',
      SIGHTLINE_PERCEPTION_DEDUP_THRESHOLD: '8',
    });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`config file: ${home.configFile}\n`);
    expect(run.stdout).toMatch(/^agent\.maxSteps\s+9\s+config\.json$/m);
    expect(run.stdout).toMatch(/^perception\.dedup\.threshold\s+8\s+env SIGHTLINE_PERCEPTION_DEDUP_THRESHOLD$/m);
    expect(run.stdout).toMatch(/^model\.apiKey\s+\(set\)\s+env OPENAI_API_KEY$/m);
    expect(run.stdout).toMatch(/^model\.name\s+gpt-4\.1\s+default$/m);
    expect(run.stdout).toMatch(/^search\.tavilyApiKey\s+\(not set\)\s+set with TAVILY_API_KEY$/m);
    expect(run.stdout).not.toContain('sk-do-not-print-me');
  });

  it('shows the context policy: sightline by default, or the one the environment sets', async () => {
    const byDefault = await runSightline(['--home', home.root, 'config', 'show']);
    expect(byDefault.stdout).toMatch(/^context\.policy\s+sightline\s+default$/m);
    const fromEnvironment = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_CONTEXT_POLICY: 'keep-last:3' });
    expect(fromEnvironment.stdout).toMatch(/^context\.policy\s+keep-last:3\s+env SIGHTLINE_CONTEXT_POLICY$/m);
  });

  it('says when config.json does not exist', async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show']);
    expect(run.stdout).toContain(`config file: ${home.configFile} (not found: defaults apply)`);
  });

  it('prints JSON with the redacted config and the sources', async () => {
    writeConfig(JSON.stringify({ search: { tavilyApiKey: 'tvly-secret-value' } }));
    const run = await runSightline(['--home', home.root, 'config', 'show', '--json'], { SIGHTLINE_AGENT_OPERATOR: 'browser' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).not.toContain('tvly-secret-value');
    const shown = JSON.parse(run.stdout) as ShowJson;
    expect(shown).toMatchObject({ home: home.root, configFile: home.configFile, configFileExists: true });
    expect(shown.config.search.tavilyApiKey).toBe('(set)');
    expect(shown.config.agent.operator).toBe('browser');
    expect(shown.config.model).toEqual(DEFAULT_CONFIG.model);
    expect(shown.sources['agent.operator']).toEqual({ kind: 'env', variable: 'SIGHTLINE_AGENT_OPERATOR' });
    expect(shown.sources['search.tavilyApiKey']).toEqual({ kind: 'file', file: home.configFile });
    expect(shown.sources['model.name']).toEqual({ kind: 'default' });
  });
});

describe('sightline config show: the base URL by provider', () => {
  it("says OPENAI_BASE_URL goes unused for a Claude model, and names Anthropic's variable for its base URL", async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'claude-opus-4-5', OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^model\.baseUrl\s+\(not set\)\s+set with ANTHROPIC_BASE_URL$/m);
    expect(run.stdout).toContain('OPENAI_BASE_URL is set but not used: it counts for the openai provider only, and claude-opus-4-5 goes through anthropic\n');
    expect(run.stdout).not.toContain('http://localhost:11434/v1');
  });

  it('shows the base URL from the variable of the provider in effect, and lists the other as unused in JSON', async () => {
    const env = { SIGHTLINE_MODEL: 'claude-opus-4-5', OPENAI_BASE_URL: 'http://localhost:11434/v1', ANTHROPIC_BASE_URL: 'https://gateway.example.com' };
    const text = await runSightline(['--home', home.root, 'config', 'show'], env);
    expect(text.stdout).toMatch(/^model\.baseUrl\s+https:\/\/gateway\.example\.com\s+env ANTHROPIC_BASE_URL$/m);
    const json = JSON.parse((await runSightline(['--home', home.root, 'config', 'show', '--json'], env)).stdout) as ShowJson & { unusedVariables: string[] };
    expect(json.config.model.baseUrl).toBe('https://gateway.example.com');
    expect(json.sources['model.baseUrl']).toEqual({ kind: 'env', variable: 'ANTHROPIC_BASE_URL' });
    expect(json.unusedVariables).toEqual(['OPENAI_BASE_URL']);
  });

  it('names OPENAI_BASE_URL for an OpenAI model, with nothing unused', async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show']);
    expect(run.stdout).toMatch(/^model\.baseUrl\s+\(not set\)\s+set with OPENAI_BASE_URL$/m);
    expect(run.stdout).not.toContain('is set but not used');
  });
});

describe('sightline config show: the dialect in effect', () => {
  it('says the model profile chose it, with its coordinates and image sizing', async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toMatch(/^model\.dialect\s+\(not set\)\s+set with SIGHTLINE_MODEL_DIALECT$/m);
    expect(run.stdout).toContain(
      [
        'dialect: function-tools (model profile family gpt-4.1 for model gpt-4.1)',
        "  protocol:      function calls to Sightline's own tools",
        '  coordinates:   pixels of the image sent',
        '  image sizing:  longest edge at most 1280 px',
      ].join('\n'),
    );

    const uiTars = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'ui-tars-1.5-7b', SIGHTLINE_PERCEPTION_MAX_IMAGE_EDGE: '1600' });
    expect(uiTars.stdout).toContain('dialect: ui-tars (model profile family ui-tars-1.5 for model ui-tars-1.5-7b)');
    expect(uiTars.stdout).toContain('  coordinates:   pixels of the image sent\n');
    expect(uiTars.stdout).toContain(
      "  image sizing:  longest edge at most 1600 px, then the model's own smart resize (sides multiples of 28, 78,400 to 12,845,056 pixels)",
    );
    const qwen3 = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'qwen3-vl:8b' });
    expect(qwen3.stdout).toContain('dialect: qwen-computer-use (model profile family qwen3-vl for model qwen3-vl:8b)');
    expect(qwen3.stdout).toContain('  coordinates:   0–1000 on both axes, whatever the image size\n');
  });

  it("gives a Claude model Anthropic's computer tool through Anthropic's API, and function tools behind an OpenAI-compatible gateway, saying why", async () => {
    const direct = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'claude-sonnet-4-5' });
    expect(direct.stdout).toContain('dialect: anthropic-computer (model profile family claude for model claude-sonnet-4-5)');
    expect(direct.stdout).not.toContain('problem:');

    const gateway = await runSightline(['--home', home.root, 'config', 'show', '--json'], { SIGHTLINE_MODEL: 'claude-sonnet-4-5', SIGHTLINE_MODEL_PROVIDER: 'openai' });
    const shown = JSON.parse(gateway.stdout) as { dialect: Record<string, unknown> };
    expect(shown.dialect).toMatchObject({
      name: 'function-tools',
      reason: { kind: 'provider', family: 'claude', model: 'claude-sonnet-4-5', profileDialect: 'anthropic-computer', provider: 'openai', providerFrom: 'config' },
      why:
        'model.provider openai cannot carry anthropic-computer, the dialect of model profile family claude for model claude-sonnet-4-5: ' +
        'the one every provider carries',
      problems: [],
    });
    // OpenRouter's name for it: the name implies the OpenAI-compatible provider.
    const openRouter = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'anthropic/claude-sonnet-4-5' });
    expect(openRouter.stdout).toContain(
      'dialect: function-tools (provider openai, implied by the model name, cannot carry anthropic-computer, ' +
        'the dialect of model profile family claude for model anthropic/claude-sonnet-4-5: the one every provider carries)',
    );
  });

  it('says where model.dialect was set when it overrides the profile', async () => {
    writeConfig(JSON.stringify({ model: { name: 'ui-tars-1.5-7b', dialect: 'function-tools' } }));
    const fromFile = await runSightline(['--home', home.root, 'config', 'show']);
    expect(fromFile.stdout).toMatch(/^model\.dialect\s+function-tools\s+config\.json$/m);
    expect(fromFile.stdout).toContain('dialect: function-tools (model.dialect in config.json)');
    // The profile still says how the model names points and how its images are sized.
    expect(fromFile.stdout).toContain('then the model\'s own smart resize');
    const fromEnvironment = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL_DIALECT: 'ui-tars' });
    expect(fromEnvironment.stdout).toContain('dialect: ui-tars (environment variable SIGHTLINE_MODEL_DIALECT)');
  });

  it('names what keeps the combination from working', async () => {
    // model.api unset follows the dialect (modelApi); set to Chat Completions, it cannot carry openai-computer.
    const run = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'computer-use-preview', SIGHTLINE_MODEL_API: 'chat-completions' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('dialect: openai-computer (model profile family computer-use-preview for model computer-use-preview)');
    expect(run.stdout).toMatch(/^ {2}problem: +The openai-computer dialect .*needs model\.api responses.*set model\.api to responses/m);
    const fixed = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'computer-use-preview', SIGHTLINE_MODEL_API: 'responses' });
    expect(fixed.stdout).not.toContain('needs model.api responses');
    expect(fixed.stdout).toContain('  model api:     responses (model.api)\n');
  });

  it('gives gpt-5.4 OpenAI\'s GA computer tool on the Responses API, saying the dialect chose the API', async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'gpt-5.4' });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('dialect: openai-computer (model profile family gpt-5.4 for model gpt-5.4)');
    expect(run.stdout).toContain('  model api:     responses (model.api not set: the API the dialect needs)\n');
    expect(run.stdout).not.toContain('problem:');
    const functionTools = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'gpt-5.4', SIGHTLINE_MODEL_DIALECT: 'function-tools' });
    expect(functionTools.stdout).toContain('  model api:     chat-completions (model.api not set: the default)\n');
  });

  it('prints it as JSON with the reason, coordinates, sizing and problems', async () => {
    const run = await runSightline(['--home', home.root, 'config', 'show', '--json'], { SIGHTLINE_MODEL: 'Qwen/Qwen2.5-VL-7B-Instruct', TAVILY_API_KEY: 'tvly-x' });
    const shown = JSON.parse(run.stdout) as ShowJson & { dialect: Record<string, unknown> };
    expect(shown.dialect).toMatchObject({
      name: 'qwen-computer-use',
      reason: { kind: 'profile', family: 'qwen-vl', model: 'Qwen/Qwen2.5-VL-7B-Instruct' },
      why: 'model profile family qwen-vl for model Qwen/Qwen2.5-VL-7B-Instruct',
      coordinateSpace: 'pixels',
      maxImageEdge: 1280,
      imageSizing: { kind: 'smart-resize', factor: 28, minPixels: 3136, maxPixels: 12_845_056 },
    });
    expect(shown.dialect.problems).not.toEqual(expect.arrayContaining([expect.stringContaining('web_search')]));

    const flagged = await runSightline(['--home', home.root, 'config', 'show', '--json'], { SIGHTLINE_MODEL_DIALECT: 'ui-tars', TAVILY_API_KEY: 'tvly-x' });
    const withProblem = JSON.parse(flagged.stdout) as { dialect: { name: string; reason: unknown; problems: string[] } };
    expect(withProblem.dialect.name).toBe('ui-tars');
    expect(withProblem.dialect.reason).toEqual({ kind: 'config', source: { kind: 'env', variable: 'SIGHTLINE_MODEL_DIALECT' } });
    expect(withProblem.dialect.problems).toEqual(expect.arrayContaining([expect.stringMatching(/cannot offer .*web_search .*unset TAVILY_API_KEY/)]));
    expect(flagged.stdout).not.toContain('tvly-x');
  });
});

describe('sightline config show: the pricing in effect', () => {
  it('names the list price of a known model, and says costs are in tokens for one of unknown price', async () => {
    const known = await runSightline(['--home', home.root, 'config', 'show']);
    expect(known.stdout).toMatch(/^model\.pricing\s+\(not set\)\s+set in config\.json$/m);
    expect(known.stdout).toContain('pricing: $2 input, $0.5 cached input, $8 output per million tokens; automatic cache from 1,024 tokens (the list price of gpt-4.1)');
    const unknown = await runSightline(['--home', home.root, 'config', 'show'], { SIGHTLINE_MODEL: 'qwen2.5-vl-7b-instruct' });
    expect(unknown.stdout).toContain('pricing: unknown for qwen2.5-vl-7b-instruct: costs are shown in tokens and no prompt cache is assumed');
  });

  it('shows model.pricing from config.json as one value, in text and JSON', async () => {
    const table = { inputPerMillion: 3, cachedInputPerMillion: 0.3, outputPerMillion: 15, cacheWriteMultiplier: 1.25, cache: 'breakpoints', minimumCacheableTokens: 1024 };
    writeConfig(JSON.stringify({ model: { name: 'claude-sonnet-4-5', pricing: { ...table, inputPerMillion: 2.5 } } }));
    const text = await runSightline(['--home', home.root, 'config', 'show']);
    expect(text.stdout).toMatch(/^model\.pricing\s+\{"inputPerMillion":2\.5,.*\}\s+config\.json$/m);
    expect(text.stdout).toContain('pricing: $2.5 input, $0.3 cached input, $15 output per million tokens; cache at breakpoints from 1,024 tokens, writes at 1.25× input (model.pricing)');
    const json = JSON.parse((await runSightline(['--home', home.root, 'config', 'show', '--json'])).stdout) as ShowJson & { pricing: unknown };
    expect(json.pricing).toEqual({ pricing: { ...table, inputPerMillion: 2.5 }, from: 'config' });
    expect(json.sources['model.pricing']).toEqual({ kind: 'file', file: home.configFile });
  });
});

describe('configuration errors in the CLI', () => {
  it('exit 2 and name the bad field and its source', async () => {
    writeConfig(JSON.stringify({ perception: { dedup: { threshold: -1 } } }));
    const run = await runSightline(['--home', home.root, 'config', 'show']);
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('perception.dedup.threshold: expected at least 0, got -1 (from config.json)');
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('name an unknown key with a suggestion', async () => {
    writeConfig(JSON.stringify({ perception: { dedupe: {} } }));
    const run = await runSightline(['--home', home.root, 'config', 'show', '--json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('perception.dedupe: unknown field; did you mean perception.dedup? (from config.json)');
  });

  it('give the line and column of invalid JSON', async () => {
    writeConfig('{\n  "agent": { "maxSteps": 5, }\n}\n');
    const run = await runSightline(['--home', home.root, 'config', 'show']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`sightline: invalid JSON in ${home.configFile} at line 2, column 29: expected double-quoted property name\n`);
  });

  it('do not stop `config path`, which is how a user finds the file to fix', async () => {
    writeConfig('not json');
    const run = await runSightline(['--home', home.root, 'config', 'path']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toBe(`${home.configFile}\n`);
  });
});

/** Every command path in the program, e.g. ['config', 'show']. */
function commandPaths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((child) => {
    const path = [...prefix, child.name()];
    return [path, ...commandPaths(child, path)];
  });
}

function words(commandLine: string): string[] {
  return commandLine === '' ? [] : commandLine.split(' ');
}

describe('usage', () => {
  const paths = commandPaths(buildProgram({ io: captureIo(), exitCode: 0 }));

  it('has the doctor and config commands', () => {
    expect(paths).toEqual(expect.arrayContaining([['doctor'], ['config'], ['config', 'show'], ['config', 'path']]));
  });

  const commandLines = ['', ...paths.map((path) => path.join(' '))];

  it.each(commandLines)('--help works for `sightline %s`', async (commandLine) => {
    const run = await runSightline([...words(commandLine), '--help']);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain(`Usage: ${['sightline', ...words(commandLine)].join(' ')}`);
  });

  it.each(['doctor --bogus', 'config show --bogus', 'config path --bogus'])('an unknown option exits 2: `sightline %s`', async (commandLine) => {
    const run = await runSightline(words(commandLine));
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("unknown option '--bogus'");
  });

  it('an unknown subcommand or extra argument exits 2', async () => {
    expect((await runSightline(['config', 'frobnicate'])).exitCode).toBe(2);
    expect((await runSightline(['doctor', 'now'])).exitCode).toBe(2);
  });
});
