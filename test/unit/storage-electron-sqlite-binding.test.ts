/**
 * better-sqlite3 for both runtimes (issue 18, item 1): the CLI and the tests load the build `npm ci` made
 * for Node; `npm start` builds one for Electron into a side folder and the app opens the database with it;
 * a packaged app uses the one electron-builder rebuilt. The downloader and the compiler are fakes: they
 * write what the real tools write (build/Release/better_sqlite3.node in the folder they run in).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/main/app/runtime.js';
import { homeAt } from '../../src/main/config/home.js';
import { DatabaseOpenError, openDatabase } from '../../src/main/storage/database.js';
import { ConfigSchema } from '../../src/shared/config.js';
import {
  ElectronSqliteBuildError,
  ensureElectronSqliteBinding,
  type BuildCommand,
  type BuildCommandResult,
  type ElectronSqliteBuildOptions,
} from '../../src/main/storage/electron-sqlite-build.js';
import {
  ElectronBindingMissingError,
  chooseSqliteBinding,
  electronBindingFolder,
  inspectElectronBinding,
  registersForModuleVersion,
} from '../../src/main/storage/sqlite-binding.js';

const ELECTRON_ABI = '145';
/** What Node's build in node_modules/better-sqlite3 holds; no step may change it. */
const NODE_BUILD = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from(' node_register_module_v115 ')]);

function sharedLibrary(moduleVersion: string): Buffer {
  return Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from(` node_register_module_v${moduleVersion}\0 more code`)]);
}

type ToolName = 'prebuild-install' | 'node-gyp';
type ToolBehaviour = 'builds' | 'fails' | 'builds-for-node' | 'succeeds-without-output';

/** Plays both tools: each writes (or not) build/Release/better_sqlite3.node in its working folder. */
class FakeTools {
  readonly commands: BuildCommand[] = [];
  behaviour: Record<ToolName, ToolBehaviour> = { 'prebuild-install': 'builds', 'node-gyp': 'builds' };

  readonly run = async (command: BuildCommand): Promise<BuildCommandResult> => {
    this.commands.push(command);
    const tool: ToolName = command.args[0] === '/tools/prebuild-install/bin.js' ? 'prebuild-install' : 'node-gyp';
    const behaviour = this.behaviour[tool];
    if (behaviour === 'fails') {
      return { exitCode: 1, output: `${tool} warn install getaddrinfo ENOTFOUND github.com\ngyp ERR! not ok` };
    }
    if (behaviour !== 'succeeds-without-output') {
      mkdirSync(join(command.cwd, 'build', 'Release'), { recursive: true });
      const bytes = behaviour === 'builds' ? sharedLibrary(ELECTRON_ABI) : sharedLibrary('115');
      writeFileSync(join(command.cwd, 'build', 'Release', 'better_sqlite3.node'), bytes);
    }
    return { exitCode: 0, output: '' };
  };

  toolsRun(): ToolName[] {
    return this.commands.map((command) => (command.args[0] === '/tools/prebuild-install/bin.js' ? 'prebuild-install' : 'node-gyp'));
  }
}

let projectRoot: string;
let tools: FakeTools;

function nodeBuildPath(): string {
  return join(projectRoot, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
}

function installBetterSqlite(version: string): void {
  const packageFolder = join(projectRoot, 'node_modules', 'better-sqlite3');
  mkdirSync(join(packageFolder, 'src'), { recursive: true });
  mkdirSync(join(packageFolder, 'build', 'Release'), { recursive: true });
  writeFileSync(join(packageFolder, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version }));
  writeFileSync(join(packageFolder, 'binding.gyp'), '{}');
  writeFileSync(join(packageFolder, 'src', 'better_sqlite3.cpp'), '// sources');
  writeFileSync(nodeBuildPath(), NODE_BUILD);
}

function buildOptions(overrides: Partial<ElectronSqliteBuildOptions> = {}): ElectronSqliteBuildOptions {
  return {
    projectRoot,
    electronVersion: '41.7.1',
    arch: 'x64',
    moduleVersion: ELECTRON_ABI,
    platform: 'linux',
    tools: { prebuildInstall: '/tools/prebuild-install/bin.js', nodeGyp: '/tools/node-gyp/bin/node-gyp.js' },
    run: tools.run,
    nodePath: '/usr/bin/node',
    ...overrides,
  };
}

function insideElectron(overrides: { electronVersion?: string; isPackaged?: boolean } = {}) {
  return {
    electronVersion: overrides.electronVersion ?? '41.7.1',
    isPackaged: overrides.isPackaged ?? false,
    projectRoot,
    arch: 'x64',
    moduleVersion: ELECTRON_ABI,
  };
}

beforeEach(() => {
  projectRoot = mkdtempSync(join(tmpdir(), 'sightline-native-'));
  installBetterSqlite('12.11.1');
  tools = new FakeTools();
});

