import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contextPolicyOf, contextPolicyText, parseContextPolicy } from '../../src/shared/context-policy.js';
import { ConfigError } from '../../src/main/config/errors.js';
import { homeAt, type SightlineHome } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';

let home: SightlineHome;

beforeEach(() => {
  home = homeAt(mkdtempSync(join(tmpdir(), 'sightline-config-policy-')));
});

afterEach(() => {
  rmSync(home.root, { recursive: true, force: true });
});

function writeConfig(value: unknown): void {
  writeFileSync(home.configFile, JSON.stringify(value, null, 2));
}

function loadError(options: { env?: Record<string, string>; flags?: Record<string, unknown> } = {}): ConfigError {
  try {
    loadConfig({ home, env: options.env ?? {}, flags: options.flags ?? {}, flagNames: { 'context.policy': '--context-policy' } });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to throw a ConfigError');
}

describe('the text form of a context policy', () => {
  it('names sightline, keep-all and keep-last:N', () => {
    expect(parseContextPolicy('sightline')).toEqual({ kind: 'sightline' });
    expect(parseContextPolicy('keep-all')).toEqual({ kind: 'keep-all' });
    expect(parseContextPolicy('keep-last:1')).toEqual({ kind: 'keep-last', images: 1 });
    expect(parseContextPolicy('keep-last:12')).toEqual({ kind: 'keep-last', images: 12 });
  });

  it('names nothing for a window of no image, a count that is not a whole number, or another word', () => {
    for (const text of ['keep-last:0', 'keep-last:x', 'keep-last:', 'keep-last', 'keep-last:-2', 'keep-last:1.5', 'keep-last:03', 'window', 'Sightline', ' keep-all', '']) {
      expect(parseContextPolicy(text), text).toBeUndefined();
    }
  });

  it('reads back what it writes', () => {
    for (const text of ['sightline', 'keep-all', 'keep-last:5']) expect(contextPolicyText(contextPolicyOf(text))).toBe(text);
    expect(() => contextPolicyOf('window')).toThrow('context.policy: expected sightline, keep-all or keep-last:N');
  });
});

describe('context.policy', () => {
  it('is sightline by default', () => {
    const loaded = loadConfig({ home, env: {} });
    expect(loaded.config.context.policy).toBe('sightline');
    expect(loaded.sources['context.policy']).toEqual({ kind: 'default' });
  });

  it('is set from config.json, overridden by SIGHTLINE_CONTEXT_POLICY, overridden by --context-policy', () => {
    writeConfig({ context: { policy: 'keep-all' } });
    const fromFile = loadConfig({ home, env: {} });
    expect(fromFile.config.context.policy).toBe('keep-all');
    expect(fromFile.sources['context.policy']).toEqual({ kind: 'file', file: home.configFile });

    const fromEnvironment = loadConfig({ home, env: { SIGHTLINE_CONTEXT_POLICY: 'keep-last:3' } });
    expect(fromEnvironment.config.context.policy).toBe('keep-last:3');
    expect(fromEnvironment.sources['context.policy']).toEqual({ kind: 'env', variable: 'SIGHTLINE_CONTEXT_POLICY' });

    const fromFlag = loadConfig({
      home,
      env: { SIGHTLINE_CONTEXT_POLICY: 'keep-last:3' },
      flags: { 'context.policy': 'keep-last:1' },
      flagNames: { 'context.policy': '--context-policy' },
    });
    expect(fromFlag.config.context.policy).toBe('keep-last:1');
    expect(fromFlag.sources['context.policy']).toEqual({ kind: 'flag', flag: '--context-policy' });
    expect(contextPolicyOf(fromFlag.config.context.policy)).toEqual({ kind: 'keep-last', images: 1 });
  });

  it('says which forms are valid, with the value and where it came from', () => {
    const expected = 'context.policy: expected sightline, keep-all or keep-last:N (N a whole number from 1, e.g. keep-last:3)';
    writeConfig({ context: { policy: 'window' } });
    expect(loadError().message).toContain(`${expected}, got "window" (from config.json)`);
    expect(loadError({ env: { SIGHTLINE_CONTEXT_POLICY: 'keep-last:0' } }).message).toContain(`${expected}, got "keep-last:0" (from env SIGHTLINE_CONTEXT_POLICY)`);
    expect(loadError({ flags: { 'context.policy': 'keep-last:x' } }).message).toContain(`${expected}, got "keep-last:x" (from --context-policy)`);
  });

  it('takes text only in config.json', () => {
    writeConfig({ context: { policy: 3 } });
    expect(loadError().message).toContain('context.policy: expected a string, got 3 (from config.json)');
  });
});
