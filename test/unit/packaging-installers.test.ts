/**
 * Shipping like an app (issue 18, item 4): the installers carry Sightline's icons, made from one source by
 * scripts/icons.ts; electron-builder is pinned and the package scripts run that copy; the signed macOS app
 * gets the hardened runtime's entitlements; each mac build targets the machine it runs on, since native
 * modules are not cross-built. The configuration is read with electron-builder's own YAML reader and
 * checked against its own schema, so a key it would reject fails here.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ICNS_TYPES } from '../../scripts/icon-containers.js';
import { ICO_SIZES, LINUX_SIZES, generateIcons } from '../../scripts/icon-set.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BUILD_RESOURCES = join(ROOT, 'resources', 'build');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};

/** electron-builder's own modules, reached from the pinned electron-builder as it reaches them. */
const builderRequire = createRequire(createRequire(join(ROOT, 'package.json')).resolve('electron-builder/package.json'));
const appBuilderRequire = createRequire(builderRequire.resolve('app-builder-lib/package.json'));

interface BuilderTarget {
  target: string;
  arch?: string[];
}

interface BuilderConfig {
  files: string[];
  npmRebuild: boolean;
  mac: {
    target: BuilderTarget[];
    icon: string;
    hardenedRuntime: boolean;
    entitlements: string;
    entitlementsInherit: string;
    extendInfo: Record<string, string>;
  };
  win: { icon: string };
  linux: { icon: string };
}

