/**
 * Issue 24, finding 4: the configured API key sent key by key into an ordinary text field is `[redacted]`
 * everywhere the key sent with `type` is: the progress line and the --json events of `sightline run`, the
 * stored step (its action and result) and messages (the model's call as written, the tool result), and
 * `sightline sessions show`. Through two dialects and two providers: function tools over Chat Completions
 * (`key "s k - t …"`, the OpenAI key), and Claude's native computer tool over the Messages API (`key` with
 * `text: "s+k+-+t…"`, the Anthropic key).
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { runCli } from '../../src/main/cli/program.js';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { scriptedMoves } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';

const environment = useRunEnvironment('sightline-spelled-secret');

const KEY = 'sk-testKEY0123456789';
const SPELLED = [...KEY].join(' ');
/** Every form the key could be read in: whole, and its characters in order with anything between them. */
const READABLE = new RegExp([...'testKEY0123456789'].join('[^A-Za-z0-9]*'), 'i');

const ENV = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };

async function sightline(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const io = captureIo(ENV);
  const exitCode = await runCli(['--home', environment.home.root, ...argv], io);
  return { exitCode, ...io.output };
}

function runArgs(baseUrl: string, ...extra: string[]): string[] {
  return ['run', 'Fill in the team name', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', baseUrl, '--json', ...extra];
}

/** What the run stored: every step and message of its one session, as JSON, and the session's id. */
function stored(): { sessionId: string; steps: string; messages: string; keyStep: unknown } {
  const storage = openHomeStorage(environment.home);
  try {
    const [session] = storage.sessions.list();
    const steps = storage.steps.listBySession(session!.id);
    const messages = storage.turns.listBySession(session!.id).flatMap((turn) => storage.messages.listByTurn(turn.id));
    const keyStep = steps.find((step) => 'action' in step.action && step.action.action === 'key');
    return { sessionId: session!.id, steps: JSON.stringify(steps), messages: JSON.stringify(messages), keyStep };
  } finally {
    storage.close();
  }
}

async function expectRedactedEverywhere(run: { exitCode: number; stdout: string; stderr: string }): Promise<void> {
  expect(run.exitCode, run.stderr).toBe(0);
  expect(run.stdout).toContain(REDACTED);
  expect(run.stdout).not.toMatch(READABLE);
  expect(run.stderr).not.toMatch(READABLE);
  const rows = stored();
  expect(rows.keyStep).toMatchObject({ action: { action: 'key', keys: REDACTED }, result: { ok: true } });
  expect(rows.steps).not.toMatch(READABLE);
  expect(rows.messages).toContain(REDACTED);
  expect(rows.messages).not.toMatch(READABLE);
  const shown = await sightline(['sessions', 'show', rows.sessionId]);
  expect(shown.exitCode, shown.stderr).toBe(0);
  expect(shown.stdout).toContain(`key ${REDACTED}`);
  expect(shown.stdout).not.toMatch(READABLE);
}

describe('a configured key spelled key by key', () => {
  it('is [redacted] in what function tools store and print', { timeout: 60_000 }, async () => {
    environment.model.script(
      scriptedMoves([
        { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
        { action: { action: 'key', keys: SPELLED }, thought: 'Spelling it out.' },
        { finish: 'Done.' },
      ]),
    );
    await expectRedactedEverywhere(await sightline(runArgs(environment.model.baseUrl)));
  });

  it("is [redacted] in what Claude's computer tool stores and prints", { timeout: 60_000 }, async () => {
    const claude = await startFakeAnthropicServer();
    try {
      const click = { action: 'left_click', coordinate: [SANDBOX_LAYOUT.teamNameField.x, SANDBOX_LAYOUT.teamNameField.y] };
      claude.script([
        { type: 'answer', toolUses: [{ id: 'toolu_01', name: 'computer', inputText: JSON.stringify(click) }] },
        { type: 'answer', text: 'Spelling it out.', toolUses: [{ id: 'toolu_02', name: 'computer', inputText: JSON.stringify({ action: 'key', text: [...KEY].join('+') }) }] },
        { type: 'answer', toolUses: [{ id: 'toolu_03', name: 'finish', inputText: JSON.stringify({ summary: 'Done.', success: true }) }] },
      ]);
      await expectRedactedEverywhere(await sightline(runArgs(claude.baseUrl, '--model', 'claude-sonnet-4-5')));
    } finally {
      await claude.close();
    }
  });
});
