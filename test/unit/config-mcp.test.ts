/**
 * The mcp section: servers are a record of objects set in config.json (no environment variable), checked
 * whole by the schema and reported by the value inside that is wrong; the timeouts are ordinary leaves;
 * header and env values never shown.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REDACTED_SECRET, mcpSecretValues, redactConfig } from '../../src/shared/config.js';
import { ConfigError } from '../../src/main/config/errors.js';
import { CONFIG_FIELDS, CONFIG_RECORD_PATHS } from '../../src/main/config/fields.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';

let home: SightlineHome;
beforeEach(() => {
  home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-config-mcp-')));
});
afterEach(() => {
  rmSync(home.root, { recursive: true, force: true });
});

const SERVERS = {
  files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'], env: { GITHUB_TOKEN: 'ghp_secret_value', LOG_LEVEL: 'debug' } },
  tickets: { url: 'https://tickets.example.com/mcp', headers: { Authorization: 'Bearer tok_secret_value' } },
};

function loadError(env: Record<string, string> = {}): string {
  try {
    loadConfig({ home, env });
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the mcp config section', () => {
  it('reads servers from config.json, with defaults for what is left out', () => {
    writeFileSync(home.configFile, JSON.stringify({ mcp: { servers: { plain: { command: 'server' }, ...SERVERS } } }));
    const { config, sources } = loadConfig({ home, env: {} });
    expect(config.mcp.servers.plain).toEqual({ command: 'server', args: [] });
    expect(config.mcp.servers.tickets).toEqual(SERVERS.tickets);
    expect(config.mcp.callTimeoutMs).toBe(60_000);
    expect(sources['mcp.servers']).toMatchObject({ kind: 'file' });
  });

  it('has no servers and no source but the default when nothing is configured', () => {
    const { config, sources } = loadConfig({ home, env: {} });
    expect(config.mcp.servers).toEqual({});
    expect(sources['mcp.servers']).toEqual({ kind: 'default' });
  });

  it('gives the timeouts environment variables, but not the servers record', () => {
    expect(CONFIG_RECORD_PATHS).toEqual(['mcp.servers']);
    expect(CONFIG_FIELDS.map((field) => field.path)).not.toContain('mcp.servers');
    const { config } = loadConfig({ home, env: { SIGHTLINE_MCP_CALL_TIMEOUT_MS: '2500' } });
    expect(config.mcp.callTimeoutMs).toBe(2500);
    expect(loadError({ SIGHTLINE_MCP_SERVERS: '{}' })).toContain('SIGHTLINE_MCP_SERVERS: unknown setting');
  });

  it('reports a bad server name, a server of neither kind and a wrong value inside one, by their paths', () => {
    writeFileSync(
      home.configFile,
      JSON.stringify({ mcp: { servers: { 'my_server': { command: 'x' }, both: { command: 'x', url: 'https://a.example' }, bad: { command: 'x', args: 'not-a-list' } } } }),
    );
    const message = loadError();
    expect(message).toContain('mcp.servers.my_server: expected a server name of 1–24 letters, digits or "-", got "my_server"');
    expect(message).toContain('mcp.servers.both: expected a server with either "command"');
    expect(message).toContain('mcp.servers.bad.args: expected a list, got "not-a-list"');
  });

  it('hides every header and env value, and masks the secret ones in output', () => {
    writeFileSync(home.configFile, JSON.stringify({ mcp: { servers: SERVERS } }));
    const { config } = loadConfig({ home, env: {} });
    const shown = JSON.stringify(redactConfig(config));
    expect(shown).not.toContain('secret_value');
    expect(shown).not.toContain('debug');
    expect(shown).toContain(REDACTED_SECRET);
    expect(config.mcp.servers.tickets).toEqual(SERVERS.tickets);
    expect(mcpSecretValues(config).sort()).toEqual(['Bearer tok_secret_value', 'ghp_secret_value']);
  });
});