afterEach(() => {
  rmSync(projectRoot, { recursive: true, force: true });
});

describe('which better-sqlite3 a process loads', () => {
  it('is the installed one under Node: the CLI, the tests and the MCP server', () => {
    expect(chooseSqliteBinding({ ...insideElectron(), electronVersion: undefined })).toBeUndefined();
  });

  it('is the one electron-builder rebuilt in a packaged app, even when no side folder exists', () => {
    expect(chooseSqliteBinding(insideElectron({ isPackaged: true }))).toBeUndefined();
  });

  it('is the side folder’s under Electron from a checkout, once built', async () => {
    const outcome = await ensureElectronSqliteBinding(buildOptions());
    expect(outcome.action).toBe('built');
    const chosen = chooseSqliteBinding(insideElectron());
    expect(chosen).toBe(join(electronBindingFolder(buildOptions()), 'better_sqlite3.node'));
    expect(chosen).toContain(join('node_modules', '.cache', 'sightline-electron', '41.7.1-x64'));
  });

  it('refuses, saying which command builds it, when Electron has no build yet', () => {
    const attempt = () => chooseSqliteBinding(insideElectron());
    expect(attempt).toThrow(ElectronBindingMissingError);
    expect(attempt).toThrow(/Run `npm run native:electron`/);
  });
});

