/**
 * The queue's parts that need no Redis (issue 29): the URL read and redacted, the job refused when its paths could
 * leave the worker's folder, the attempts told from a job's log (a dead worker's run is lost and counted, a handed
 * back one is not), a flow with a sub-flow in a sibling folder sent as text and loaded again elsewhere with that
 * machine's environment, and the client's flags checked before any connection. Issue 33: a worker's policy for jobs
 * (its allow lists read from the environment, loosening flags refused by name), and a job's progress read as a step.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadFlowFiles } from '../../src/main/flows/flow-file.js';
import { bundleFlow, writeFlowBundle } from '../../src/main/queue/flow-bundle.js';
import { ConfigSchema, type ConfigInput } from '../../src/shared/config.js';
import { terminalLine } from '../../src/shared/terminal-text.js';
import { homeAt } from '../../src/main/config/home.js';
import { loadConfig } from '../../src/main/config/load.js';
import { FlowJobSchema, readStepProgress, type JobSettings } from '../../src/main/queue/flow-job.js';
import { checkEnvironmentReads, checkJobSettings, looseningSettings, workerPolicy } from '../../src/main/queue/job-policy.js';
import { attemptLogLine, attemptsOfLog, countedAttempts, nextAttemptNumber } from '../../src/main/queue/job-attempts.js';
import { parseQueueUrl, QueueUrlError, redactedQueueUrl } from '../../src/main/queue/queue-url.js';
import { runSightline } from '../helpers/cli-io.js';

let folder: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'sightline-queue-unit-'));
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('the queue URL', () => {
  it('reads host, port, database and credentials, and prints them masked', () => {
    const address = parseQueueUrl('redis://worker:s3cr%40t@redis.internal:6380/2');
    expect(address).toMatchObject({ host: 'redis.internal', port: 6380, db: 2, username: 'worker', password: 's3cr@t', tls: false });
    expect(address.shown).toBe('redis://***@redis.internal:6380/2');
    expect(parseQueueUrl('rediss://example.com').tls).toBe(true);
    expect(parseQueueUrl('redis://127.0.0.1').port).toBe(6379);
  });

  it('refuses what is not a Redis URL without ever repeating its password', () => {
    for (const bad of ['http://user:hunter2@host:80', 'redis://user:hunter2@host/99', 'not a url', 'redis://user:hunter2@host:1?x=1']) {
      let message = '';
      try {
        parseQueueUrl(bad);
      } catch (error) {
        expect(error).toBeInstanceOf(QueueUrlError);
        message = (error as Error).message;
      }
      expect(message, bad).not.toBe('');
      expect(message, bad).not.toContain('hunter2');
    }
    expect(redactedQueueUrl('connect to rediss://a:b@h:1 failed')).toBe('connect to rediss://***@h:1 failed');
  });
});

function job(files: Array<{ path: string; text: string }>, entry = files[0]!.path) {
  return {
    version: 1,
    runId: 'run_0123456789ab',
    index: 0,
    entry,
    files,
    clientFile: '/home/me/flows/a.flow.yaml',
    flowName: 'A',
    operator: 'browser',
    vars: {},
    settings: { allowFileUrls: false, continueOnError: false, yes: false },
    secretNames: ['SHOP_PASSWORD'],
    attempts: 2,
    enqueuedAt: new Date(0).toISOString(),
    client: { host: 'ci', pid: 1 },
  };
}

describe('a flow job', () => {
  it('refuses paths that could leave the worker\'s folder, and an entry that is not among the files', () => {
    const text = 'name: A\nsteps: []\n';
    expect(FlowJobSchema.safeParse(job([{ path: 'flows/a.flow.yaml', text }])).success).toBe(true);
    for (const path of ['../a.flow.yaml', '/etc/a.flow.yaml', 'flows/../../a.yaml', 'C:/a.yaml', 'flows\\a.yaml', 'flows//a.yaml']) {
      expect(FlowJobSchema.safeParse(job([{ path, text }])).success, path).toBe(false);
    }
    expect(FlowJobSchema.safeParse(job([{ path: 'a.flow.yaml', text }], 'b.flow.yaml')).success).toBe(false);
    // Secrets travel by name: a value where a name belongs is refused.
    expect(FlowJobSchema.safeParse({ ...job([{ path: 'a.flow.yaml', text }]), secretNames: ['hunter2 hunter2'] }).success).toBe(false);
  });
});

describe('the attempts in a job log', () => {
  const started = (attempt: number, pid: number) => attemptLogLine({ event: 'started', attempt, host: 'h', pid, at: `2026-01-01T00:00:0${attempt}Z` });

  it('names a run without an end lost once another started, and counts it; a handed-back run does not count', () => {
    const log = [
      started(1, 10),
      attemptLogLine({ event: 'session', attempt: 1, sessionId: 'ses_000000000001' }),
      'a line someone else wrote',
      started(2, 20),
      attemptLogLine({ event: 'ended', attempt: 2, outcome: 'returned' }),
      started(3, 30),
    ];
    const looking = attemptsOfLog(log, 'running');
    expect(looking.map((attempt) => [attempt.attempt, attempt.pid, attempt.outcome])).toEqual([
      [1, 10, 'lost'],
      [2, 20, 'returned'],
      [3, 30, 'running'],
    ]);
    expect(looking[0]!.sessionId).toBe('ses_000000000001');
    const beforeNext = attemptsOfLog(log, 'lost');
    expect(beforeNext.at(-1)!.outcome).toBe('lost');
    expect(countedAttempts(beforeNext)).toBe(2);
    expect(nextAttemptNumber(beforeNext)).toBe(4);
  });
});

describe('a flow sent through the queue', () => {
  it('carries its sub-flows as text and loads on the worker with the worker\'s environment', () => {
    mkdirSync(join(folder, 'client', 'flows'), { recursive: true });
    mkdirSync(join(folder, 'client', 'shared'), { recursive: true });
    writeFileSync(join(folder, 'client', 'shared', 'login.flow.yaml'), 'name: Login\nsecrets: [SHOP_PASSWORD]\nsteps:\n  - do: Type {{SHOP_PASSWORD}}\n');
    const top = join(folder, 'client', 'flows', 'buy.flow.yaml');
    writeFileSync(top, 'name: Buy\ntarget: { operator: browser, url: "${env.SHOP_URL}" }\nsteps:\n  - use: ../shared/login.flow.yaml\n  - assert: The cart shows ${item}\nvars: { item: apple }\n');

    // The client checks names, not values: neither SHOP_URL nor the secret is set here.
    const [flow] = loadFlowFiles([top], { vars: { item: 'pear' }, env: {}, environmentElsewhere: true });
    const bundle = bundleFlow(flow!);
    expect(bundle.entry).toBe('flows/buy.flow.yaml');
    expect(bundle.files.map((file) => file.path).sort()).toEqual(['flows/buy.flow.yaml', 'shared/login.flow.yaml']);

    const workerFolder = join(folder, 'worker');
    const entry = writeFlowBundle(bundle, workerFolder);
    const [loaded] = loadFlowFiles([entry], { vars: { item: 'pear' }, env: { SHOP_URL: 'http://shop.test/', SHOP_PASSWORD: 'hunter2-hunter2' } });
    expect(loaded!.target?.url).toBe('http://shop.test/');
    expect(loaded!.vars.item).toBe('pear');
    expect(loaded!.steps[0]).toMatchObject({ kind: 'use' });
    // Without the secret in the worker's environment, loading fails, naming it.
    expect(() => loadFlowFiles([entry], { vars: { item: 'pear' }, env: { SHOP_URL: 'http://shop.test/' } })).toThrow(/secret SHOP_PASSWORD is not set/);
  });
});

describe("a worker's policy for jobs", () => {
  const policy = (config: ConfigInput = {}) => workerPolicy(ConfigSchema.parse(config));
  const settings = (more: Partial<JobSettings> = {}): JobSettings => ({ allowFileUrls: false, continueOnError: false, yes: false, ...more });

  it('reads worker.allowEnv and worker.allowSecrets from the environment as names with commas between them', () => {
    const home = homeAt(join(folder, 'home'));
    const { config } = loadConfig({ home, env: { SIGHTLINE_WORKER_ALLOW_ENV: 'PAGE_URL, SHOP_URL', SIGHTLINE_WORKER_ALLOW_SECRETS: 'SHOP_PASSWORD', SIGHTLINE_WORKER_ALLOW_LOOSENING: 'yes' } });
    expect(config.worker).toEqual({ allowEnv: ['PAGE_URL', 'SHOP_URL'], allowSecrets: ['SHOP_PASSWORD'], allowLoosening: true });
    expect(loadConfig({ home, env: {} }).config.worker).toEqual({ allowEnv: [], allowSecrets: [], allowLoosening: false });
    expect(() => loadConfig({ home, env: { SIGHTLINE_WORKER_ALLOW_ENV: 'PAGE-URL' } })).toThrow(/worker\.allowEnv/);
  });

  it('lets a job tighten the worker settings and refuses one that loosens them, naming each flag, unless the owner allows it', () => {
    const worker = policy({ agent: { confirm: 'risky', maxSteps: 20 } });
    expect(looseningSettings(settings({ confirm: 'always', maxSteps: '10', maxCost: '0.5' }), worker)).toEqual([]);
    expect(looseningSettings(settings({ confirm: 'risky', maxSteps: '20' }), worker)).toEqual([]);
    expect(looseningSettings(settings({ allowFileUrls: true, yes: true, confirm: 'never', maxSteps: '21' }), worker)).toEqual([
      '--allow-file-urls (agent.allowFileUrls is off)',
      '--yes',
      '--confirm never (agent.confirm is risky)',
      '--max-steps 21 (agent.maxSteps is 20)',
    ]);
    // A value our client would never send is refused too, not read as the loosest.
    expect(looseningSettings(settings({ confirm: 'NEVER', maxSteps: 'lots' }), worker)).toHaveLength(2);
    expect(looseningSettings(settings({ allowFileUrls: true }), policy({ agent: { allowFileUrls: true } }))).toEqual([]);
    expect(() => checkJobSettings(settings({ confirm: 'never' }), worker)).toThrow(/--confirm never .*worker\.allowLoosening/);
    expect(() => checkJobSettings(settings({ confirm: 'never', yes: true }), policy({ worker: { allowLoosening: true } }))).not.toThrow();
  });

  it('refuses variables and secrets the owner did not name, naming them', () => {
    const worker = policy({ worker: { allowEnv: ['PAGE_URL'], allowSecrets: ['SHOP_PASSWORD'] } });
    expect(() => checkEnvironmentReads({ env: new Set(['PAGE_URL']), secrets: new Set(['SHOP_PASSWORD']) }, worker)).not.toThrow();
    expect(() => checkEnvironmentReads({ env: new Set(['PAGE_URL', 'PGPASSWORD']), secrets: new Set() }, worker)).toThrow(/\$\{env\.PGPASSWORD\}, which this worker's worker\.allowEnv/);
    // Allowed as a secret is not allowed as a variable: `${env.NAME}` would write its value into a step's text.
    expect(() => checkEnvironmentReads({ env: new Set(['SHOP_PASSWORD']), secrets: new Set() }, worker)).toThrow(/SHOP_PASSWORD/);
    expect(() => checkEnvironmentReads({ env: new Set(), secrets: new Set(['AWS_SECRET_ACCESS_KEY']) }, worker)).toThrow(/secret AWS_SECRET_ACCESS_KEY, which this worker's worker\.allowSecrets/);
  });

  it("reads a job's progress only as a step, and escapes a job's line breaks where it is printed", () => {
    const step = { path: '1', label: 'assert', kind: 'assert', status: 'passed', text: 'ok', reason: undefined, evidence: [], durationMs: 1200 };
    expect(readStepProgress({ version: 1, step })).toMatchObject({ path: '1', durationMs: 1200 });
    // What the worker used to send (the whole flow, then the step) and what anyone can write is not a step.
    expect(readStepProgress({ flow: 'A', step: { name: 'A', file: '/tmp/x', steps: [] } })).toBeUndefined();
    expect(readStepProgress({ version: 1, step: { ...step, evidence: 'img_1' } })).toBeUndefined();
    expect(terminalLine('A\n✓ Forged\u2028B\r')).toBe('A\\n✓ Forged\\u2028B\\r');
  });
});

describe('sightline flow --queue, before any connection', () => {
  const flow = () => {
    const path = join(folder, 'a.flow.yaml');
    writeFileSync(path, 'name: A\ntarget: { operator: browser, url: "http://127.0.0.1:9/" }\nsteps:\n  - assert: ok\n');
    return path;
  };

  it('refuses --base-url (the worker\'s key would go there), --concurrency, reports without --wait, --report without a team store, --replay, and --wait without a queue', async () => {
    const home = join(folder, 'home');
    const queue = 'redis://user:hunter2-secret@127.0.0.1:9';
    const cases: Array<[string[], RegExp]> = [
      [['--queue', queue, '--base-url', 'http://evil.test/v1'], /--base-url cannot travel with a queued flow/],
      [['--queue', queue, '--concurrency', '4'], /--concurrency is a worker's with --queue/],
      [['--queue', queue, '--out', join(folder, 'out.json')], /--out reports results: add --wait/],
      // The sessions a report draws from are in the workers' homes and the team store, not here.
      [['--queue', queue, '--wait', '--report', join(folder, 'run.html')], /--report with --queue reads the sessions from the team store/],
      [['--queue', queue, '--report', join(folder, 'run.html')], /--report reports results: add --wait/],
      [['--queue', queue, '--wait', '--store', 'postgres://u:hunter2-secret@127.0.0.1:9/db'], /--store needs --blobs too/],
      [['--store', 'postgres://u:hunter2-secret@127.0.0.1:9/db', '--blobs', 's3://bucket'], /--store and --blobs go with --queue/],
      [['--queue', queue, '--wait', '--replay'], /--replay is not available with --queue yet/],
      [['--wait'], /--wait waits for queued flows: give --queue/],
      [['--queue', 'http://user:hunter2-secret@host'], /--queue: expected a redis:\/\/ or rediss:\/\//],
    ];
    for (const [flags, message] of cases) {
      const run = await runSightline(['--home', home, 'flow', flow(), ...flags]);
      expect(run.exitCode, flags.join(' ')).toBe(2);
      expect(run.stderr, flags.join(' ')).toMatch(message);
      expect(run.stderr).not.toContain('hunter2-secret');
    }
  });

  it('takes the queue from SIGHTLINE_QUEUE_URL', async () => {
    const run = await runSightline(['--home', join(folder, 'home'), 'flow', flow(), '--concurrency', '2'], { SIGHTLINE_QUEUE_URL: 'redis://127.0.0.1:9' });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("--concurrency is a worker's with --queue");
  });
});