function readBuilderConfig(): BuilderConfig {
  const yaml = appBuilderRequire('js-yaml') as { load: (text: string) => unknown };
  return yaml.load(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Every image of an .ico, its directory entry's size checked against the PNG it points to. */
function parseIco(file: Buffer): number[] {
  expect(file.readUInt16LE(0), 'reserved').toBe(0);
  expect(file.readUInt16LE(2), 'type 1 = icon').toBe(1);
  const count = file.readUInt16LE(4);
  return Array.from({ length: count }, (_, index) => {
    const entry = 6 + index * 16;
    const declared = file.readUInt8(entry) === 0 ? 256 : file.readUInt8(entry);
    expect(file.readUInt8(entry + 1) === 0 ? 256 : file.readUInt8(entry + 1)).toBe(declared);
    expect(file.readUInt16LE(entry + 4), 'planes').toBe(1);
    expect(file.readUInt16LE(entry + 6), 'bits per pixel').toBe(32);
    const length = file.readUInt32LE(entry + 8);
    const offset = file.readUInt32LE(entry + 12);
    expect(offset + length).toBeLessThanOrEqual(file.length);
    expect(pngSize(file.subarray(offset, offset + length))).toEqual({ width: declared, height: declared });
    return declared;
  });
}

/** Every block of an .icns as [type, pixel size], each length checked and each PNG's size matching its type. */
function parseIcns(file: Buffer): [string, number][] {
  expect(file.toString('ascii', 0, 4)).toBe('icns');
  expect(file.readUInt32BE(4), 'the header holds the file length').toBe(file.length);
  const sizeOfType = new Map(ICNS_TYPES.map(({ type, size }) => [type, size]));
  const blocks: [string, number][] = [];
  for (let offset = 8; offset < file.length; ) {
    const type = file.toString('ascii', offset, offset + 4);
    const length = file.readUInt32BE(offset + 4);
    expect(length).toBeGreaterThan(8);
    expect(offset + length).toBeLessThanOrEqual(file.length);
    const { width, height } = pngSize(file.subarray(offset + 8, offset + length));
    expect(sizeOfType.get(type), `${type} is a PNG type`).toBe(width);
    expect(height).toBe(width);
    blocks.push([type, width]);
    offset += length;
  }
  return blocks;
}

function expectCompleteIconSet(folder: string): void {
  const ico = parseIco(readFileSync(join(folder, 'icon.ico')));
  expect(ico).toEqual([...ICO_SIZES]);
  const icns = parseIcns(readFileSync(join(folder, 'icon.icns')));
  expect(icns.map(([type]) => type).sort()).toEqual(['ic07', 'ic08', 'ic09', 'ic10', 'ic11', 'ic12', 'ic13', 'ic14', 'icp4', 'icp5', 'icp6']);
  for (const size of LINUX_SIZES) {
    expect(pngSize(readFileSync(join(folder, 'icons', `${size}x${size}.png`)))).toEqual({ width: size, height: size });
  }
}

describe('the installers’ icons', () => {
  it('are committed: a parseable .icns, .ico and Linux set, made from the one source image', () => {
    expect(existsSync(join(BUILD_RESOURCES, 'icon-source.svg'))).toBe(true);
    expectCompleteIconSet(BUILD_RESOURCES);
  });

  it('come out of scripts/icons.ts as valid containers with every size', async () => {
    const output = mkdtempSync(join(tmpdir(), 'sightline-icons-'));
    try {
      const generated = await generateIcons(join(BUILD_RESOURCES, 'icon-source.svg'), output);
      expect(generated.pngs).toHaveLength(LINUX_SIZES.length);
      expectCompleteIconSet(output);
    } finally {
      rmSync(output, { recursive: true, force: true });
    }
  });

  it('are what electron-builder.yml names for each platform', () => {
    const config = readBuilderConfig();
    expect(existsSync(join(BUILD_RESOURCES, config.mac.icon))).toBe(true);
    expect(config.mac.icon).toBe('icon.icns');
    expect(config.win.icon).toBe('icon.ico');
    expect(readdirSync(join(BUILD_RESOURCES, config.linux.icon))).toEqual(expect.arrayContaining(['512x512.png', '256x256.png']));
    expect(packageJson.scripts['icons']).toBe('tsx scripts/icons.ts');
  });
});

describe('electron-builder', () => {
  it('is a pinned devDependency, installed at that version', () => {
    const pinned = packageJson.devDependencies['electron-builder'];
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    const installed = (builderRequire('./package.json') as { version: string }).version;
    expect(installed).toBe(pinned);
  });

  it('runs from node_modules in every package script, never through npx', () => {
    const packageScripts = Object.entries(packageJson.scripts).filter(([name]) => name === 'package' || name.startsWith('package:'));
    expect(packageScripts.map(([name]) => name).sort()).toEqual(['package', 'package:linux', 'package:mac', 'package:win']);
    for (const [, command] of packageScripts) {
      expect(command).not.toMatch(/npx/);
      expect(command).toMatch(/^electron-vite build && electron-builder --config electron-builder\.yml/);
    }
  });

  it('accepts electron-builder.yml under its own schema', async () => {
    const { validateConfiguration } = appBuilderRequire('./out/util/config/config.js') as {
      validateConfiguration: (config: unknown, logger: { add: () => void; isEnabled: boolean }) => Promise<void>;
    };
    await expect(validateConfiguration(readBuilderConfig(), { add: () => undefined, isEnabled: false })).resolves.toBeUndefined();
    await expect(validateConfiguration({ mac: { entitlementz: 'x' } }, { add: () => undefined, isEnabled: false })).rejects.toThrow(
      /configuration\.mac/,
    );
  });

  it('rebuilds native modules for the target and leaves npm start’s Electron build of SQLite out', () => {
    const config = readBuilderConfig();
    expect(config.npmRebuild).toBe(true);
    expect(config.files).toContain('!node_modules/.cache/**');
  });
});

describe('the macOS build', () => {
  it('targets only the architecture of the Mac it is built on', () => {
    const config = readBuilderConfig();
    for (const target of config.mac.target) expect(target.arch, `${target.target} names no architecture`).toBeUndefined();
    expect(packageJson.scripts['package:mac']).not.toMatch(/--(x64|arm64|universal)/);
    // electron-updater downloads the zip on macOS.
    expect(config.mac.target.map((target) => target.target)).toEqual(['dmg', 'zip']);
  });

  it('signs with the hardened runtime and the entitlements file, for the app and its helpers', () => {
    const config = readBuilderConfig();
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.entitlements).toBe('resources/build/entitlements.mac.plist');
    expect(config.mac.entitlementsInherit).toBe(config.mac.entitlements);
    const plist = readFileSync(join(ROOT, config.mac.entitlements), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]);
    expect(granted).toEqual(['com.apple.security.cs.allow-jit']);
  });

  it('explains Screen Recording, and claims no Apple Events it does not send', () => {
    const info = readBuilderConfig().mac.extendInfo;
    expect(info['NSScreenCaptureUsageDescription']).toMatch(/captures the screen/);
    expect(Object.keys(info)).toEqual(['NSScreenCaptureUsageDescription']);
  });
});
