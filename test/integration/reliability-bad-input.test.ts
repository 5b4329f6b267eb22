/**
 * Bad input everywhere: every CLI command and flag with a wrong value (unknown options, bad numbers, bad
 * enums, missing arguments, bad ids, missing or wrong files, bad configuration) exits 2 with a message
 * that names the flag, argument or setting, and never prints a stack trace; every app API call with a
 * wrong argument is refused with a validation error naming the field.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_API, AppApiError, type AppApiName } from '../../src/shared/app-api.js';
import { runSightline } from '../helpers/cli-io.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { createTemporaryHome, makePng, type TemporaryHome } from '../helpers/seed.js';

let home: TemporaryHome;
let files: { png: string; otherPng: string; text: string; missing: string; folder: string };

beforeAll(async () => {
  home = createTemporaryHome('sightline-bad-input');
  const folder = join(home.root, 'files');
  mkdirSync(folder);
  files = {
    png: join(folder, 'a.png'),
    otherPng: join(folder, 'b.png'),
    text: join(folder, 'notes.txt'),
    missing: join(folder, 'nope.png'),
    folder,
  };
  writeFileSync(files.png, await makePng({ width: 64, height: 48 }));
  writeFileSync(files.otherPng, await makePng({ width: 32, height: 32, seed: 3 }));
  writeFileSync(files.text, 'just text, not an image');
});

afterAll(() => home?.remove());

interface Case {
  argv: () => string[];
  /** What the message must name (case-insensitive). */
  names: string;
  env?: Record<string, string>;
}

/** A run that would otherwise be fine: the browser operator, a model endpoint that is never reached. */
const RUN = () => ['run', 'do something', '--operator', 'browser', '--base-url', 'http://127.0.0.1:9/v1'];

