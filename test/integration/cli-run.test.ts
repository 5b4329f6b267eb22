/**
 * `sightline run` in-process (runCli), against the fake model server and the browser operator on the
 * bundled sandbox page: exit codes 0/1/2/3, --json lines that are valid events and nothing else, every bad
 * flag refused with exit 2 naming it, a missing API key, risky actions without a terminal, keys never
 * printed, and --session continuing a session with its history.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { runCli } from '../../src/main/cli/program.js';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { captureIo } from '../helpers/cli-io.js';
import { scriptedMoves, type RequestSummary, type ScriptedMove } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { waitFor } from '../helpers/wait-for.js';

const environment = useRunEnvironment('sightline-cli-run');

interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  events: AgentEvent[];
}

function browserArgs(task: string, ...extra: string[]): string[] {
  return ['--home', environment.home.root, 'run', task, '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, ...extra];
}

async function run(argv: string[], env: Record<string, string | undefined> = {}, whileRunning?: () => Promise<void>): Promise<RunResult> {
  const io = captureIo(env);
  const running = runCli(argv, io);
  await whileRunning?.();
  const exitCode = await running;
  const lines = argv.includes('--json') ? io.output.stdout.split('\n').filter((line) => line !== '') : [];
  const events = lines.map((line) => AgentEventSchema.parse(JSON.parse(line)));
  return { exitCode, ...io.output, events };
}

function script(moves: ScriptedMove[]): RequestSummary[] {
  const seen: RequestSummary[] = [];
  environment.model.script(scriptedMoves(moves, (summary) => seen.push(summary)));
  return seen;
}

const fillName: ScriptedMove[] = [
  { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
  { action: { action: 'type', text: 'Platform' } },
  { finish: 'Named the team Platform.' },
];

describe('sightline run', () => {
  it('finishes a task with exit 0, one valid event per line on stdout with --json and progress on stderr', async () => {
    const requests = script(fillName);
    const result = await run(browserArgs('Name the team Platform', '--json'));

    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout.endsWith('\n')).toBe(true);
    expect(result.events.length).toBe(result.stdout.trimEnd().split('\n').length);
    expect(result.events[0]).toMatchObject({ type: 'turn-started', request: 'Name the team Platform' });
    expect(result.events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'finished', summary: 'Named the team Platform.' });
    expect(result.events.some((event) => event.type === 'model-text-delta')).toBe(false);
    const actions = result.events.flatMap((event) => (event.type === 'step' && event.action ? [event.action.action] : []));
    expect(actions).toEqual(['click', 'type']);
    expect(result.stderr).toContain('step 1  click (640, 233)  ok');
    expect(result.stderr).toContain('finished after');
    expect(requests.every((request) => request.images > 0)).toBe(true);
  });

  it('exits 1 when the task failed', async () => {
    script([{ finish: 'There is no such setting on this page.', success: false }]);
    const result = await run(browserArgs('Enable dark mode'));
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('There is no such setting on this page.\n');
  });

  it('exits 3 when stopped with Ctrl+C mid-turn, and the turn is recorded as stopped', async () => {
    script([{ action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } }, { hang: true }]);
    const result = await run(browserArgs('Name the team', '--json'), {}, async () => {
      await waitFor(() => environment.model.requests.length === 2, { description: 'the second model call', timeoutMs: 20_000 });
      process.emit('SIGINT', 'SIGINT');
    });
    expect(result.exitCode).toBe(3);
    expect(result.events.at(-1)).toMatchObject({ type: 'turn-ended', status: 'stopped' });
    expect(result.stderr).toContain('stopping');
    const ended = result.events.at(-1) as Extract<AgentEvent, { type: 'turn-ended' }>;
    const storage = openHomeStorage(environment.home);
    expect(storage.turns.get(ended.turnId)?.status).toBe('stopped');
    storage.close();
    expect(process.listenerCount('SIGINT')).toBe(0);
  });

  it('continues a session with --session: the second turn sees the first turn in its request', async () => {
    script(fillName);
    const first = await run(browserArgs('Name the team Platform', '--json'));
    expect(first.exitCode).toBe(0);
    const sessionId = first.events[0]!.sessionId;
    expect(first.stderr).toContain(`--session ${sessionId}`);

    const requests = script([{ finish: 'The name is Platform.' }]);
    const second = await run(browserArgs('What did you name the team?', '--json', '--session', sessionId));
    expect(second.exitCode, second.stderr).toBe(0);
    expect(second.events.every((event) => event.sessionId === sessionId)).toBe(true);
    expect(requests[0]!.text).toContain('Name the team Platform');
    expect(requests[0]!.text).toContain('What did you name the team?');

    const storage = openHomeStorage(environment.home);
    expect(storage.turns.listBySession(sessionId)).toHaveLength(2);
    storage.close();
  });

  it('says a browser it cannot find is the user\'s to fix: exit 2 with the message, no stack trace', async () => {
    const result = await run(browserArgs('Name the team'), { SIGHTLINE_BROWSER_PATH: '/nonexistent/chrome' });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no browser at /nonexistent/chrome (SIGHTLINE_BROWSER_PATH)');
    expect(result.stderr).not.toContain('unexpected error');
  });

  it('refuses a risky action without a terminal, and allows it with --yes', async () => {
    const risky: ScriptedMove[] = [{ action: { action: 'key', keys: 'Delete' } }, { finish: 'Pressed Delete.' }];
    script(risky);
    const refused = await run(browserArgs('Press Delete', '--json'));
    const refusal = refused.events.find((event) => event.type === 'confirmation-answered');
    expect(refusal).toMatchObject({ approved: false, by: 'policy' });
    expect(refused.stderr).toContain('refused: key Delete');
    expect(refused.stderr).toContain('pass --yes');

    // The refused run used up its replies (the refusal, then finish); the allowed run gets its own.
    script(risky);
    const allowed = await run(browserArgs('Press Delete', '--json', '--yes'));
    expect(allowed.exitCode, allowed.stderr).toBe(0);
    expect(allowed.events.find((event) => event.type === 'confirmation-answered')).toMatchObject({ approved: true, by: 'flag' });
    expect(allowed.events.find((event) => event.type === 'step' && event.action?.action === 'key')).toMatchObject({ ok: true });
    expect(allowed.stderr).toContain('allowed by --yes: key Delete');
  });

  it('never prints the API key, even when the endpoint echoes it back', async () => {
    const key = 'sk-test-do-not-print-0123456789';
    environment.model.script([{ type: 'error', status: 401, message: `Incorrect API key provided: ${key}` }]);
    const result = await run(browserArgs('Name the team', '--json'), { OPENAI_API_KEY: key });
    expect(result.exitCode).not.toBe(0);
    expect(environment.model.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(result.stdout + result.stderr).not.toContain(key);
  });
});

describe('sightline run: usage and configuration errors exit 2 before anything starts', () => {
  const cases: Array<[string, string[], RegExp]> = [
    ['--max-steps abc', ['--max-steps', 'abc'], /--max-steps/],
    ['--max-steps 0', ['--max-steps', '0'], /--max-steps/],
    ['--confirm maybe', ['--confirm', 'maybe'], /--confirm/],
    ['--operator x', ['--operator', 'x'], /--operator/],
    ['--base-url not-a-url', ['--base-url', 'not-a-url'], /--base-url/],
    ['--session that is not an id', ['--session', 'yesterday'], /--session/],
    ['--session of no stored session', ['--session', 'ses_0123456789ab'], /--session: there is no session ses_0123456789ab/],
    ['--dialect that does not exist', ['--dialect', 'sideways'], /model\.dialect: expected one of function-tools, openai-computer, ui-tars, qwen-computer-use, anthropic-computer, gemini-computer-use, got "sideways" \(from --dialect\)/],
  ];
  // model.api unset follows the dialect (modelApi); set to Chat Completions, it cannot carry openai-computer.
  const onChatCompletions: Array<[string, string[], RegExp]> = [
    ['--dialect openai-computer on Chat Completions', ['--dialect', 'openai-computer'], /openai-computer dialect .*needs model\.api responses.*set model\.api to responses/],
    ['--model gpt-5.4 on Chat Completions', ['--model', 'gpt-5.4'], /openai-computer dialect \(chosen by the model profile for gpt-5\.4\)/],
  ];
  for (const [name, flags, message] of onChatCompletions) {
    it(`${name}`, async () => {
      const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl, ...flags], {
        SIGHTLINE_MODEL_API: 'chat-completions',
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(environment.model.requests).toHaveLength(0);
    });
  }
  for (const [name, flags, message] of cases) {
    it(`${name}`, async () => {
      const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl, ...flags]);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
      expect(environment.model.requests).toHaveLength(0);
    });
  }

  it('SIGHTLINE_MODEL_DIALECT that does not exist', async () => {
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl], {
      SIGHTLINE_MODEL_DIALECT: 'sideways',
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('model.dialect: expected one of function-tools, openai-computer, ui-tars, qwen-computer-use, anthropic-computer, gemini-computer-use, got "sideways" (from env SIGHTLINE_MODEL_DIALECT)');
    expect(environment.model.requests).toHaveLength(0);
  });

  it('the ui-tars dialect while web_search would be offered (TAVILY_API_KEY), saying what to unset', async () => {
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl, '--model', 'ui-tars-1.5-7b'], {
      TAVILY_API_KEY: 'tvly-cli-test-key',
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/ui-tars dialect \(chosen by the model profile for ui-tars-1\.5-7b\) cannot offer .*web_search .*unset TAVILY_API_KEY/);
    expect(result.stderr).not.toContain('tvly-cli-test-key');
    expect(result.stderr).not.toContain('    at ');
    expect(environment.model.requests).toHaveLength(0);
  });

  it('the ui-tars dialect while MCP servers would be offered (mcp.servers), naming them', async () => {
    mkdirSync(environment.home.root, { recursive: true });
    writeFileSync(environment.home.configFile, JSON.stringify({ mcp: { servers: { notes: { command: 'does-not-matter' } } } }));
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl, '--dialect', 'ui-tars']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/ui-tars dialect \(chosen by model\.dialect\) cannot offer .*MCP server notes \(mcp\.servers\).*remove mcp\.servers from config\.json/);
    expect(environment.model.requests).toHaveLength(0);
  });

  it('--session of a closed session', async () => {
    const storage = openHomeStorage(environment.home);
    const session = storage.sessions.create({ title: 'Old work', operator: 'browser', model: 'gpt-4.1' });
    storage.sessions.setStatus(session.id, 'closed');
    storage.close();
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', environment.model.baseUrl, '--session', session.id]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(`--session: session ${session.id} is closed`);
    expect(environment.model.requests).toHaveLength(0);
  });

  it('--url with the desktop operator', async () => {
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'desktop', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/--url .*--operator browser/);
  });

  it('--url without --operator takes the browser operator, as the SDK does (issue 38)', async () => {
    script([{ finish: 'Nothing to do.' }]);
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`browser operator on ${environment.sandbox.url}`);
  });

  it('--url that is not a URL', async () => {
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--url', 'sandbox page']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('--url');
  });

  it('an empty task, and no task at all', async () => {
    expect((await run(['--home', environment.home.root, 'run', '  '])).exitCode).toBe(2);
    const missing = await run(['--home', environment.home.root, 'run']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('task');
  });

  it('no API key for a non-local endpoint names OPENAI_API_KEY', async () => {
    const result = await run(['--home', environment.home.root, 'run', 'do something', '--operator', 'browser', '--base-url', 'https://api.example.com/v1']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('OPENAI_API_KEY');
    expect(result.stderr).not.toContain('    at ');
  });
});
