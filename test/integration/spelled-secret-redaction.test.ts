/**
 * Issue 24, finding 4: the configured API key sent key by key into an ordinary text field is `[redacted]`
 * everywhere the key sent with `type` is: the progress line and the --json events of `sightline run`, the
 * stored step (its action and result) and messages (the model's call as written, the tool result), and
 * `sightline sessions show`. Through two dialects and two providers: function tools over Chat Completions
 * (`key "s k - t …"`, the OpenAI key), and Claude's native computer tool over the Messages API (`key` with
 * `text: "s+k+-+t…"`, the Anthropic key).
 *
 * And spelled over several calls, none of which holds it: Qwen's `key` with at most 8 keys a call, and function
 * tools with one key a call. Every piece is masked in the stored rows once the call that completes the key is
 * recorded, and that call's events, and all after it, never show it; the events of the calls before it went
 * out when they ran (docs/decisions/0058-pasting-and-spelled-secrets.md).
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_LAYOUT } from '../../demo/demo-script.js';
import { runCli } from '../../src/main/cli/program.js';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { captureIo } from '../helpers/cli-io.js';
import { startFakeAnthropicServer } from '../helpers/fake-anthropic-server.js';
import { useRunEnvironment } from '../helpers/run-environment.js';
import { scriptedQwenMoves } from '../helpers/qwen-model-replies.js';
import { scriptedMoves, type ScriptedMove } from '../helpers/scripted-computer-model.js';
import { openHomeStorage } from '../helpers/seed.js';

const environment = useRunEnvironment('sightline-spelled-secret');

const KEY = 'sk-testKEY0123456789';
const SPELLED = [...KEY].join(' ');
/** Every form the key could be read in: whole, and its characters in order with anything between them. */
const READABLE = new RegExp([...'testKEY0123456789'].join('[^A-Za-z0-9]*'), 'i');

const ENV = { OPENAI_API_KEY: KEY, ANTHROPIC_API_KEY: KEY };

async function sightline(argv: string[], env: Record<string, string> = ENV): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const io = captureIo(env);
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

/** A key no piece of which (8 keys, or one) reads like anything the run writes on its own. */
const PIECED_KEY = 'sk-qzxwvJKQZXWVBqzjxkvwp';
const PAGE = { width: 1280, height: 800 };

/** The piece's characters in order, with anything but letters and digits between them, in either case. */
function readable(piece: string): RegExp {
  return new RegExp([...piece].map((character) => character.replace(/[-]/g, '\\$&')).join('[^A-Za-z0-9]*'), 'i');
}

/** The --json events of a run, in order. */
function eventsOf(stdout: string): AgentEvent[] {
  return stdout
    .trimEnd()
    .split('\n')
    .map((line) => AgentEventSchema.parse(JSON.parse(line)));
}

/** Every key step of the run is stored as `key [redacted]`, and every stored call names no key but `[redacted]`. */
function expectEveryPieceMasked(keyCalls: number): void {
  const storage = openHomeStorage(environment.home);
  try {
    const [session] = storage.sessions.list();
    const steps = storage.steps.listBySession(session!.id);
    const keySteps = steps.filter((step) => 'action' in step.action && step.action.action === 'key');
    expect(keySteps).toHaveLength(keyCalls);
    for (const step of keySteps) expect(step).toMatchObject({ action: { keys: REDACTED }, result: { ok: true, detail: `pressed ${REDACTED}` } });
    const messages = storage.turns.listBySession(session!.id).flatMap((turn) => storage.messages.listByTurn(turn.id));
    const calls = messages.flatMap((record) => (record.message.role === 'assistant' ? record.message.toolCalls : []));
    const keysWritten = calls.map((call) => (JSON.parse(call.argumentsText) as { keys?: unknown }).keys).filter((keys) => keys !== undefined);
    expect(keysWritten).toHaveLength(keyCalls);
    for (const keys of keysWritten) expect([REDACTED, [REDACTED]]).toContainEqual(keys);
    const results = messages.flatMap((record) => (record.message.role === 'tool' ? record.message.parts : [])).flatMap((part) => (part.type === 'text' ? [part.text] : []));
    expect(results.filter((text) => text.startsWith('pressed'))).toEqual(Array.from({ length: keyCalls }, () => `pressed ${REDACTED}`));
  } finally {
    storage.close();
  }
}

