/**
 * A real PostgreSQL for the team store's tests: `initdb` into a throwaway folder, `postgres` on 127.0.0.1 on a
 * free port (its socket in the folder too), a role with a password and scram-sha-256 over TCP so the password
 * path is the real one, stopped by its pid. initdb refuses to run as root, so as root both run as the
 * `postgres` system user (the Debian package creates it) in a folder handed to that user.
 *
 *   const postgres = await startPostgres();
 *   const url = await postgres.newDatabase();   // postgres://sightline:…@127.0.0.1:PORT/test_1
 *   …
 *   await postgres.remove();
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { freePort } from './redis-server.js';
import { hasSystemPackage } from './system-packages.js';

const USER = 'sightline';

/** initdb and postgres: the newest Debian install under /usr/lib/postgresql, else the PATH's. */
export function postgresBinaries(): { initdb: string; postgres: string } | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((name) => /^\d+$/.test(name))
      .sort((left, right) => Number(right) - Number(left));
    for (const version of versions) {
      const bin = join(root, version, 'bin');
      if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres'))) {
        return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres') };
      }
    }
  }
  for (const folder of (process.env.PATH ?? '').split(':')) {
    if (folder !== '' && existsSync(join(folder, 'initdb')) && existsSync(join(folder, 'postgres'))) {
      return { initdb: join(folder, 'initdb'), postgres: join(folder, 'postgres') };
    }
  }
  return undefined;
}

/** The system user to run as when this process is root; undefined when it is not. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error('Running as root, and there is no `postgres` system user to run initdb and postgres as (install the postgresql package).');
  }
}

/** Whether the tests can start a PostgreSQL here: the binaries, and as root the user to run them as. */
export function postgresAvailable(): boolean {
  if (!hasSystemPackage('postgresql', postgresBinaries() !== undefined)) return false;
  try {
    serverUser();
    return true;
  } catch {
    return false;
  }
}

export interface PostgresServer {
  /** postgres://sightline:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  user: string;
  password: string;
  /** A fresh empty database on this server, and its URL: one per test keeps tests apart without a restart. */
  newDatabase(): Promise<string>;
  /** Stops the server (SIGINT to its pid: a fast shutdown) and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  remove(): Promise<void>;
}

/** A folder the postgres user can reach: every folder above it must let others pass. */
function baseFolder(asOtherUser: boolean): string {
  const base = tmpdir();
  if (!asOtherUser) return base;
  for (let folder = base; ; folder = dirname(folder)) {
    if ((statSync(folder).mode & 0o001) === 0) return '/tmp';
    if (dirname(folder) === folder) return base;
  }
}

export async function startPostgres(): Promise<PostgresServer> {
  const binaries = postgresBinaries();
  if (binaries === undefined) throw new Error('No PostgreSQL binaries (initdb, postgres) in /usr/lib/postgresql/*/bin or on the PATH.');
  const runAs = serverUser();
  const folder = mkdtempSync(join(baseFolder(runAs !== undefined), 'sightline-postgres-'));
  const dataFolder = join(folder, 'data');
  const socketFolder = join(folder, 'socket');
  const password = randomBytes(12).toString('hex');
  mkdirSync(socketFolder);
  writeFileSync(join(folder, 'password'), `${password}\n`);
  if (runAs !== undefined) {
    for (const path of [folder, socketFolder, join(folder, 'password')]) chownSync(path, runAs.uid, runAs.gid);
  }
  const spawnOptions = { cwd: folder, ...(runAs === undefined ? {} : { uid: runAs.uid, gid: runAs.gid }) };

  await run(
    binaries.initdb,
    ['-D', dataFolder, '-U', USER, `--pwfile=${join(folder, 'password')}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync', '--no-instructions'],
    spawnOptions,
  );

  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    const started = spawn(
      binaries.postgres,
      // Durability off: a test database is thrown away, and fsync is the slow part of every commit.
      ['-D', dataFolder, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', socketFolder, '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
      { ...spawnOptions, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    let output = '';
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    // Ready when it says so: the line postgres logs once it accepts connections.
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('database system is ready to accept connections')) {
          started.stderr!.off('data', onData);
          started.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => reject(new Error(`postgres exited (${code}) before it was ready:\n${output}`));
      started.stderr!.on('data', onData);
      started.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      started.once('exit', onExit);
    });
    // Keep draining its log so a full pipe never blocks the server.
    started.stderr!.resume();
  };
  const stop = async () => {
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    process.kill(child.pid!, 'SIGINT');
    await exited;
  };
  await start();

  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    port,
    user: USER,
    password,
    newDatabase: async () => {
      databases += 1;
      const name = `test_${databases}`;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://${USER}:${password}@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    remove: async () => {
      await stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function run(command: string, args: string[], options: { cwd: string; uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}:\n${output}`))));
  });
}
