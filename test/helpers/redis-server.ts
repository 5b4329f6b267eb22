/**
 * A real Redis for the queue's tests: `redis-server` on 127.0.0.1, on a free port, with a throwaway folder and no
 * persistence, stopped by its pid. `restart()` stops it and starts it again on the same port (an empty Redis, as
 * after a crash without persistence), for the reconnection tests.
 *
 *   const redis = await startRedis();
 *   … sightline worker --queue redis.url …
 *   await redis.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasSystemPackage } from './system-packages.js';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** A Redis server to start, and the Redis client BullMQ 6 needs (`ioredis`, an optional peer of BullMQ). */
export function redisAvailable(): boolean {
  if (!hasSystemPackage('redis-server', existsSync(REDIS_SERVER))) return false;
  try {
    createRequire(import.meta.url).resolve('ioredis');
    return true;
  } catch {
    return false;
  }
}

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (its pid, SIGTERM, then waits for its exit). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRedis(): Promise<RedisServer> {
  const folder = mkdtempSync(join(tmpdir(), 'sightline-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const started = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', folder, '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    // Ready when it says so: the line Redis prints once it accepts connections.
    await new Promise<void>((resolve, reject) => {
      const onData = () => {
        if (output.includes('Ready to accept connections')) {
          started.stdout!.off('data', onData);
          resolve();
        }
      };
      started.stdout!.on('data', onData);
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
    });
  };
  const stop = async () => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid!, 'SIGTERM');
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    remove: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Whether anything answers on the port: a probe for "no Redis here" tests. */
export async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1');
  });
}