/** The events from the step of the call that completed the key on hold no readable piece; `sessions show` none at all. */
async function expectNothingReadableAfter(run: { stdout: string }, pieces: readonly RegExp[], keyCalls: number): Promise<void> {
  const events = eventsOf(run.stdout);
  const keySteps = events.flatMap((event, index) => (event.type === 'step' && event.action?.action === 'key' ? [index] : []));
  expect(keySteps).toHaveLength(keyCalls);
  const completing = keySteps.at(-1)!;
  expect(events[completing]).toMatchObject({ type: 'step', action: { action: 'key', keys: REDACTED } });
  const after = JSON.stringify(events.slice(completing));
  for (const piece of pieces) expect(after).not.toMatch(piece);
  const shown = await sightline(['sessions', 'show', stored().sessionId]);
  expect(shown.exitCode, shown.stderr).toBe(0);
  expect(shown.stdout.split(`key ${REDACTED}`)).toHaveLength(keyCalls + 1);
  for (const piece of pieces) expect(shown.stdout).not.toMatch(piece);
}

describe('a configured key spelled over several calls', () => {
  it("is [redacted] in every piece Qwen's key calls of at most 8 keys stored, and in what shows it after the last", { timeout: 90_000 }, async () => {
    const pieces = [PIECED_KEY.slice(0, 8), PIECED_KEY.slice(8, 16), PIECED_KEY.slice(16)];
    environment.model.script(
      scriptedQwenMoves(
        [
          { click: SANDBOX_LAYOUT.teamNameField, thought: 'Action: Click the Team name field.' },
          ...pieces.map((piece) => ({ key: [...piece], thought: 'Action: Press the next keys.' })),
          { terminate: 'success', thought: 'Action: Done.' },
        ],
        { form: 'native', coordinateSpace: 'pixels', layout: PAGE },
      ),
    );
    const run = await sightline(['run', 'Fill in the team name', '--operator', 'browser', '--url', environment.sandbox.url, '--base-url', environment.model.baseUrl, '--model', 'qwen2.5-vl-7b-instruct', '--json'], { OPENAI_API_KEY: PIECED_KEY });
    expect(run.exitCode, run.stderr).toBe(0);
    expectEveryPieceMasked(3);
    const stored_ = stored();
    for (const piece of [...pieces.slice(1), PIECED_KEY.slice(3, 8)]) {
      expect(stored_.steps).not.toMatch(readable(piece));
      expect(stored_.messages).not.toMatch(readable(piece));
    }
    await expectNothingReadableAfter(run, [readable(pieces[1]!), readable(pieces[2]!), readable(PIECED_KEY.slice(3, 8))], 3);
  });

  it('is [redacted] in every call of function tools pressing one key each, a screenshot between', { timeout: 120_000 }, async () => {
    const key = PIECED_KEY.slice(0, 12);
    const presses: ScriptedMove[] = [...key].map((character) => ({ action: { action: 'key', keys: character } }));
    environment.model.script(
      scriptedMoves([
        { action: { action: 'click', ...SANDBOX_LAYOUT.teamNameField } },
        ...presses.slice(0, 6),
        { action: { action: 'screenshot' } },
        ...presses.slice(6),
        { finish: 'Done.' },
      ]),
    );
    const run = await sightline(runArgs(environment.model.baseUrl), { OPENAI_API_KEY: key });
    expect(run.exitCode, run.stderr).toBe(0);
    expectEveryPieceMasked(key.length);
    const events = eventsOf(run.stdout);
    const last = events.findLastIndex((event) => event.type === 'step' && event.action?.action === 'key');
    // The calls before the last went out as they ran; from the last on, nothing names a key but [redacted].
    expect(events.filter((event) => event.type === 'step' && event.action?.action === 'key').slice(0, -1)).not.toHaveLength(0);
    expect(JSON.stringify(events.slice(last))).not.toMatch(/"keys":"(?!\[redacted\])/);
    await expectNothingReadableAfter(run, [/key [a-z0-9-](?=\s|$)/im], key.length);
  });
});
