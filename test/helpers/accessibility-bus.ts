/**
 * A private D-Bus session bus with the AT-SPI accessibility bus on it, for desktop tests that read the focus
 * through AT-SPI: `dbus-daemon --session` (its address read from --print-address) and
 * `at-spi-bus-launcher --launch-immediately`, which starts the accessibility bus; the AT-SPI registry and
 * dconf are activated on demand by the buses. Their settings (dconf's toolkit-accessibility, which the
 * helper switches on) go to a temporary XDG_CONFIG_HOME, never the user's. Stopped by pid, launcher first.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandExists, hasSystemPackage } from './system-packages.js';

export const AT_SPI_BUS_LAUNCHER = ['/usr/libexec/at-spi-bus-launcher', '/usr/lib/at-spi2-core/at-spi-bus-launcher'].find((path) => existsSync(path));

/** Whether this machine can run AT-SPI tests: dbus-daemon, the bus launcher, and python3-gi with Atspi 2.0. */
export const canStartAccessibilityBus =
  process.platform === 'linux' &&
  hasSystemPackage('at-spi2-core', AT_SPI_BUS_LAUNCHER !== undefined) &&
  hasSystemPackage('dbus', commandExists('dbus-daemon')) &&
  hasSystemPackage('libglib2.0-bin', commandExists('gdbus')) &&
  hasSystemPackage(
    'python3-gi gir1.2-atspi-2.0',
    spawnSync('/usr/bin/python3', ['-c', "import gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi"]).status === 0,
  );

export interface AccessibilityBus {
  /** The environment for every process of the test: DISPLAY, the private bus, the temporary config home. */
  env: NodeJS.ProcessEnv;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 15_000;

export async function startAccessibilityBus(baseEnv: NodeJS.ProcessEnv): Promise<AccessibilityBus> {
  const folder = mkdtempSync(join(tmpdir(), 'sightline-a11y-bus-'));
  const privateEnv = { ...baseEnv, XDG_CONFIG_HOME: join(folder, 'config'), XDG_RUNTIME_DIR: folder, XDG_CACHE_HOME: join(folder, 'cache') };
  const daemon = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], { env: privateEnv, stdio: ['ignore', 'pipe', 'ignore'] });
  let launcher: ChildProcess | undefined;
  const stop = async (): Promise<void> => {
    if (launcher !== undefined) await stopProcess(launcher);
    await stopProcess(daemon);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const address = await firstLine(daemon);
    const env = { ...privateEnv, DBUS_SESSION_BUS_ADDRESS: address };
    launcher = spawn(AT_SPI_BUS_LAUNCHER!, ['--launch-immediately'], { env, stdio: 'ignore' });
    await waitForName(env, 'org.a11y.Bus');
    return { env, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let written = '';
    const timer = setTimeout(() => reject(new Error('dbus-daemon did not print its address')), START_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      const end = written.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      resolve(written.slice(0, end).trim());
    });
    child.once('exit', () => reject(new Error('dbus-daemon exited before it printed its address')));
  });
}

/** Waits until the bus name has an owner: the launcher registers org.a11y.Bus once the a11y bus runs. */
async function waitForName(env: NodeJS.ProcessEnv, name: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const answer = spawnSync(
      'gdbus',
      ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', name],
      { env, encoding: 'utf8' },
    );
    if (answer.stdout.includes('true')) return;
    if (Date.now() > deadline) throw new Error(`${name} did not appear on the private session bus`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const forceKill = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(forceKill);
}
