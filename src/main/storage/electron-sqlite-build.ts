/**
 * Builds better-sqlite3 for Electron into the side folder sqlite-binding.ts reads, leaving the copy in
 * node_modules/better-sqlite3 (Node's, for the CLI and the tests) untouched. First the pinned
 * prebuild-install fetches a prebuilt binary for the Electron version; when there is none (or no network),
 * node-gyp compiles one against Electron's headers. Both run on a copy of the package, since each writes
 * build/Release/better_sqlite3.node in the folder it runs in. The commands are injected, so the choice of
 * what to do is tested under Node without a download or a compiler.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import {
  ELECTRON_SQLITE_BUILD_COMMAND,
  SQLITE_BINDING_FILE,
  SQLITE_BINDING_MANIFEST,
  electronBindingCacheRoot,
  electronBindingFolder,
  inspectElectronBinding,
  installedBetterSqliteVersion,
  isNativeLibrary,
  registersForModuleVersion,
  sha256,
  type ElectronBindingTarget,
  type SqliteBindingManifest,
} from './sqlite-binding.js';

export interface BuildCommand {
  file: string;
  args: string[];
  cwd: string;
  /** Environment variables the command must not inherit. */
  unsetEnvironment: string[];
}

export interface BuildCommandResult {
  /** The exit code; null when the command could not start or was killed. */
  exitCode: number | null;
  /** Its stdout and stderr together, for the failure message. */
  output: string;
}

export type RunBuildCommand = (command: BuildCommand) => Promise<BuildCommandResult>;

/** The scripts of the two build tools, run with the current Node. */
export interface BuildTools {
  prebuildInstall: string;
  nodeGyp: string;
}

export interface ElectronSqliteBuildOptions extends ElectronBindingTarget {
  /** process.platform: which build tools the failure message names. */
  platform: NodeJS.Platform;
  tools: BuildTools;
  run: RunBuildCommand;
  /** The Node that runs the tools (process.execPath). */
  nodePath: string;
}

export type ElectronSqliteBuildOutcome =
  | { action: 'kept'; bindingPath: string }
  | { action: 'built'; bindingPath: string; builtWith: SqliteBindingManifest['builtWith']; reason: string };

/** Both ways to get a binding failed; the message says what to install and how to retry, without a stack. */
export class ElectronSqliteBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ElectronSqliteBuildError';
  }
}

/** Keeps a usable side-folder binding, or builds one: when missing, for another Electron, or damaged. */
export async function ensureElectronSqliteBinding(options: ElectronSqliteBuildOptions): Promise<ElectronSqliteBuildOutcome> {
  const betterSqliteVersion = installedBetterSqliteVersion(options.projectRoot);
  const found = inspectElectronBinding(options, betterSqliteVersion);
  if (found.state === 'ready') return { action: 'kept', bindingPath: found.bindingPath };

  const workFolder = prepareWorkFolder(options);
  try {
    const attempts: string[] = [];
    for (const attempt of buildAttempts(options, workFolder)) {
      const result = await options.run(attempt.command);
      const built = result.exitCode === 0 ? checkedBuild(join(workFolder, 'build', 'Release', SQLITE_BINDING_FILE), options.moduleVersion) : undefined;
      if (built !== undefined && 'bytes' in built) {
        const bindingPath = install(options, built.bytes, { betterSqliteVersion, builtWith: attempt.name });
        return { action: 'built', bindingPath, builtWith: attempt.name, reason: found.reason };
      }
      attempts.push(describeFailedAttempt(attempt.name, result, built?.problem));
      // A failed download may leave a partial file behind; node-gyp must not mistake it for its own.
      rmSync(join(workFolder, 'build'), { recursive: true, force: true });
    }
    throw new ElectronSqliteBuildError(buildFailureMessage(options, attempts));
  } finally {
    rmSync(workFolder, { recursive: true, force: true });
  }
}

/** What to install for node-gyp on each system, and how to retry. */
export function buildFailureMessage(target: { electronVersion: string; arch: string; platform: NodeJS.Platform }, attempts: string[]): string {
  return [
    `Could not build SQLite (better-sqlite3) for Electron ${target.electronVersion} (${target.arch}), which \`npm start\` and \`npm run dev\` need.`,
    ...attempts.map((attempt) => `  - ${attempt}`),
    `No prebuilt binary could be downloaded, so it has to be compiled, which needs ${buildToolsFor(target.platform)}.`,
    `Install them (and check that github.com and electronjs.org are reachable), then retry with \`${ELECTRON_SQLITE_BUILD_COMMAND}\` or \`npm start\`.`,
    'The CLI (`npx sightline`) and the tests do not need this build: they use the one `npm ci` made for Node.',
  ].join('\n');
}

function buildToolsFor(platform: NodeJS.Platform): string {
  switch (platform) {
    case 'darwin':
      return "Xcode's command line tools (`xcode-select --install`) and Python 3";
    case 'win32':
      return 'Visual Studio Build Tools with the "Desktop development with C++" workload, and Python 3';
    default:
      return 'a C++ compiler, make and Python 3 (Debian/Ubuntu: `sudo apt-get install build-essential python3`; Fedora: `sudo dnf install gcc-c++ make python3`)';
  }
}

