/**
 * Which compiled better-sqlite3 a process loads. better-sqlite3 is the one native module of Sightline
 * built against V8's ABI (it exports node_register_module_v<ABI>); sharp, node-screenshots, nut-js's libnut
 * and uiohook-napi are N-API modules (napi_register_module_v1) that load in Node and Electron alike.
 * `npm ci` builds better-sqlite3 for Node, which the CLI and the tests use; Electron needs its own build,
 * so `npm start` and `npm run dev` first put one in a side folder of node_modules/.cache (see
 * electron-sqlite-build.ts) and the app opens the database with better-sqlite3's `nativeBinding` option.
 * A packaged app loads the copy electron-builder rebuilt in place (npmRebuild), never the side folder.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The compiled file's name, as better-sqlite3's own build names it. */
export const SQLITE_BINDING_FILE = 'better_sqlite3.node';
/** What the side folder's binding was built for, and its digest: written last, so its presence means complete. */
export const SQLITE_BINDING_MANIFEST = 'binding.json';
/** The command that builds the side folder's binding (also run by `npm start` and `npm run dev` first). */
export const ELECTRON_SQLITE_BUILD_COMMAND = 'npm run native:electron';

/** The Electron build the app runs on, and the checkout whose node_modules holds the side folder. */
export interface ElectronBindingTarget {
  projectRoot: string;
  electronVersion: string;
  arch: string;
  /** Electron's NODE_MODULE_VERSION (process.versions.modules inside it; node-abi knows it outside). */
  moduleVersion: string;
}

const manifestSchema = z.object({
  electronVersion: z.string(),
  arch: z.string(),
  betterSqliteVersion: z.string(),
  moduleVersion: z.string(),
  sha256: z.string(),
  bytes: z.number().int().nonnegative(),
  builtWith: z.enum(['prebuild-install', 'node-gyp']),
});

export type SqliteBindingManifest = z.infer<typeof manifestSchema>;

export type ElectronBindingState =
  | { state: 'ready'; bindingPath: string }
  | { state: 'missing' | 'outdated' | 'damaged'; reason: string };

/** Where the Electron build of better-sqlite3 lives for one Electron version and architecture. */
export function electronBindingFolder(target: ElectronBindingTarget): string {
  return join(electronBindingCacheRoot(target.projectRoot), `${target.electronVersion}-${target.arch}`);
}

/** The folder that holds one side folder per Electron version and architecture. */
export function electronBindingCacheRoot(projectRoot: string): string {
  return join(projectRoot, 'node_modules', '.cache', 'sightline-electron');
}

/** The installed better-sqlite3's version: a new one needs a new Electron build too. */
export function installedBetterSqliteVersion(projectRoot: string): string {
  return readPackageVersion(join(projectRoot, 'node_modules', 'better-sqlite3', 'package.json'));
}

/** The installed Electron's version, which `npm start` runs. */
export function installedElectronVersion(projectRoot: string): string {
  return readPackageVersion(join(projectRoot, 'node_modules', 'electron', 'package.json'));
}

/**
 * Whether the side folder holds a usable binding for the target: built for this Electron, architecture and
 * better-sqlite3, complete (the manifest is written last) and unchanged since (its digest matches).
 */
export function inspectElectronBinding(target: ElectronBindingTarget, betterSqliteVersion: string): ElectronBindingState {
  const folder = electronBindingFolder(target);
  const bindingPath = join(folder, SQLITE_BINDING_FILE);
  const manifestPath = join(folder, SQLITE_BINDING_MANIFEST);
  if (!existsSync(manifestPath)) {
    return existsSync(bindingPath)
      ? { state: 'damaged', reason: `${bindingPath} has no ${SQLITE_BINDING_MANIFEST} beside it: an earlier build stopped half-way.` }
      : { state: 'missing', reason: `no better-sqlite3 built for Electron ${target.electronVersion} (${target.arch}) in ${folder}.` };
  }
  const manifest = readManifest(manifestPath);
  if (manifest === undefined) return { state: 'damaged', reason: `${manifestPath} is unreadable.` };
  if (manifest.electronVersion !== target.electronVersion || manifest.arch !== target.arch || manifest.moduleVersion !== target.moduleVersion) {
    return {
      state: 'outdated',
      reason: `${folder} holds a build for Electron ${manifest.electronVersion} (${manifest.arch}, ABI ${manifest.moduleVersion}).`,
    };
  }
  if (manifest.betterSqliteVersion !== betterSqliteVersion) {
    return {
      state: 'outdated',
      reason: `${folder} holds better-sqlite3 ${manifest.betterSqliteVersion}, but ${betterSqliteVersion} is installed.`,
    };
  }
  if (!existsSync(bindingPath)) return { state: 'damaged', reason: `${bindingPath} is gone.` };
  const bytes = readFileSync(bindingPath);
  if (bytes.length !== manifest.bytes || sha256(bytes) !== manifest.sha256 || !isNativeLibrary(bytes)) {
    return { state: 'damaged', reason: `${bindingPath} differs from the file that was built (truncated or overwritten).` };
  }
  if (!registersForModuleVersion(bytes, target.moduleVersion)) {
    return { state: 'damaged', reason: `${bindingPath} is not built for ABI ${target.moduleVersion} (Electron ${target.electronVersion}).` };
  }
  return { state: 'ready', bindingPath };
}

