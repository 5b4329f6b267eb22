/**
 * The printed line holds no password (issue 33, finding 15): a reader given a team store URL with `sslpassword` and
 * `password` settings, at a port nobody listens on, exits 1 naming the store by its masked URL; a worker given a
 * queue URL with a `password` setting refuses it without repeating it. In-process, through the CLI's own entry.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';

const SECRET = 'Sslpass-Hunter2-Zq';
let home: TemporaryHome;

beforeEach(() => {
  home = createTemporaryHome('sightline-url-credentials');
});
afterEach(() => home.remove());

describe('server URLs on the terminal', () => {
  it('a reader that cannot reach the store names it with sslpassword and password masked', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const store = `postgres://team@127.0.0.1:${port}/sightline?sslpassword=${SECRET}&Password=${SECRET}-2&application_name=reader`;
    const result = await runSightline(['--home', home.root, 'sessions', 'ls', '--store', store, '--blobs', `s3://team-shots?endpoint=http://127.0.0.1:${port}`], {});
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain(`postgres://team@127.0.0.1:${port}/sightline?sslpassword=***&Password=***&application_name=reader`);
    expect(result.stderr).toMatch(/unreachable/);
    expect(result.stderr + result.stdout).not.toContain(SECRET);
  });

  it('a worker refusing a queue URL with a query does not repeat its password', { timeout: 120_000 }, async () => {
    const result = await runSightline(['--home', home.root, 'worker', '--queue', `redis://127.0.0.1:6379?password=${SECRET}`], {});
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('redis://127.0.0.1:6379?password=***');
    expect(result.stderr + result.stdout).not.toContain(SECRET);
  });
});