const CASES: Record<string, Case> = {
  'an unknown command': { argv: () => ['fly'], names: 'fly' },
  'an unknown global option': { argv: () => ['--bogus', 'doctor'], names: '--bogus' },
  '--home without a value': { argv: () => ['--home'], names: '--home' },
  'run without a task': { argv: () => ['run'], names: 'task' },
  'run with an empty task': { argv: () => ['run', '   '], names: 'task' },
  'run with an unknown option': { argv: () => [...RUN(), '--fast'], names: '--fast' },
  'run --operator robot': { argv: () => [...RUN(), '--operator', 'robot'], names: '--operator' },
  'run --max-steps many': { argv: () => [...RUN(), '--max-steps', 'many'], names: '--max-steps' },
  'run --max-steps -3': { argv: () => [...RUN(), '--max-steps', '-3'], names: '--max-steps' },
  'run --max-steps 1.5': { argv: () => [...RUN(), '--max-steps', '1.5'], names: '--max-steps' },
  'run --max-steps 0': { argv: () => [...RUN(), '--max-steps', '0'], names: '--max-steps' },
  'run --max-steps 1e12': { argv: () => [...RUN(), '--max-steps', '1e12'], names: '--max-steps' },
  'run --max-steps with no value': { argv: () => [...RUN(), '--max-steps'], names: '--max-steps' },
  'run --confirm sometimes': { argv: () => [...RUN(), '--confirm', 'sometimes'], names: '--confirm' },
  'run --url that is not a URL': { argv: () => [...RUN(), '--url', 'not a url'], names: '--url' },
  'run --url ftp://': { argv: () => [...RUN(), '--url', 'ftp://example.com/'], names: '--url' },
  'run --url with the desktop operator': { argv: () => ['run', 'x', '--operator', 'desktop', '--url', 'https://example.com'], names: '--url' },
  'run --base-url that is not a URL': { argv: () => [...RUN(), '--base-url', 'nowhere'], names: '--base-url' },
  'run --model empty': { argv: () => [...RUN(), '--model', ''], names: '--model' },
  'run --session that is not an id': { argv: () => [...RUN(), '--session', 'yesterday'], names: '--session' },
  'run --session of no session': { argv: () => [...RUN(), '--session', 'ses_000000000000'], names: '--session' },
  'run --context-file missing': { argv: () => [...RUN(), '--context-file', files.missing], names: '--context-file' },
  'run --context-file a folder': { argv: () => [...RUN(), '--context-file', files.folder], names: '--context-file' },
  'run --context-type poem': { argv: () => [...RUN(), '--context-file', files.text, '--context-type', 'poem'], names: '--context-type' },
  'run --context-type without a file': { argv: () => [...RUN(), '--context-type', 'note'], names: '--context-type' },
  'run without an API key (the default endpoint needs one)': { argv: () => ['run', 'x', '--operator', 'browser'], names: 'OPENAI_API_KEY', env: {} },
  'run with a bad setting in the environment': { argv: () => RUN(), names: 'SIGHTLINE_AGENT_MAX_STEPS', env: { OPENAI_API_KEY: 'sk-test', SIGHTLINE_AGENT_MAX_STEPS: 'lots' } },
  'sessions without a subcommand': { argv: () => ['sessions'], names: 'ls' },
  'sessions rm (no such subcommand)': { argv: () => ['sessions', 'rm', 'ses_000000000000'], names: 'rm' },
  'sessions ls --limit abc': { argv: () => ['sessions', 'ls', '--limit', 'abc'], names: '--limit' },
  'sessions ls --limit 0': { argv: () => ['sessions', 'ls', '--limit', '0'], names: '--limit' },
  'sessions ls --limit -5': { argv: () => ['sessions', 'ls', '--limit', '-5'], names: '--limit' },
  'sessions show without an id': { argv: () => ['sessions', 'show'], names: 'id' },
  'sessions show a bad id': { argv: () => ['sessions', 'show', '../../etc/passwd'], names: 'session id' },
  'sessions show an unknown session': { argv: () => ['sessions', 'show', 'ses_000000000000'], names: 'ses_000000000000' },
  'timeline --port abc': { argv: () => ['timeline', '--port', 'abc'], names: '--port' },
  'timeline --port 70000': { argv: () => ['timeline', '--port', '70000'], names: '--port' },
  'timeline --port -1': { argv: () => ['timeline', '--port', '-1'], names: '--port' },
  'doctor with an unknown option': { argv: () => ['doctor', '--fix'], names: '--fix' },
  'config with an unknown subcommand': { argv: () => ['config', 'reset'], names: 'reset' },
  'config show with an unknown option': { argv: () => ['config', 'show', '--all'], names: '--all' },
  'frames compare without files': { argv: () => ['frames', 'compare'], names: 'first' },
  'frames compare a missing file': { argv: () => ['frames', 'compare', files.missing, files.png], names: 'nope.png' },
  'frames compare a text file': { argv: () => ['frames', 'compare', files.text, files.png], names: 'notes.txt' },
  'frames compare images of different sizes': { argv: () => ['frames', 'compare', files.png, files.otherPng], names: 'size' },
  'frames compare --algorithm nope': { argv: () => ['frames', 'compare', files.png, files.png, '--algorithm', 'nope'], names: '--algorithm' },
  'frames compare --threshold 99': { argv: () => ['frames', 'compare', files.png, files.png, '--threshold', '99'], names: '--threshold' },
  'frames compare --threshold abc': { argv: () => ['frames', 'compare', files.png, files.png, '--threshold', 'abc'], names: '--threshold' },
  'frames hash a folder': { argv: () => ['frames', 'hash', files.folder], names: '/files' },
  'mcp --operator robot': { argv: () => ['mcp', '--operator', 'robot'], names: '--operator' },
  'mcp --confirm maybe': { argv: () => ['mcp', '--confirm', 'maybe'], names: '--confirm' },
};

describe('the CLI with bad input', () => {
  it.each(Object.entries(CASES))('%s: exit 2, names it, no stack trace', { timeout: 20_000 }, async (_name, testCase) => {
    const env = testCase.env ?? { OPENAI_API_KEY: 'sk-test' };
    const result = await runSightline(['--home', home.root, ...testCase.argv()], env);
    const output = `${result.stdout}\n${result.stderr}`;
    expect(result.exitCode, output).toBe(2);
    expect(output.toLowerCase(), output).toContain(testCase.names.toLowerCase());
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('unexpected error');
  });

  it('a malformed config.json: exit 2 naming the file and the line', async () => {
    const configHome = createTemporaryHome('sightline-bad-config');
    try {
      writeFileSync(configHome.configFile, '{ "agent": { "maxSteps": 5, } ');
      const result = await runSightline(['--home', configHome.root, 'config', 'show']);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain('config.json');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      configHome.remove();
    }
  });
});

