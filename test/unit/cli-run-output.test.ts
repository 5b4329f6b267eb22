/**
 * What `sightline run` shows and decides without running anything: progress lines per event, the JSON
 * lines of --json, secrets masked in everything written, and who approves a risky action.
 */
import { describe, expect, it } from 'vitest';
import { AgentEventSchema, type AgentEvent } from '../../src/shared/events.js';
import { ConfigSchema } from '../../src/shared/config.js';
import { eventPrinter } from '../../src/main/cli/run/event-output.js';
import { askUserHandler, confirmationHandler } from '../../src/main/cli/run/person-handlers.js';
import { progressLine } from '../../src/main/cli/run/progress-lines.js';
import { redactingWriter } from '../../src/main/cli/run/secrets.js';
import { configuredSecrets, redactorOf } from '../../src/shared/secret-redaction.js';
import { exitCodeOf } from '../../src/main/cli/run/exit-codes.js';
import { captureIo } from '../helpers/cli-io.js';

const scope = { sessionId: 'ses_0123456789ab', turnId: 'turn_0123456789ab', at: 1_700_000_000_000 };

const step: AgentEvent = {
  type: 'step',
  ...scope,
  stepId: 'step_0123456789ab',
  sequence: 3,
  tool: 'computer',
  action: { action: 'click', x: 640.4, y: 412 },
  ok: true,
  latencyMs: 1234,
  usage: { inputTokens: 1200, outputTokens: 34 },
};

describe('progress lines', () => {
  it("shows a call's intent (Gemini 3.5's) as one inert line: no escape sequence, no line of its own", () => {
    const line = progressLine({ ...step, intent: 'Save\u001b]0;owned\u0007\u001b[2J\nrefused: forged' })!;
    expect(line).toMatch(/^step 3 {2}.* {2}intent: Save/);
    expect([...line].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)).toBe(false);
    expect(line).not.toContain('\nrefused');
    expect(progressLine(step)).not.toContain('intent');
  });

  it('shows a step with its action, result, time, tokens and cost', () => {
    expect(progressLine({ ...step, costDollars: 0.0042 } as AgentEvent)).toBe('step 3  click (640, 412)  ok  1.2s  1,234 tokens  $0.0042');
  });

  it("says a step's cost is unknown, not $0 and not blank, when the model has no price", () => {
    expect(progressLine(step)).toBe('step 3  click (640, 412)  ok  1.2s  1,234 tokens  cost unknown');
  });

  it('shows a failed step with its error, and a tool step by the tool name', () => {
    const failed = { ...step, ok: false, error: 'x=2100 is outside the screenshot', usage: undefined } as AgentEvent;
    expect(progressLine(failed)).toBe('step 3  click (640, 412)  failed: x=2100 is outside the screenshot  1.2s');
    const finish = { ...step, tool: 'finish', action: undefined } as AgentEvent;
    expect(progressLine(finish)).toMatch(/^step 3 {2}finish {2}ok/);
  });

  it('says when a screenshot was unchanged, and nothing for a new one', () => {
    const screenshot: AgentEvent = { type: 'screenshot', ...scope, imageId: 'img_aaaaaaaaaaaa', width: 1280, height: 800 };
    expect(progressLine(screenshot)).toBeUndefined();
    expect(progressLine({ ...screenshot, unchangedFrom: 'img_bbbbbbbbbbbb' })).toBe('unchanged: same as img_bbbbbbbbbbbb');
  });

  it('ends with the verdict, the step count, the tokens and the summary', () => {
    const ended: AgentEvent = {
      type: 'turn-ended',
      ...scope,
      status: 'failed',
      reason: 'step-limit',
      steps: 50,
      usage: { inputTokens: 123_456, outputTokens: 789 },
      summary: 'Ran out of steps.',
    };
    expect(progressLine(ended)).toBe('stopped at the step limit after 50 steps, 123,456 input + 789 output tokens: Ran out of steps.');
  });
});

describe('--json output', () => {
  it('writes each event as one parseable line on stdout, and streamed text only with --stream', () => {
    const io = captureIo();
    const delta: AgentEvent = { type: 'model-text-delta', ...scope, text: 'thinking' };
    const print = eventPrinter({ stdout: io.stdout, stderr: io.stderr, json: true, stream: false });
    print(step);
    print(delta);
    const lines = io.output.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(AgentEventSchema.parse(JSON.parse(lines[0]!))).toEqual(step);
    expect(io.output.stderr).toContain('step 3');

    const streaming = captureIo();
    eventPrinter({ stdout: streaming.stdout, stderr: streaming.stderr, json: true, stream: true })(delta);
    expect(streaming.output.stdout.trim()).toBe(JSON.stringify(delta));
  });

  it('writes nothing on stdout without --json', () => {
    const io = captureIo();
    eventPrinter({ stdout: io.stdout, stderr: io.stderr, json: false, stream: true })(step);
    expect(io.output.stdout).toBe('');
  });
});

