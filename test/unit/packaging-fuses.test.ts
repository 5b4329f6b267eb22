/**
 * The packaged app's Electron fuses (issue 17, finding 8): electron-builder flips them from the
 * `electronFuses` block of electron-builder.yml. The app asks for Screen Recording and Accessibility, so
 * none of the ways to run other code under its name (RunAsNode, NODE_OPTIONS, --inspect, an app folder
 * beside the archive) may stay on. No YAML parser is a dependency: the block is a flat mapping of
 * booleans, read line by line, and anything else in it fails the test rather than being skipped.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CONFIG_PATH = resolve(import.meta.dirname, '../../electron-builder.yml');

/** The `electronFuses:` mapping of the packaging configuration, each fuse with its value. */
function readElectronFuses(text: string): Map<string, boolean> {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^electronFuses:\s*$/.test(line));
  if (start === -1) throw new Error('electron-builder.yml has no top-level electronFuses block');
  const fuses = new Map<string, boolean>();
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    // The next top-level key ends the block.
    if (!/^\s/.test(line)) break;
    const entry = /^\s+([A-Za-z]+):\s*(true|false)\s*(#.*)?$/.exec(line);
    if (entry === null) throw new Error(`electronFuses holds a line that is not "fuse: true|false": ${line}`);
    const [, name, value] = entry;
    if (fuses.has(name!)) throw new Error(`electronFuses sets ${name} twice`);
    fuses.set(name!, value === 'true');
  }
  return fuses;
}

describe('the packaged app’s Electron fuses', () => {
  const fuses = readElectronFuses(readFileSync(CONFIG_PATH, 'utf8'));

  it.each([
    ['runAsNode', false],
    ['enableNodeOptionsEnvironmentVariable', false],
    ['enableNodeCliInspectArguments', false],
    ['enableEmbeddedAsarIntegrityValidation', true],
    ['onlyLoadAppFromAsar', true],
  ] as const)('sets %s to %s', (fuse, expected) => {
    expect(fuses.get(fuse), `electronFuses.${fuse} in electron-builder.yml`).toBe(expected);
  });

  it('keeps the app in an asar archive, which the integrity check and OnlyLoadAppFromAsar need', () => {
    const text = readFileSync(CONFIG_PATH, 'utf8');
    expect(text).toMatch(/^asar: true\s*$/m);
  });

  it('reads a block it does not understand as a failure, not as fuses left unset', () => {
    expect(() => readElectronFuses('electronFuses:\n  runAsNode: "no"\n')).toThrow(/not "fuse: true\|false"/);
    expect(() => readElectronFuses('appId: x\n')).toThrow(/no top-level electronFuses/);
    expect(readElectronFuses('electronFuses:\n  runAsNode: false\nmac:\n  hardenedRuntime: true\n')).toEqual(new Map([['runAsNode', false]]));
  });
});
