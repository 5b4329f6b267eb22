/**
 * The AT-SPI helper's client with fake helpers (Node scripts speaking the helper's JSON lines): it answers
 * what the helper answers, and every failure (no interpreter, "unavailable", silence, a crash, garbage) is
 * `undefined` — the desktop's 'unknown' — never a throw or a hang; close() leaves no process behind.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AtspiFocusClient } from '../../src/main/operators/focus/atspi-focus-client.js';
import { focusHelperScriptPath } from '../../src/main/operators/focus/focus-helper-script.js';

const folder = mkdtempSync(join(tmpdir(), 'sightline-fake-atspi-'));
const script = join(folder, 'fake-helper.mjs');
writeFileSync(
  script,
  `
import { createInterface } from 'node:readline';
const mode = process.env.FAKE_HELPER_MODE;
const say = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
if (mode === 'unavailable') { say({ unavailable: 'no accessibility bus' }); process.exit(0); }
if (mode === 'garbage') { process.stdout.write('Traceback (most recent call last):\\n'); setInterval(() => {}, 1000); }
if (mode === 'silent') setInterval(() => {}, 1000);
if (mode !== 'garbage' && mode !== 'silent') say({ ready: true });
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id } = JSON.parse(line);
  if (mode === 'password') say({ id, role: 'password text', states: ['editable', 'focused'], application: 'Chromium', pid: 42 });
  if (mode === 'nothing') say({ id, role: null });
  if (mode === 'mumbles') { process.stdout.write('not json\\n'); say({ id: 'x' }); }
  if (mode === 'crashes') process.exit(3);
}).on('close', () => process.exit(0));
`,
);

const clients: AtspiFocusClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function fakeClient(mode: string, options: { python?: string; maxStarts?: number } = {}): AtspiFocusClient {
  const client = new AtspiFocusClient({
    python: options.python ?? process.execPath,
    scriptPath: script,
    env: { ...process.env, FAKE_HELPER_MODE: mode },
    startTimeoutMs: 5000,
    answerTimeoutMs: 300,
    ...(options.maxStarts === undefined ? {} : { maxStarts: options.maxStarts }),
  });
  clients.push(client);
  return client;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('AtspiFocusClient', () => {
  it('answers what the helper reads, with one process for every question, stopped by close()', async () => {
    const client = fakeClient('password');
    const expected = { role: 'password text', states: ['editable', 'focused'], application: 'Chromium', processId: 42 };
    expect(await client.focusedElement()).toEqual(expected);
    const pid = client.helperPid()!;
    expect(await Promise.all([client.focusedElement(), client.focusedElement()])).toEqual([expected, expected]);
    expect(client.helperPid()).toBe(pid);
    await client.close();
    expect(isAlive(pid)).toBe(false);
    expect(await client.focusedElement()).toBeUndefined();
  });

  it('answers undefined when nothing is known to have the focus', async () => {
    expect(await fakeClient('nothing').focusedElement()).toBeUndefined();
  });

  it('is unavailable, with the helper\'s reason, when the helper says so', async () => {
    const client = fakeClient('unavailable');
    expect(await client.focusedElement()).toBeUndefined();
    expect(await client.readiness()).toEqual({ ready: false, reason: 'no accessibility bus' });
  });

  it('is unavailable when the interpreter is missing or the script is', async () => {
    const missingPython = fakeClient('password', { python: join(folder, 'no-python3') });
    expect(await missingPython.focusedElement()).toBeUndefined();
    expect(await missingPython.readiness()).toMatchObject({ ready: false, reason: expect.stringContaining('cannot be started') });
    const noScript = new AtspiFocusClient({ scriptPath: undefined });
    clients.push(noScript);
    expect(await noScript.readiness()).toEqual({ ready: false, reason: 'the helper script resources/focus/atspi-focus.py is missing' });
  });

  it('gives up on a helper that never says it is ready, and stops it', async () => {
    const client = new AtspiFocusClient({ python: process.execPath, scriptPath: script, env: { ...process.env, FAKE_HELPER_MODE: 'silent' }, startTimeoutMs: 300 });
    clients.push(client);
    expect(await client.focusedElement()).toBeUndefined();
    expect(await client.readiness()).toEqual({ ready: false, reason: 'the AT-SPI helper did not start within 300 ms' });
    expect(client.helperPid()).toBeUndefined();
  });

  it('is unavailable when the first line is not the helper\'s', async () => {
    const client = fakeClient('garbage');
    expect(await client.readiness()).toEqual({ ready: false, reason: 'the AT-SPI helper answered something unexpected: Traceback (most recent call last):' });
  });

  it('answers undefined to lines it cannot read, and keeps the helper', async () => {
    const client = fakeClient('mumbles');
    expect(await client.focusedElement()).toBeUndefined();
    expect(client.helperPid()).toBeDefined();
  });

  it('answers undefined when the helper dies, starts it again, and gives up after a few deaths', async () => {
    const client = fakeClient('crashes', { maxStarts: 2 });
    expect(await client.focusedElement()).toBeUndefined();
    expect(await client.focusedElement()).toBeUndefined();
    expect(await client.readiness()).toEqual({ ready: false, reason: 'the AT-SPI helper exited 2 times' });
  });
});

describe('focusHelperScriptPath', () => {
  it('finds the committed helper from the sources, and the unpacked copy in a packaged app', () => {
    expect(focusHelperScriptPath()).toMatch(/resources\/focus\/atspi-focus\.py$/);
    const packaged = join(folder, 'Sightline', 'resources');
    const unpacked = join(packaged, 'app.asar.unpacked', 'resources', 'focus');
    mkdirSync(unpacked, { recursive: true });
    writeFileSync(join(unpacked, 'atspi-focus.py'), '');
    expect(focusHelperScriptPath(join(packaged, 'app.asar', 'out', 'main'))).toBe(join(unpacked, 'atspi-focus.py'));
  });
});

describe('the packaged app', () => {
  /** The entries of a top-level list of electron-builder.yml (`files:`, `asarUnpack:`), comments left out. */
  function listOf(text: string, key: string): string[] {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line === `${key}:`);
    const entries: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (line.trimStart().startsWith('#')) continue;
      const entry = /^\s+- "?([^"]+)"?$/.exec(line);
      if (entry === null) break;
      entries.push(entry[1]!);
    }
    return entries;
  }

  it('ships the AT-SPI helper, unpacked from the archive so the system python can read it', () => {
    const config = readFileSync(join(import.meta.dirname, '../../electron-builder.yml'), 'utf8');
    expect(listOf(config, 'files')).toContain('resources/**');
    expect(listOf(config, 'asarUnpack')).toContain('resources/focus/**');
  });
});
