/**
 * `npm run native:electron`, run first by `npm start` and `npm run dev`: makes sure better-sqlite3 is
 * built for the installed Electron in node_modules/.cache/sightline-electron/ (see
 * src/main/storage/electron-sqlite-build.ts). Quick when the build is already there. A failure prints what
 * to install and how to retry, and exits 1 without a stack trace.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import {
  ElectronSqliteBuildError,
  ensureElectronSqliteBinding,
  type BuildCommand,
  type BuildCommandResult,
} from '../src/main/storage/electron-sqlite-build.js';
import { installedElectronVersion } from '../src/main/storage/sqlite-binding.js';

const projectRoot = resolve(import.meta.dirname, '..');

/** Runs a build tool, keeping its output for the failure message instead of flooding the terminal. */
function runQuietly(command: BuildCommand): Promise<BuildCommandResult> {
  return new Promise((done) => {
    const environment = { ...process.env };
    for (const name of command.unsetEnvironment) delete environment[name];
    const child = spawn(command.file, command.args, { cwd: command.cwd, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => done({ exitCode: null, output: `${output}${error.message}` }));
    child.on('close', (exitCode) => done({ exitCode, output }));
  });
}

const require = createRequire(join(projectRoot, 'package.json'));

/** Electron's NODE_MODULE_VERSION, from node-abi: the table prebuild-install itself uses. */
function electronModuleVersion(electronVersion: string): string {
  const nodeAbi = createRequire(require.resolve('prebuild-install/package.json'))('node-abi') as {
    getAbi: (target: string, runtime: string) => string;
  };
  return nodeAbi.getAbi(electronVersion, 'electron');
}

function resolveTools(): { prebuildInstall: string; nodeGyp: string } {
  return {
    prebuildInstall: join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js'),
    // npm names the node-gyp it bundles to the scripts it runs; a hoisted copy serves when run otherwise.
    nodeGyp: process.env['npm_config_node_gyp'] ?? join(dirname(require.resolve('node-gyp/package.json')), 'bin', 'node-gyp.js'),
  };
}

async function main(): Promise<void> {
  let electronVersion: string;
  try {
    electronVersion = installedElectronVersion(projectRoot);
  } catch {
    console.error('Electron is not installed in node_modules: run `npm ci` in the Sightline checkout, then `npm start` again.');
    process.exitCode = 1;
    return;
  }
  try {
    const outcome = await ensureElectronSqliteBinding({
      projectRoot,
      electronVersion,
      arch: process.arch,
      moduleVersion: electronModuleVersion(electronVersion),
      platform: process.platform,
      tools: resolveTools(),
      run: runQuietly,
      nodePath: process.execPath,
    });
    if (outcome.action === 'built') {
      console.warn(`Sightline: built SQLite for Electron ${electronVersion} with ${outcome.builtWith} (${outcome.reason.trim()})`);
    }
  } catch (error) {
    // The build error carries its own advice; anything else (a tool missing from node_modules, an unknown
    // Electron version) gets the same retry line rather than a stack.
    const advice = error instanceof ElectronSqliteBuildError ? '' : '\nAfter `npm ci`, retry with `npm run native:electron` or `npm start`.';
    console.error(`${error instanceof Error ? error.message : String(error)}${advice}`);
    process.exitCode = 1;
  }
}

await main();