describe('secrets', () => {
  it('masks every configured key in what is written', () => {
    const config = ConfigSchema.parse({ model: { apiKey: 'sk-test-secret-1234' }, search: { tavilyApiKey: 'tvly-abc-987' } });
    expect(configuredSecrets(config)).toEqual(['sk-test-secret-1234', 'tvly-abc-987']);
    let written = '';
    const write = redactingWriter((text) => (written += text), redactorOf(configuredSecrets(config)));
    write('401 for key sk-test-secret-1234, and tvly-abc-987 too\n');
    expect(written).toBe('401 for key [redacted], and [redacted] too\n');
  });
});

describe('confirmation and questions', () => {
  const request = { ...scope, requestId: 'request-1', action: { action: 'key', keys: 'alt+F4' } as const, reason: 'key combination alt+F4 may close a window or tab' };
  const signal = new AbortController().signal;
  const neverAsked = async (): Promise<string | undefined> => {
    throw new Error('must not ask');
  };

  it('refuses a risky action without a terminal, and says how to allow it', async () => {
    const io = captureIo();
    const confirm = confirmationHandler({ io, stderr: io.stderr, assumeYes: false, ask: neverAsked });
    expect(await confirm(request, signal)).toEqual({ approved: false, by: 'policy' });
    expect(io.output.stderr).toContain('pass --yes');
  });

  it('approves with --yes and says so', async () => {
    const io = captureIo();
    const confirm = confirmationHandler({ io, stderr: io.stderr, assumeYes: true, ask: neverAsked });
    expect(await confirm(request, signal)).toEqual({ approved: true, by: 'flag' });
    expect(io.output.stderr).toContain('allowed by --yes: key alt+F4');
  });

  it('asks on a terminal: y approves, anything else refuses', async () => {
    const io = { ...captureIo(), isInteractive: true };
    const questions: string[] = [];
    for (const [answer, approved] of [['y', true], ['Yes', true], ['', false], ['n', false], [undefined, false]] as const) {
      const ask = async (question: string): Promise<string | undefined> => {
        questions.push(question);
        return answer;
      };
      expect(await confirmationHandler({ io, stderr: io.stderr, assumeYes: false, ask })(request, signal)).toEqual({ approved, by: 'user' });
    }
    expect(questions[0]).toBe('Allow key alt+F4 (key combination alt+F4 may close a window or tab)? [y/N] ');
  });

  it('shows the model\'s words in a question or a refusal on one line, escaped', async () => {
    // A reason or typed text the model chose may carry escape sequences (retitle, clear, clipboard) and line breaks.
    const hostile = { ...request, action: { action: 'type' as const, text: 'hi\u001b]52;c;cGF5bG9hZA==\u0007\nrefused: nothing' }, reason: 'looks\rlike a secret' };
    const io = { ...captureIo(), isInteractive: true };
    const questions: string[] = [];
    const ask = async (question: string): Promise<string | undefined> => {
      questions.push(question);
      return 'n';
    };
    await confirmationHandler({ io, stderr: io.stderr, assumeYes: false, ask })(hostile, signal);
    const headless = captureIo();
    await confirmationHandler({ io: headless, stderr: headless.stderr, assumeYes: false, ask: neverAsked })(hostile, signal);
    for (const printed of [questions[0]!, io.output.stderr, headless.output.stderr]) {
      // eslint-disable-next-line no-control-regex -- finding control characters is the point
      expect(printed).not.toMatch(/[\u001b\u0007\r]/);
      expect(printed.trimEnd().split('\n')).toHaveLength(1);
      expect(printed).toContain('looks\\rlike');
    }
  });

  it('leaves a question unanswered without a terminal, and passes the answer on with one', async () => {
    const headless = captureIo();
    const context = { sessionId: scope.sessionId, turnId: scope.turnId, requestId: 'request-2' };
    expect(await askUserHandler({ io: headless, stderr: headless.stderr, assumeYes: false, ask: neverAsked })('Which team?', context, signal)).toBeUndefined();
    const io = { ...captureIo(), isInteractive: true };
    const ask = async (): Promise<string | undefined> => '  Platform ';
    expect(await askUserHandler({ io, stderr: io.stderr, assumeYes: false, ask })('Which team?', context, signal)).toBe('Platform');
  });
});

describe('exit codes', () => {
  it('are 0 finished, 1 failed, 3 stopped', () => {
    expect(exitCodeOf({ status: 'finished' })).toBe(0);
    expect(exitCodeOf({ status: 'failed' })).toBe(1);
    expect(exitCodeOf({ status: 'stopped' })).toBe(3);
  });
});
