/**
 * Issue 17, finding 5: a session title from an MCP client's name, or a model's summary, carrying
 * `ESC ] 0;…` (window title), `ESC [2J` (clear screen), an OSC 52 clipboard write or a C1 control reaches
 * no terminal raw: `sessions ls`, `sessions show` and `run`'s progress lines and summary show them
 * escaped, while `--json` output stays exactly the stored text.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/main/cli/program.js';
import { terminalLine, terminalText } from '../../src/shared/terminal-text.js';
import { captureIo, runSightline } from '../helpers/cli-io.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';

const WINDOW_TITLE = '\u001b]0;you have been owned\u0007';
const CLEAR_SCREEN = '\u001b[2J';
const CLIPBOARD_WRITE = '\u001b]52;c;cm0gLXJmIH4=\u0007';
const C1_CSI = '\u009b31m';
const HOSTILE = `Fill the form${WINDOW_TITLE}${CLEAR_SCREEN}${CLIPBOARD_WRITE}${C1_CSI}\rdone`;
/** Anything a terminal would take as the start of a command. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const environment = useRunEnvironment('sightline-terminal-output');

describe('the terminal sanitizer', () => {
  it('shows control characters and sequences escaped, keeps line breaks and tabs, and escapes those too in a line', () => {
    expect(terminalText(HOSTILE)).toBe(
      'Fill the form\\x1b]0;you have been owned\\x07\\x1b[2J\\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\\rdone',
    );
    expect(terminalText('two\nlines\tand a tab, é and 日本')).toBe('two\nlines\tand a tab, é and 日本');
    expect(terminalLine('two\nlines\tand\u202eevil')).toBe('two\\nlines\\tand\\u202eevil');
  });
});

describe('sessions ls and show', () => {
  it('print a hostile title and summary escaped, and --json exactly as stored', async () => {
    const storage = openHomeStorage(environment.home);
    const session = storage.sessions.create({ title: HOSTILE, operator: 'browser', model: 'test-model' });
    const turn = storage.turns.start({ sessionId: session.id, userRequest: HOSTILE });
    storage.turns.end(turn.id, 'finished');
    storage.turns.markCompacted(turn.id, `summary ${CLEAR_SCREEN}`);
    storage.close();
    const home = ['--home', environment.home.root];

    const list = await runSightline([...home, 'sessions', 'ls']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).not.toMatch(RAW_CONTROL);
    expect(list.stdout).toContain('Fill the form\\x1b]0;you have been');

    const show = await runSightline([...home, 'sessions', 'show', session.id]);
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).not.toMatch(RAW_CONTROL);
    expect(show.stdout).toContain(`Session ${session.id}: ${terminalLine(HOSTILE)}\n`);
    expect(show.stdout).toContain(`  request: ${terminalText(HOSTILE)}\n`);
    expect(show.stdout).toContain('  summary: summary \\x1b[2J\n');

    const listJson = await runSightline([...home, 'sessions', 'ls', '--json']);
    expect((JSON.parse(listJson.stdout) as { title: string }[])[0]?.title).toBe(HOSTILE);
    const showJson = await runSightline([...home, 'sessions', 'show', session.id, '--json']);
    const detail = JSON.parse(showJson.stdout) as { session: { title: string }; turns: { userRequest: string; summary: string }[] };
    expect(detail.session.title).toBe(HOSTILE);
    expect(detail.turns[0]).toMatchObject({ userRequest: HOSTILE, summary: `summary ${CLEAR_SCREEN}` });
    expect(showJson.stdout).toContain('\\u001b]0;you have been owned\\u0007');
  });
});

describe('sightline run', () => {
  const runArgs = (...extra: string[]) => [
    '--home', environment.home.root, 'run', `Do it ${WINDOW_TITLE}`, '--operator', 'browser',
    '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, ...extra,
  ];

  it("escapes the request in the progress lines and the model's summary on stderr and stdout", async () => {
    environment.model.script(scriptedMoves([{ finish: `Finished ${CLIPBOARD_WRITE}${C1_CSI}`, thought: CLEAR_SCREEN }]));
    const io = captureIo();
    const exitCode = await runCli(runArgs(), io);
    expect(exitCode, io.output.stderr).toBe(0);
    expect(io.output.stderr).not.toMatch(RAW_CONTROL);
    expect(io.output.stdout).not.toMatch(RAW_CONTROL);
    expect(io.output.stderr).toContain('Do it \\x1b]0;you have been owned\\x07');
    expect(io.output.stdout).toBe('Finished \\x1b]52;c;cm0gLXJmIH4=\\x07\\x9b31m\n');
  });

  it('keeps --json lines exact', async () => {
    environment.model.script(scriptedMoves([{ finish: `Finished ${CLIPBOARD_WRITE}` }]));
    const io = captureIo();
    const exitCode = await runCli(runArgs('--json'), io);
    expect(exitCode, io.output.stderr).toBe(0);
    const events = io.output.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; request?: string; summary?: string });
    expect(events.find((event) => event.type === 'turn-started')?.request).toBe(`Do it ${WINDOW_TITLE}`);
    expect(events.find((event) => event.type === 'turn-ended')?.summary).toBe(`Finished ${CLIPBOARD_WRITE}`);
    expect(io.output.stderr).not.toMatch(RAW_CONTROL);
  });
});