describe('building better-sqlite3 for Electron', () => {
  it('fetches a prebuilt binary for the Electron version in a copy of the package, leaving Node’s build alone', async () => {
    const outcome = await ensureElectronSqliteBinding(buildOptions());

    expect(outcome).toMatchObject({ action: 'built', builtWith: 'prebuild-install' });
    expect(tools.toolsRun()).toEqual(['prebuild-install']);
    const [command] = tools.commands;
    expect(command!.file).toBe('/usr/bin/node');
    expect(command!.args).toEqual(
      expect.arrayContaining(['--runtime=electron', '--target=41.7.1', '--arch=x64', '--platform=linux']),
    );
    expect(command!.cwd).not.toBe(join(projectRoot, 'node_modules', 'better-sqlite3'));
    expect(readFileSync(nodeBuildPath())).toEqual(NODE_BUILD);
    // The work copy is gone; only the finished folder remains.
    expect(readdirSync(join(projectRoot, 'node_modules', '.cache', 'sightline-electron'))).toEqual(['41.7.1-x64']);
  });

  it('does not copy Node’s build into the work folder, where a tool could take it for its own', async () => {
    tools.behaviour['prebuild-install'] = 'succeeds-without-output';
    tools.behaviour['node-gyp'] = 'succeeds-without-output';
    await expect(ensureElectronSqliteBinding(buildOptions())).rejects.toThrow(
      /prebuild-install succeeded, but it left no better_sqlite3\.node\n.*node-gyp succeeded, but it left no better_sqlite3\.node/,
    );
  });

  it('keeps a complete build and runs nothing', async () => {
    await ensureElectronSqliteBinding(buildOptions());
    tools.commands.length = 0;

    const outcome = await ensureElectronSqliteBinding(buildOptions());

    expect(outcome.action).toBe('kept');
    expect(tools.commands).toEqual([]);
  });

  it('compiles against Electron’s headers with node-gyp when no prebuilt binary can be fetched', async () => {
    tools.behaviour['prebuild-install'] = 'fails';

    const outcome = await ensureElectronSqliteBinding(buildOptions());

    expect(outcome).toMatchObject({ action: 'built', builtWith: 'node-gyp' });
    expect(tools.toolsRun()).toEqual(['prebuild-install', 'node-gyp']);
    expect(tools.commands[1]!.args).toEqual(
      expect.arrayContaining(['rebuild', '--runtime=electron', '--target=41.7.1', '--dist-url=https://electronjs.org/headers']),
    );
    // npm's nodedir would point node-gyp at Node's headers.
    for (const command of tools.commands) expect(command.unsetEnvironment).toContain('npm_config_nodedir');
    expect(chooseSqliteBinding(insideElectron())).toBeDefined();
  });

  it('rejects a build for Node’s ABI and tries the next way', async () => {
    tools.behaviour['prebuild-install'] = 'builds-for-node';
    tools.behaviour['node-gyp'] = 'builds-for-node';

    const failure = await ensureElectronSqliteBinding(buildOptions()).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ElectronSqliteBuildError);
    expect((failure as Error).message).toMatch(/not built for Electron's ABI 145 \(is npm's nodedir set/);
    expect(existsSync(electronBindingFolder(buildOptions()))).toBe(false);
  });

  it.each([
    ['linux', /build-essential python3/],
    ['darwin', /xcode-select --install/],
    ['win32', /Visual Studio Build Tools/],
  ] as const)('on %s, says which build tools to install and how to retry when both ways fail', async (platform, tools_) => {
    tools.behaviour = { 'prebuild-install': 'fails', 'node-gyp': 'fails' };

    const failure = await ensureElectronSqliteBinding(buildOptions({ platform })).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ElectronSqliteBuildError);
    const message = (failure as Error).message;
    expect(message).toMatch(tools_);
    expect(message).toContain('retry with `npm run native:electron` or `npm start`');
    expect(message).toContain('prebuild-install exited with code 1: prebuild-install warn install getaddrinfo ENOTFOUND github.com');
    expect(message).not.toMatch(/^\s+at /m);
    expect(existsSync(electronBindingFolder(buildOptions()))).toBe(false);
  });

  it('builds again for a new Electron version and removes the build for the old one', async () => {
    await ensureElectronSqliteBinding(buildOptions());
    expect(() => chooseSqliteBinding(insideElectron({ electronVersion: '42.0.0' }))).toThrow(/Electron 42\.0\.0/);
    tools.commands.length = 0;

    const outcome = await ensureElectronSqliteBinding(buildOptions({ electronVersion: '42.0.0' }));

    expect(outcome.action).toBe('built');
    expect(tools.commands[0]!.args).toContain('--target=42.0.0');
    expect(readdirSync(join(projectRoot, 'node_modules', '.cache', 'sightline-electron'))).toEqual(['42.0.0-x64']);
  });

  it('builds again when better-sqlite3 was upgraded', async () => {
    await ensureElectronSqliteBinding(buildOptions());
    installBetterSqlite('12.12.0');

    expect(inspectElectronBinding(buildOptions(), '12.12.0')).toMatchObject({ state: 'outdated' });
    expect((await ensureElectronSqliteBinding(buildOptions())).action).toBe('built');
  });

  it('builds again over a truncated binding', async () => {
    const built = await ensureElectronSqliteBinding(buildOptions());
    truncateSync(built.bindingPath, 10);

    expect(inspectElectronBinding(buildOptions(), '12.11.1')).toMatchObject({ state: 'damaged' });
    expect(() => chooseSqliteBinding(insideElectron())).toThrow(/truncated or overwritten/);
    expect((await ensureElectronSqliteBinding(buildOptions())).action).toBe('built');
    expect(chooseSqliteBinding(insideElectron())).toBe(built.bindingPath);
  });

  it('builds again over an interrupted build: a binding without its manifest, or an unreadable manifest', async () => {
    const folder = electronBindingFolder(buildOptions());
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'better_sqlite3.node'), sharedLibrary(ELECTRON_ABI));
    expect(inspectElectronBinding(buildOptions(), '12.11.1')).toMatchObject({ state: 'damaged', reason: expect.stringMatching(/half-way/) });

    writeFileSync(join(folder, 'binding.json'), '{"electronVersion": ');
    expect(inspectElectronBinding(buildOptions(), '12.11.1')).toMatchObject({ state: 'damaged', reason: expect.stringMatching(/unreadable/) });

    expect((await ensureElectronSqliteBinding(buildOptions())).action).toBe('built');
    expect(inspectElectronBinding(buildOptions(), '12.11.1').state).toBe('ready');
  });

  it('reads the ABI from the module’s entry point, not a prefix of a longer number', () => {
    expect(registersForModuleVersion(sharedLibrary('145'), '145')).toBe(true);
    expect(registersForModuleVersion(sharedLibrary('145'), '14')).toBe(false);
    expect(registersForModuleVersion(sharedLibrary('115'), '145')).toBe(false);
  });
});

describe('opening the database with a chosen binding', () => {
  it('loads the binding it is given, and reports one that cannot load as an open failure', () => {
    const folder = mkdtempSync(join(tmpdir(), 'sightline-binding-db-'));
    try {
      // Under Node, Node's own build stands in for the side folder's: the path is what is being passed.
      const nodeBuild = join(createRequire(import.meta.url).resolve('better-sqlite3/package.json'), '..', 'build', 'Release', 'better_sqlite3.node');
      const database = openDatabase(join(folder, 'with-binding.db'), { nativeBinding: nodeBuild });
      expect(database.pragma('user_version', { simple: true })).toBeGreaterThan(0);
      database.close();

      expect(() => openDatabase(join(folder, 'missing-binding.db'), { nativeBinding: join(folder, 'absent.node') })).toThrow(DatabaseOpenError);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('reaches the database from the runtime the app opens', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sightline-binding-runtime-'));
    try {
      const opening = openRuntime({ home: homeAt(folder), config: ConfigSchema.parse({}), sqliteBinding: join(folder, 'absent.node') });
      await expect(opening).rejects.toThrow(DatabaseOpenError);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
