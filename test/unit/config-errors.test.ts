import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/main/config/errors.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';

let home: SightlineHome;

beforeEach(() => {
  home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-config-')));
});

afterEach(() => {
  rmSync(home.root, { recursive: true, force: true });
});

function loadError(options: { env?: Record<string, string>; flags?: Record<string, unknown>; flagNames?: Record<string, string> } = {}): ConfigError {
  try {
    loadConfig({ home, env: options.env ?? {}, flags: options.flags ?? {}, flagNames: options.flagNames ?? {} });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('config errors name the field, what was expected, what was found and the source', () => {
  it('reports a bad value in config.json', () => {
    writeFileSync(home.configFile, JSON.stringify({ perception: { dedup: { threshold: 99 } } }));
    const error = loadError();
    expect(error.message).toContain('perception.dedup.threshold: expected at most 64, got 99 (from config.json)');
    expect(error.message).toContain(home.configFile);
    expect(error.issues).toEqual([
      { path: 'perception.dedup.threshold', problem: 'expected at most 64, got 99', source: { kind: 'file', file: home.configFile } },
    ]);
  });

  it('reports a URL pattern it cannot read and an MCP server confirm policy it does not know, by their paths (issue 17)', () => {
    writeFileSync(
      home.configFile,
      JSON.stringify({
        agent: { blockedUrls: ['ftp://example.com/*'] },
        mcp: { servers: { notes: { command: 'notes-server', confirm: 'sometimes' } } },
      }),
    );
    const error = loadError();
    const paths = error.issues.map((issue) => issue.path);
    expect(paths).toContain('agent.blockedUrls.0');
    expect(paths).toContain('mcp.servers.notes.confirm');
    expect(error.issues.every((issue) => issue.source.kind === 'file')).toBe(true);
  });

  it('reports a bad value from an environment variable with the variable name', () => {
    const error = loadError({ env: { SIGHTLINE_AGENT_MAX_STEPS: 'lots' } });
    expect(error.message).toContain('agent.maxSteps: expected a number, got "lots" (from env SIGHTLINE_AGENT_MAX_STEPS)');
  });

  it('reports a bad value from a flag with the flag as typed', () => {
    const error = loadError({ flags: { 'agent.maxSteps': 0 }, flagNames: { 'agent.maxSteps': '--max-steps' } });
    expect(error.message).toContain('agent.maxSteps: expected at least 1, got 0 (from --max-steps)');
  });

  it('reports integers, enums, booleans and URLs with what they expect', () => {
    const error = loadError({
      env: {
        SIGHTLINE_AGENT_MAX_STEPS: '2.5',
        SIGHTLINE_AGENT_CONFIRM: 'sometimes',
        SIGHTLINE_PERCEPTION_DEDUP_ENABLED: 'maybe',
        OPENAI_BASE_URL: 'localhost',
      },
    });
    expect(error.message).toContain('agent.maxSteps: expected an integer, got 2.5');
    expect(error.message).toContain('agent.confirm: expected one of never, risky, always, got "sometimes" (from env SIGHTLINE_AGENT_CONFIRM)');
    expect(error.message).toContain('perception.dedup.enabled: expected true or false, got "maybe"');
    expect(error.message).toContain('model.baseUrl: expected a URL');
    expect(error.message).toContain('(from env OPENAI_BASE_URL)');
  });

  it('lists every bad field at once, from all sources', () => {
    writeFileSync(home.configFile, JSON.stringify({ storage: { retentionDays: 0 } }));
    const error = loadError({ env: { SIGHTLINE_SEARCH_MAX_ITERATIONS: '50' }, flags: { 'model.name': '' } });
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['model.name', 'search.maxIterations', 'storage.retentionDays']);
    expect(error.message).toContain('3 problems');
  });

  it('reports a section that is not an object', () => {
    writeFileSync(home.configFile, JSON.stringify({ agent: 'fast' }));
    expect(loadError().message).toContain('agent: expected an object, got "fast" (from config.json)');
  });

  it('reports a config file that is not a JSON object', () => {
    writeFileSync(home.configFile, '[1, 2]');
    expect(loadError().message).toContain('expected an object, got an array (from config.json)');
  });
});

describe('unknown names', () => {
  it('reports an unknown key in config.json by its path, with a suggestion', () => {
    writeFileSync(home.configFile, JSON.stringify({ perception: { dedupe: { threshold: 3 } } }));
    const error = loadError();
    expect(error.message).toContain('perception.dedupe: unknown field; did you mean perception.dedup? (from config.json)');
  });

  it('lists the known keys when nothing is close', () => {
    writeFileSync(home.configFile, JSON.stringify({ telemetry: true }));
    expect(loadError().message).toContain('telemetry: unknown field (the top level has: model, perception, storage, context, agent, search, mcp, worker)');
  });

  it('reports a misspelled SIGHTLINE_ variable of a known section', () => {
    const error = loadError({ env: { SIGHTLINE_AGENT_MAX_STEP: '3' } });
    expect(error.message).toContain('SIGHTLINE_AGENT_MAX_STEP: unknown setting; did you mean SIGHTLINE_AGENT_MAX_STEPS?');
  });

  it('leaves other variables alone', () => {
    expect(() => loadConfig({ home, env: { SIGHTLINE_HOME: '/elsewhere', PATH: '/bin', SIGHTLINE_LOG: 'x' } })).not.toThrow();
  });

  it('reports an unknown flag path', () => {
    expect(loadError({ flags: { 'model.nme': 'x' } }).message).toContain('model.nme: unknown field; did you mean model.name?');
  });
});

describe('secrets never appear in errors', () => {
  it('shows (secret) instead of a bad API key value', () => {
    writeFileSync(home.configFile, JSON.stringify({ model: { apiKey: 12345678 }, search: { tavilyApiKey: ['tvly-abc'] } }));
    const error = loadError();
    expect(error.message).toContain('model.apiKey: expected a string, got (secret) (from config.json)');
    expect(error.message).toContain('search.tavilyApiKey: expected a string, got (secret)');
    expect(error.message).not.toContain('12345678');
    expect(error.message).not.toContain('tvly-abc');
  });

  it('does not quote the file text when its JSON is invalid', () => {
    writeFileSync(home.configFile, '{"model": {"apiKey": "sk-very-secret" oops}}');
    const error = loadError();
    expect(error.message).not.toContain('sk-very-secret');
  });
});

describe('unreadable and malformed config files', () => {
  it('names the file, line and column of a JSON syntax error', () => {
    writeFileSync(home.configFile, '{\n  "model": {\n    "name": "x",\n  }\n}\n');
    const error = loadError();
    expect(error.message).toBe(`invalid JSON in ${home.configFile} at line 4, column 3: expected double-quoted property name`);
    expect(error.file).toBe(home.configFile);
  });

  it('finds the position of an unexpected token that V8 does not locate', () => {
    writeFileSync(home.configFile, '{\n  "agent": {\n    "maxSteps": ten\n  }\n}');
    expect(loadError().message).toBe(`invalid JSON in ${home.configFile} at line 3, column 18: unexpected token 'e'`);
  });

  it('reports a truncated file at its end', () => {
    writeFileSync(home.configFile, '{\n  "agent": ');
    expect(loadError().message).toBe(`invalid JSON in ${home.configFile} at line 2, column 12: unexpected end of input`);
  });

  it('accepts a byte-order mark', () => {
    writeFileSync(home.configFile, '\uFEFF{"agent": {"maxSteps": 3}}');
    expect(loadConfig({ home, env: {} }).config.agent.maxSteps).toBe(3);
  });

  it('reports a config path that is a folder', () => {
    mkdirSync(home.configFile);
    expect(loadError().message).toBe(`cannot read ${home.configFile}: it is a folder, not a file`);
  });

  it.skipIf(process.getuid?.() === 0)('reports a file it may not read', () => {
    writeFileSync(home.configFile, '{}');
    chmodSync(home.configFile, 0o000);
    expect(loadError().message).toBe(`cannot read ${home.configFile}: permission denied`);
  });
});
