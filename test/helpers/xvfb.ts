/**
 * A private X server for end-to-end tests: `const x = await startXvfb({ width: 1280, height: 800 })`,
 * then run X clients with `DISPLAY=x.display` (or `env: x.env`), and `await x.stop()` in afterAll.
 *
 * - Free display number: Xvfb picks it itself (`-displayfd`): it skips numbers whose /tmp/.X<n>-lock or
 *   /tmp/.X11-unix/X<n> exists and takes the lock atomically, so parallel test files never race for one.
 *   We double-check the number against those paths.
 * - Ready: Xvfb writes the number only once it accepts connections; we still wait for `xdpyinfo` to
 *   succeed before returning, so the first client never meets a half-started server.
 * - Stop: by pid (SIGTERM, then SIGKILL if it lingers), waiting for the exit; the lock files are
 *   Xvfb's to remove. A server left running by a crashed test dies with the test process (it is a child).
 *
 * Note for node-screenshots users: it reads DISPLAY at its first call in a process and keeps that X
 * connection for the life of the process, so capture in a child process started with `env: x.env`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface XvfbOptions {
  width?: number;
  height?: number;
  /** Bits per pixel: 24 gives 8 bits per channel, what node-screenshots expects. */
  depth?: number;
  /** How long to wait for the server to accept connections. */
  startTimeoutMs?: number;
}

export interface Xvfb {
  /** The DISPLAY value, e.g. ":99". */
  display: string;
  displayNumber: number;
  /** A copy of process.env with DISPLAY set to this server, for child processes. */
  env: NodeJS.ProcessEnv;
  pid: number;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 3000;

export async function startXvfb(options: XvfbOptions = {}): Promise<Xvfb> {
  const { width = 1280, height = 800, depth = 24, startTimeoutMs = 15_000 } = options;
  // fd 3 is a pipe on which Xvfb writes the display number it chose, once it is listening.
  const server = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x${depth}`, '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let errorOutput = '';
  server.stderr?.on('data', (chunk: Buffer) => {
    errorOutput = (errorOutput + chunk.toString()).slice(-4000);
  });
  try {
    const displayNumber = await readDisplayNumber(server, startTimeoutMs, () => errorOutput);
    const display = `:${displayNumber}`;
    if (!existsSync(`/tmp/.X${displayNumber}-lock`) && !existsSync(`/tmp/.X11-unix/X${displayNumber}`)) {
      throw new Error(`Xvfb reported display ${display} but holds neither its lock file nor its socket`);
    }
    await waitUntilAcceptingConnections(display, startTimeoutMs);
    return {
      display,
      displayNumber,
      env: { ...process.env, DISPLAY: display },
      pid: server.pid!,
      stop: () => stopProcess(server),
    };
  } catch (error) {
    await stopProcess(server);
    throw error;
  }
}

function readDisplayNumber(server: ChildProcess, timeoutMs: number, errorOutput: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let written = '';
    const timer = setTimeout(() => fail(`Xvfb did not report a display within ${timeoutMs} ms`), timeoutMs);
    const channel = server.stdio[3] as NodeJS.ReadableStream;
    channel.on('data', (chunk: Buffer) => {
      written += chunk.toString();
      if (written.includes('\n')) {
        clearTimeout(timer);
        const number = Number.parseInt(written.trim(), 10);
        if (Number.isInteger(number)) resolve(number);
        else fail(`Xvfb wrote an unexpected display number: "${written.trim()}"`);
      }
    });
    server.once('error', (error) => fail(`cannot start Xvfb (is it installed?): ${error.message}`));
    server.once('exit', (code, signal) => fail(`Xvfb exited early (code ${code}, signal ${signal})`));
    function fail(reason: string): void {
      clearTimeout(timer);
      const detail = errorOutput().trim();
      reject(new Error(detail ? `${reason}: ${detail}` : reason));
    }
  });
}

async function waitUntilAcceptingConnections(display: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const probe = spawnSync('xdpyinfo', ['-display', display], { stdio: 'ignore', timeout: 5000 });
    if (probe.status === 0) return;
    if (Date.now() > deadline) throw new Error(`X server ${display} does not accept connections (xdpyinfo failed)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * A DISPLAY where no X server listens (no lock file, no socket), for tests of what Sightline says when it
 * cannot reach a display. Counted up from :77, far above the numbers Xvfb picks for itself.
 */
export function unusedDisplay(): string {
  for (let displayNumber = 77; ; displayNumber += 1) {
    if (!existsSync(`/tmp/.X${displayNumber}-lock`) && !existsSync(`/tmp/.X11-unix/X${displayNumber}`)) return `:${displayNumber}`;
  }
}
