import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../src/main/storage/index.js';
import { runSightline } from '../helpers/cli-io.js';
import { createTemporaryHome, openHomeStorage, seedStorage, type TemporaryHome } from '../helpers/seed.js';
import { builtCli } from '../helpers/built-cli.js';
import { scaledLimit } from '../helpers/time-limits.js';

let home: TemporaryHome;

beforeEach(() => {
  home = createTemporaryHome('sightline-doctor');
});

afterEach(() => {
  home.remove();
});

/** The text line of one check, e.g. `ok       database  schema version 3 …`. */
function lineOf(stdout: string, name: string): string {
  const line = stdout.split('\n').find((candidate) => new RegExp(`^(ok|warning|problem)\\s+${name}\\s{2}`).test(candidate));
  if (line === undefined) throw new Error(`no "${name}" line in:\n${stdout}`);
  return line;
}

function fixAfter(stdout: string, name: string): string | undefined {
  const lines = stdout.split('\n');
  const next = lines[lines.indexOf(lineOf(stdout, name)) + 1];
  return next?.trim().startsWith('fix: ') ? next.trim() : undefined;
}

interface DoctorJson {
  ok: boolean;
  checks: { name: string; status: string; detail: string; fix?: string }[];
}

describe('sightline doctor', () => {
  it('without DISPLAY on Linux reports the display problem with its fix and exits 1', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], { OPENAI_API_KEY: 'sk-doctor-test' });
    expect(run.exitCode).toBe(1);
    if (process.platform === 'linux') {
      expect(lineOf(run.stdout, 'display')).toMatch(/^problem\s+display\s+DISPLAY is not set/);
      expect(fixAfter(run.stdout, 'display')).toBe('fix: run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99');
      expect(lineOf(run.stdout, 'input')).toMatch(/^problem/);
    }
    expect(run.stdout).toMatch(/problems?[,.]/);
    expect(run.stderr).toBe('');
  });

  it.runIf(process.platform === 'linux')('under Wayland without XWayland says that capture and input need X11, and how to get it', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], { OPENAI_API_KEY: 'sk-doctor-test', XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' });
    expect(run.exitCode).toBe(1);
    for (const name of ['display', 'input']) {
      expect(lineOf(run.stdout, name)).toMatch(new RegExp(`^problem\\s+${name}\\s+DISPLAY is not set: this is a Wayland session without XWayland, and screen capture and input need X11$`));
      expect(fixAfter(run.stdout, name)).toMatch(/^fix: log in to an X11 session .*, or enable XWayland so that DISPLAY is set$/);
    }
  });

  it('aligns the detail column of every check', async () => {
    const run = await runSightline(['--home', home.root, 'doctor']);
    const checkLines = run.stdout.split('\n').filter((line) => /^(ok|warning|problem) /.test(line));
    expect(checkLines.length).toBe(9);
    const detailColumns = checkLines.map((line) => /^(\S+\s+)(\S+(?: \S+)?\s+)/.exec(line)![0].length);
    expect(new Set(detailColumns).size).toBe(1);
  });

  it('shows the schema version of a seeded database as ok', async () => {
    const storage = openHomeStorage(home);
    await seedStorage(storage, { sessions: 1, turnsPerSession: 1, stepsPerTurn: 2 });
    storage.close();
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(lineOf(run.stdout, 'database')).toMatch(
      new RegExp(`^ok\\s+database\\s+schema version ${SCHEMA_VERSION}, quick_check ok`),
    );
  });

  it('reports an older schema without upgrading it', async () => {
    const database = new BetterSqlite3(home.databaseFile);
    database.exec('CREATE TABLE placeholder (id INTEGER)');
    database.pragma('user_version = 1');
    database.close();
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(lineOf(run.stdout, 'database')).toMatch(
      new RegExp(`^ok\\s+database\\s+schema version 1; will be upgraded to ${SCHEMA_VERSION} on the next run`),
    );
    const after = new BetterSqlite3(home.databaseFile, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(1);
    after.close();
  });

  it('reports a file that is not a database as a problem, with a fix', async () => {
    writeFileSync(home.databaseFile, 'this is not a SQLite database, just some text that happens to be long enough.'.repeat(20));
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'database')).toMatch(/^problem\s+database\s+.*not a SQLite database/);
    expect(fixAfter(run.stdout, 'database')).toContain(`mv ${home.databaseFile} ${home.databaseFile}.broken`);
  });

  it('reports a database written by a newer Sightline as a problem', async () => {
    const database = new BetterSqlite3(home.databaseFile);
    database.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    database.close();
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(lineOf(run.stdout, 'database')).toContain(`schema version ${SCHEMA_VERSION + 1} is newer than this Sightline supports`);
    expect(fixAfter(run.stdout, 'database')).toBe('fix: upgrade Sightline, or use another home folder with --home');
  });

  it('creates neither the home folder nor the database', async () => {
    const missingHome = join(home.root, 'not-yet');
    const run = await runSightline(['--home', missingHome, 'doctor', '--json']);
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.checks.find((check) => check.name === 'home')).toMatchObject({ status: 'ok', detail: `${missingHome} does not exist yet; will be created` });
    expect(report.checks.find((check) => check.name === 'database')).toMatchObject({ status: 'ok' });
    expect(report.checks.find((check) => check.name === 'database')?.detail).toContain('will be created');
    expect(existsSync(missingHome)).toBe(false);
  });

  it('reports a home path that is a file', async () => {
    const file = join(home.root, 'a-file');
    writeFileSync(file, '');
    const report = JSON.parse((await runSightline(['--home', file, 'doctor', '--json'])).stdout) as DoctorJson;
    expect(report.checks.find((check) => check.name === 'home')).toMatchObject({ status: 'problem', detail: `${file} exists but is not a folder` });
  });

  it('prints JSON for scripts, with the same exit code', async () => {
    const run = await runSightline(['--home', home.root, 'doctor', '--json'], { TAVILY_API_KEY: 'tvly-doctor' });
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.checks.map((check) => check.name)).toEqual(['home', 'disk', 'database', 'display', 'input', 'focus', 'browser', 'model key', 'tavily key']);
    expect(report.ok).toBe(run.exitCode === 0);
    for (const check of report.checks) expect(['ok', 'warning', 'problem']).toContain(check.status);
    expect(report.checks.find((check) => check.name === 'disk')?.detail).toMatch(/(GiB|MiB) free at /);
    expect(report.checks.find((check) => check.name === 'tavily key')).toMatchObject({ status: 'ok', detail: 'set (from env TAVILY_API_KEY); web_search enabled' });
  });

  it('says where the model key comes from and never prints it', async () => {
    mkdirSync(home.root, { recursive: true });
    writeFileSync(home.configFile, JSON.stringify({ model: { apiKey: 'sk-from-the-file-123' } }));
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(lineOf(run.stdout, 'model key')).toMatch(/^ok\s+model key\s+set \(from config\.json\) for gpt-4\.1/);
    expect(run.stdout).not.toContain('sk-from-the-file-123');
  });

  it('reports a missing model key as a problem, and a missing Tavily key as a warning', async () => {
    const run = await runSightline(['--home', home.root, 'doctor']);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'model key')).toMatch(/^problem/);
    expect(fixAfter(run.stdout, 'model key')).toContain('set OPENAI_API_KEY');
    expect(lineOf(run.stdout, 'tavily key')).toMatch(/^warning\s+tavily key\s+web_search disabled; set TAVILY_API_KEY$/);
  });

  it("asks a Claude model for Anthropic's key, and says where it comes from without printing it", async () => {
    const missing = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_MODEL: 'claude-sonnet-4-5', OPENAI_API_KEY: 'sk-openai-doctor' });
    expect(lineOf(missing.stdout, 'model key')).toMatch(/^problem\s+model key\s+not set: claude-sonnet-4-5 at the Anthropic API/);
    expect(fixAfter(missing.stdout, 'model key')).toContain('set ANTHROPIC_API_KEY');
    const present = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_MODEL: 'claude-sonnet-4-5', ANTHROPIC_API_KEY: 'sk-ant-doctor-123' });
    expect(lineOf(present.stdout, 'model key')).toMatch(/^ok\s+model key\s+set \(from env ANTHROPIC_API_KEY\) for claude-sonnet-4-5/);
    expect(present.stdout).not.toContain('sk-ant-doctor-123');
  });

  it("names the endpoint of the provider in effect and where it came from, and an unused OPENAI_BASE_URL for a Claude model", async () => {
    const env = { SIGHTLINE_MODEL: 'claude-opus-4-5', ANTHROPIC_API_KEY: 'sk-ant-doctor-123', OPENAI_BASE_URL: 'http://localhost:11434/v1' };
    const defaultEndpoint = await runSightline(['--home', home.root, 'doctor'], env);
    expect(lineOf(defaultEndpoint.stdout, 'model key')).toMatch(
      /^ok\s+model key\s+set \(from env ANTHROPIC_API_KEY\) for claude-opus-4-5 at the Anthropic API; OPENAI_BASE_URL is not used \(it counts for the openai provider only\)$/,
    );
    const gateway = await runSightline(['--home', home.root, 'doctor'], { ...env, ANTHROPIC_BASE_URL: 'https://gateway.example.com' });
    expect(lineOf(gateway.stdout, 'model key')).toMatch(/at https:\/\/gateway\.example\.com \(from env ANTHROPIC_BASE_URL\); OPENAI_BASE_URL is not used/);
    expect(gateway.stdout).not.toContain('sk-ant-doctor-123');
  });

  it("asks a Gemini model for Google's key, names the dialect in effect, and never prints the key", async () => {
    const missing = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_MODEL: 'gemini-2.5-computer-use-preview-10-2025', OPENAI_API_KEY: 'sk-openai-doctor' });
    expect(lineOf(missing.stdout, 'model key')).toMatch(/^problem\s+model key\s+not set: gemini-2\.5-computer-use-preview-10-2025 at the Gemini API/);
    expect(fixAfter(missing.stdout, 'model key')).toContain('set GEMINI_API_KEY');
    const env = { SIGHTLINE_MODEL: 'gemini-2.5-computer-use-preview-10-2025', GOOGLE_API_KEY: 'AIza-doctor-google-123', GEMINI_API_KEY: 'AIza-doctor-gemini-456' };
    const present = await runSightline(['--home', home.root, 'doctor'], env);
    expect(lineOf(present.stdout, 'model key')).toMatch(/^ok\s+model key\s+set \(from env GOOGLE_API_KEY\) for gemini-2\.5-computer-use-preview-10-2025 at the Gemini API/);
    expect(present.stdout).toContain('dialect: gemini-computer-use');
    expect(present.stdout).not.toMatch(/AIza-doctor/);
  });

  it('only warns about a missing key for a custom endpoint', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], { OPENAI_BASE_URL: 'http://localhost:11434/v1' });
    expect(lineOf(run.stdout, 'model key')).toMatch(/^warning\s+model key\s+not set; fine if http:\/\/localhost:11434\/v1 needs none/);
  });

  it('finds the browser that --operator browser drives, at SIGHTLINE_BROWSER_PATH', async () => {
    const browser = join(home.root, 'chromium');
    mkdirSync(home.root, { recursive: true });
    writeFileSync(browser, '');
    const run = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_BROWSER_PATH: browser });
    expect(lineOf(run.stdout, 'browser')).toBe(`ok       browser     ${browser} (from SIGHTLINE_BROWSER_PATH)`);
  });

  it('only warns about a missing browser while the desktop operator is the default', async () => {
    const missing = join(home.root, 'no-chromium');
    const run = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_BROWSER_PATH: missing });
    expect(lineOf(run.stdout, 'browser')).toBe(`warning  browser     no browser at ${missing} (SIGHTLINE_BROWSER_PATH); --operator browser cannot run`);
    expect(fixAfter(run.stdout, 'browser')).toBe('fix: point SIGHTLINE_BROWSER_PATH at a Chromium or Chrome executable');
  });

  it('reports a missing browser as a problem when agent.operator is browser, in JSON too, and exits 1', async () => {
    const missing = join(home.root, 'no-chromium');
    const environment = { SIGHTLINE_BROWSER_PATH: missing, SIGHTLINE_AGENT_OPERATOR: 'browser', OPENAI_API_KEY: 'sk-doctor-browser' };
    const run = await runSightline(['--home', home.root, 'doctor', '--json'], environment);
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.checks.find((check) => check.name === 'browser')).toEqual({
      name: 'browser',
      status: 'problem',
      detail: `no browser at ${missing} (SIGHTLINE_BROWSER_PATH); agent.operator is browser, so runs cannot start`,
      fix: 'point SIGHTLINE_BROWSER_PATH at a Chromium or Chrome executable',
    });
    expect(report.ok).toBe(false);
    expect(run.exitCode).toBe(1);
  });

  it('says which dialect a run would speak and why, with its coordinates and image sizing, before the summary', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_MODEL: 'ui-tars-1.5-7b', OPENAI_BASE_URL: 'http://localhost:8000/v1' });
    const section = [
      'dialect: ui-tars (model profile family ui-tars-1.5 for model ui-tars-1.5-7b)',
      "  protocol:      UI-TARS's Thought/Action text grammar",
      '  coordinates:   pixels of the image sent',
      "  image sizing:  longest edge at most 1280 px, then the model's own smart resize (sides multiples of 28, 78,400 to 12,845,056 pixels), so its resize leaves the image as sent",
    ].join('\n');
    expect(run.stdout).toContain(section);
    expect(run.stdout.indexOf(section)).toBeGreaterThan(run.stdout.indexOf(lineOf(run.stdout, 'tavily key')));
    expect(run.stdout.trimEnd().split('\n').at(-1)).toMatch(/problems?[,.]|warnings?\.|All checks passed\./);

    const json = await runSightline(['--home', home.root, 'doctor', '--json'], { SIGHTLINE_MODEL_DIALECT: 'function-tools', SIGHTLINE_MODEL: 'qwen3-vl:8b' });
    const report = JSON.parse(json.stdout) as DoctorJson & { dialect: Record<string, unknown> };
    expect(report.dialect).toMatchObject({
      name: 'function-tools',
      reason: { kind: 'config', source: { kind: 'env', variable: 'SIGHTLINE_MODEL_DIALECT' } },
      why: 'environment variable SIGHTLINE_MODEL_DIALECT',
      coordinateSpace: 'normalized-1000',
      imageSizing: { kind: 'fit-edge' },
      maxImageEdge: 1280,
      problems: [],
    });
    expect(report.checks.map((check) => check.name)).not.toContain('dialect');
  });

  it('reports a dialect that cannot work with the configuration as a problem, and exits 1', async () => {
    // model.api unset follows the dialect (modelApi); set to Chat Completions, it cannot carry openai-computer.
    const environment = { SIGHTLINE_MODEL: 'computer-use-preview', OPENAI_API_KEY: 'sk-doctor-dialect', SIGHTLINE_MODEL_API: 'chat-completions' };
    const run = await runSightline(['--home', home.root, 'doctor'], environment);
    expect(run.exitCode).toBe(1);
    expect(lineOf(run.stdout, 'dialect')).toMatch(/^problem\s+dialect\s+The openai-computer dialect .*needs model\.api responses.*set model\.api to responses/);
    const report = JSON.parse((await runSightline(['--home', home.root, 'doctor', '--json'], environment)).stdout) as DoctorJson;
    expect(report.ok).toBe(false);
    expect(report.checks.find((check) => check.name === 'dialect')).toMatchObject({ status: 'problem', detail: expect.stringContaining('set model.api to responses') });
    const fixed = JSON.parse((await runSightline(['--home', home.root, 'doctor', '--json'], { ...environment, SIGHTLINE_MODEL_API: 'responses' })).stdout) as DoctorJson;
    expect(fixed.checks.find((check) => check.name === 'dialect')?.detail ?? '').not.toContain('model.api');
  });

  it('exits 2 with the field named when the configuration is invalid', async () => {
    const run = await runSightline(['--home', home.root, 'doctor'], { SIGHTLINE_AGENT_MAX_STEPS: 'many' });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('agent.maxSteps: expected a number, got "many" (from env SIGHTLINE_AGENT_MAX_STEPS)');
    expect(run.stdout).toBe('');
  });
});