interface BuildAttempt {
  name: SqliteBindingManifest['builtWith'];
  command: BuildCommand;
}

/** A successful build's binding, read once: its bytes when they are a library for Electron's ABI, else what is wrong. */
function checkedBuild(built: string, moduleVersion: string): { bytes: Buffer } | { problem: string } {
  if (!existsSync(built)) return { problem: `it left no ${SQLITE_BINDING_FILE}` };
  const bytes = readFileSync(built);
  if (!isNativeLibrary(bytes)) return { problem: `its ${SQLITE_BINDING_FILE} is not a native library` };
  if (!registersForModuleVersion(bytes, moduleVersion)) {
    return { problem: `its ${SQLITE_BINDING_FILE} is not built for Electron's ABI ${moduleVersion} (is npm's nodedir set to Node's headers?)` };
  }
  return { bytes };
}

/**
 * npm hands its `nodedir` setting to scripts as npm_config_nodedir, and node-gyp would then compile against
 * those headers (Node's, usually) instead of Electron's.
 */
const INHERITED_HEADER_SETTINGS = ['npm_config_nodedir', 'NPM_CONFIG_NODEDIR'];

function buildAttempts(options: ElectronSqliteBuildOptions, workFolder: string): BuildAttempt[] {
  const target = [`--target=${options.electronVersion}`, `--arch=${options.arch}`];
  return [
    {
      name: 'prebuild-install',
      command: {
        file: options.nodePath,
        args: [options.tools.prebuildInstall, '--runtime=electron', ...target, `--platform=${options.platform}`, '--verbose'],
        cwd: workFolder,
        unsetEnvironment: INHERITED_HEADER_SETTINGS,
      },
    },
    {
      name: 'node-gyp',
      command: {
        file: options.nodePath,
        args: [options.tools.nodeGyp, 'rebuild', '--release', '--runtime=electron', ...target, '--dist-url=https://electronjs.org/headers'],
        cwd: workFolder,
        unsetEnvironment: INHERITED_HEADER_SETTINGS,
      },
    },
  ];
}

/** A fresh copy of the package's sources (no build folder), where the tools may write. */
function prepareWorkFolder(target: ElectronBindingTarget): string {
  const source = join(target.projectRoot, 'node_modules', 'better-sqlite3');
  const workFolder = `${electronBindingFolder(target)}.work`;
  rmSync(workFolder, { recursive: true, force: true });
  mkdirSync(workFolder, { recursive: true });
  cpSync(source, workFolder, {
    recursive: true,
    // Node's compiled output stays behind: the tools' own check would find it and stop there.
    filter: (path) => relative(source, path).split(sep)[0] !== 'build',
  });
  return workFolder;
}

/**
 * Moves the binding into place: written to a new folder with its manifest last, then renamed over the old
 * one, so an interrupted build leaves either the old folder or none, never a half-written binding.
 */
function install(
  options: ElectronSqliteBuildOptions,
  bytes: Buffer,
  origin: Pick<SqliteBindingManifest, 'betterSqliteVersion' | 'builtWith'>,
): string {
  const folder = electronBindingFolder(options);
  const staging = `${folder}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, SQLITE_BINDING_FILE), bytes);
  const manifest: SqliteBindingManifest = {
    electronVersion: options.electronVersion,
    arch: options.arch,
    moduleVersion: options.moduleVersion,
    ...origin,
    sha256: sha256(bytes),
    bytes: bytes.length,
  };
  writeFileSync(join(staging, SQLITE_BINDING_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  removeOtherElectronBuilds(options);
  return join(folder, SQLITE_BINDING_FILE);
}

/** Builds for Electron versions no longer installed only take space (a few MB each). */
function removeOtherElectronBuilds(target: ElectronBindingTarget): void {
  const root = electronBindingCacheRoot(target.projectRoot);
  const current = basename(electronBindingFolder(target));
  for (const entry of readdirSync(root)) {
    if (entry !== current && entry.endsWith(`-${target.arch}`)) rmSync(join(root, entry), { recursive: true, force: true });
  }
}

function describeFailedAttempt(name: string, result: BuildCommandResult, problem: string | undefined): string {
  if (problem !== undefined) return `${name} succeeded, but ${problem}`;
  const outcome = result.exitCode === null ? 'could not run' : `exited with code ${result.exitCode}`;
  const lastLines = result.output.trim().split('\n').filter(isTelling).slice(-3).join(' | ');
  return `${name} ${outcome}${lastLines === '' ? '' : `: ${lastLines}`}`;
}

/** node-gyp ends with lines about itself (cwd, versions, "not ok"); the cause comes before them. */
function isTelling(line: string): boolean {
  return line.trim() !== '' && !/^gyp info|^gyp ERR! (cwd|node -v|node-gyp -v|command|System|\$npm_|not ok|stack\s+at )/.test(line);
}