describe('the app API with bad arguments', () => {
  let api: AppApiHarness;
  beforeAll(async () => {
    api = await startAppApiHarness({ seed: { sessions: 1, turnsPerSession: 1, stepsPerTurn: 1 } });
  });
  afterAll(async () => {
    await api?.close();
  });

  /** Wrong values for every call, each naming the field it gets wrong ('' for the argument itself). */
  const WRONG: Partial<Record<AppApiName, { args: unknown[]; field: string }[]>> = {
    listSessions: [
      { args: [{ limit: -1 }], field: 'limit' },
      { args: [{ limit: 'ten' }], field: 'limit' },
      { args: [{ offset: 1.5 }], field: 'offset' },
      { args: [{ query: 'x'.repeat(1000) }], field: 'query' },
      { args: [{ surprise: true }], field: 'surprise' },
    ],
    getSession: [
      { args: ['nope'], field: 'session' },
      { args: [42], field: 'session' },
      { args: ['img_000000000000'], field: 'session' },
    ],
    deleteSession: [{ args: ['../../etc'], field: 'session' }],
    listSteps: [
      { args: [{ sessionId: 'ses_000000000000', turnId: 'ses_000000000000' }], field: 'turnId' },
      { args: [{ sessionId: 'ses_000000000000', limit: 1e9 }], field: 'limit' },
      { args: [{}], field: 'sessionId' },
    ],
    getImage: [
      { args: [{ imageId: '../../etc/passwd' }], field: 'imageId' },
      { args: [{ imageId: 'img_000000000000', maxBytes: 0 }], field: 'maxBytes' },
      { args: [{ imageId: 'img_000000000000', thumbnailWidth: 1 }], field: 'thumbnailWidth' },
    ],
    listSearchReports: [{ args: [null], field: 'session' }],
    listInjections: [{ args: [{ sessionId: 'ses_000000000000' }], field: 'session' }],
    startRun: [
      { args: [{ task: '' }], field: 'task' },
      { args: [{ task: 'x', sessionId: 'bad' }], field: 'sessionId' },
      { args: [{ task: 42 }], field: 'task' },
      { args: [{ task: 'x', operator: 'robot' }], field: 'operator' },
      { args: [{ task: 'x', url: 'javascript:alert(1)' }], field: 'url' },
      { args: [{ task: 'x', ephemeral: { type: 'poem', content: 'x' } }], field: 'ephemeral' },
    ],
    stopRun: [{ args: [null], field: 'session' }],
    pauseRun: [{ args: ['x'], field: 'session' }],
    resumeRun: [{ args: [123], field: 'session' }],
    answerConfirmation: [
      { args: [{ requestId: 'r', approved: 'yes' }], field: 'approved' },
      { args: [{ approved: true }], field: 'requestId' },
    ],
    answerQuestion: [
      { args: [{ requestId: 7, answer: 'x' }], field: 'requestId' },
      { args: [{ requestId: 'r', answer: 'x'.repeat(30_000) }], field: 'answer' },
    ],
  };

  it('refuses every call\'s wrong arguments with a validation error naming the field', async () => {
    const problems: string[] = [];
    const names = Object.keys(APP_API) as AppApiName[];
    for (const name of names) {
      // Beyond the per-call cases: no arguments where one is needed, a wrong type, and extra arguments.
      const generic: { args: unknown[]; field: string }[] = [
        { args: ['not an object'], field: '' },
        { args: [{}, { extra: true }, 3], field: '' },
      ];
      for (const { args, field } of [...(WRONG[name] ?? []), ...generic]) {
        let outcome: unknown;
        try {
          outcome = await api.callRaw(name, args);
        } catch (error) {
          outcome = error;
        }
        const label = `${name}(${JSON.stringify(args)})`;
        if (!(outcome instanceof AppApiError)) {
          problems.push(`${label} was not refused: ${outcome instanceof Error ? outcome.stack : JSON.stringify(outcome)?.slice(0, 200)}`);
          continue;
        }
        if (outcome.code !== 'invalid-arguments') problems.push(`${label}: code ${outcome.code}, not invalid-arguments: ${outcome.message}`);
        if (field !== '' && !outcome.message.includes(field)) problems.push(`${label}: the message does not name ${field}: ${outcome.message}`);
        if (/^\s+at /m.test(outcome.message)) problems.push(`${label}: a stack trace in the message`);
      }
    }
    expect(problems).toEqual([]);
  });
});