describe('sightline doctor with a dead X display', () => {
  it('reports the display and input problems instead of crashing in the input library', () => {
    // A child process: the native capture and input libraries read DISPLAY from the real environment,
    // and libnut kills its process (SIGSEGV) when the X server is gone.
    const scratch = createTemporaryHome('sightline-doctor-dead-display');
    try {
      const result = spawnSync(
        process.execPath,
        [builtCli(), '--home', scratch.root, 'doctor'],
        { encoding: 'utf8', env: { ...process.env, DISPLAY: ':77', OPENAI_API_KEY: 'sk-dead-display' }, timeout: scaledLimit(60_000) },
      );
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      expect(lineOf(result.stdout, 'input')).toMatch(/^problem\s+input\s+cannot connect to the X display :77/);
      expect(lineOf(result.stdout, 'display')).toMatch(/^problem/);
    } finally {
      scratch.remove();
    }
    // The child's own limit decides, not the test's: both scale with the load.
  }, scaledLimit(90_000));
});

describe('sightline doctor on focus detection', () => {
  it('says when the focus cannot be read, and what to install', async () => {
    // No session bus to find the accessibility bus on: the AT-SPI helper says so and exits.
    const run = await runSightline(['--home', home.root, 'doctor', '--json'], { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '' });
    const focus = (JSON.parse(run.stdout) as DoctorJson).checks.find((check) => check.name === 'focus');
    if (process.platform !== 'linux') return;
    expect(focus).toMatchObject({ status: 'warning', detail: expect.stringMatching(/^focus detection is unavailable: /) });
    expect(focus?.fix).toContain('sudo apt-get install python3-gi gir1.2-atspi-2.0 at-spi2-core');
  });
});