/** The side folder has no usable binding, so the app cannot open its database. */
export class ElectronBindingMissingError extends Error {
  constructor(reason: string) {
    super(
      `SQLite is not built for this Electron yet: ${reason} ` +
        `Run \`${ELECTRON_SQLITE_BUILD_COMMAND}\` in the Sightline checkout (\`npm start\` and \`npm run dev\` run it first), then start again.`,
    );
    this.name = 'ElectronBindingMissingError';
  }
}

export interface RuntimeSurroundings {
  /** process.versions.electron: absent under Node (the CLI, the tests, the MCP server). */
  electronVersion: string | undefined;
  /** Electron's app.isPackaged: an installed app, whose better-sqlite3 electron-builder rebuilt. */
  isPackaged: boolean;
  /** The checkout the app runs from (app.getAppPath() under `npm start`). */
  projectRoot: string;
  arch: string;
  /** process.versions.modules: Electron's ABI, which the binding must be built for. */
  moduleVersion: string;
}

/**
 * The `nativeBinding` to open the database with: none (better-sqlite3's own build) under Node and in a
 * packaged app, the side folder's under Electron from a checkout. Throws ElectronBindingMissingError when
 * that one is not usable, since loading Node's build into Electron fails with an ABI mismatch.
 */
export function chooseSqliteBinding(surroundings: RuntimeSurroundings): string | undefined {
  if (surroundings.electronVersion === undefined || surroundings.isPackaged) return undefined;
  const target = {
    projectRoot: surroundings.projectRoot,
    electronVersion: surroundings.electronVersion,
    arch: surroundings.arch,
    moduleVersion: surroundings.moduleVersion,
  };
  const found = inspectElectronBinding(target, installedBetterSqliteVersion(surroundings.projectRoot));
  if (found.state !== 'ready') throw new ElectronBindingMissingError(found.reason);
  return found.bindingPath;
}

/** Digest of a binding's bytes, as the manifest records it. */
export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Whether the bytes start like a shared library (ELF on Linux, Mach-O on macOS, PE on Windows): a
 * download that saved an HTML error page instead is caught here rather than by a failed load later.
 */
export function isNativeLibrary(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4)).toString('hex');
  const machOMagics = ['feedface', 'feedfacf', 'cefaedfe', 'cffaedfe', 'cafebabe'];
  return head === '7f454c46' || machOMagics.includes(head) || head.startsWith('4d5a');
}

/**
 * Whether a V8-ABI module was compiled for this ABI: its entry point is named after it
 * (node_register_module_v<ABI>). Catches a build against the wrong headers, such as Node's when npm's
 * `nodedir` setting points node-gyp at them, which would load in Node and fail in Electron.
 */
export function registersForModuleVersion(bytes: Uint8Array, moduleVersion: string): boolean {
  const entry = Buffer.from(`node_register_module_v${moduleVersion}`);
  const found = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf(entry);
  // Not a prefix of a longer number (v14 inside v145).
  return found !== -1 && !/[0-9]/.test(String.fromCharCode(bytes[found + entry.length] ?? 0));
}

function readManifest(path: string): SqliteBindingManifest | undefined {
  try {
    const parsed = manifestSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function readPackageVersion(packageJsonPath: string): string {
  const parsed = JSON.parse(readFileSync(packageJsonPath, 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string') throw new Error(`${packageJsonPath} has no version.`);
  return parsed.version;
}
