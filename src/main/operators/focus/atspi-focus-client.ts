/**
 * The long-running AT-SPI helper (resources/focus/atspi-focus.py under /usr/bin/python3), seen from Node:
 * started at the first question, asked one JSON line per question, stopped by its pid with the operator.
 * Every way it can fail (no python3-gi, no Atspi typelib, no accessibility bus, a crash, a hang, garbage on
 * stdout) ends in `undefined`, the caller's 'unknown', and never in a throw or a wait past the deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { AccessibleFocus } from './atspi-roles.js';
import { focusHelperScriptPath } from './focus-helper-script.js';

/** The system python: `python3` on PATH may be a virtualenv or pyenv shim without PyGObject. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** What to install on Debian and Ubuntu when the helper cannot run. */
export const ATSPI_PACKAGES_FIX =
  'install python3-gi, gir1.2-atspi-2.0 and at-spi2-core (Debian/Ubuntu: sudo apt-get install python3-gi gir1.2-atspi-2.0 at-spi2-core), ' +
  'and run in a desktop session with its D-Bus session bus';

export interface AtspiFocusClientOptions {
  python?: string;
  /** The helper script; found next to the project (focus-helper-script.ts) by default. */
  scriptPath?: string | undefined;
  /** Environment of the helper (DISPLAY, DBUS_SESSION_BUS_ADDRESS); process.env by default. */
  env?: NodeJS.ProcessEnv;
  /** How long the helper may take to say it is ready (the first start may activate the AT-SPI registry). */
  startTimeoutMs?: number;
  /** How long one answer may take. */
  answerTimeoutMs?: number;
  /** How many times a helper that died is started again before the client gives up for good. */
  maxStarts?: number;
}

const ReadyLineSchema = z.union([z.object({ ready: z.literal(true) }), z.object({ unavailable: z.string() })]);

const AnswerLineSchema = z.object({
  id: z.number(),
  role: z.string().nullable(),
  states: z.array(z.string()).optional(),
  application: z.string().nullable().optional(),
  pid: z.number().nullable().optional(),
});

const STOP_GRACE_MS = 2000;

interface RunningHelper {
  child: ChildProcess;
  /** Settles once the helper has exited, however. */
  exited: Promise<void>;
  answers: Map<number, (line: z.infer<typeof AnswerLineSchema> | undefined) => void>;
}

export type HelperState = { kind: 'idle' } | { kind: 'running'; helper: RunningHelper } | { kind: 'unavailable'; reason: string };

export class AtspiFocusClient {
  private readonly python: string;
  /** Found when the helper first starts: a walk up the folders that an operator which never types skips. */
  private readonly scriptPath: () => string | undefined;
  private readonly env: NodeJS.ProcessEnv;
  private readonly startTimeoutMs: number;
  private readonly answerTimeoutMs: number;
  private readonly maxStarts: number;
  private state: HelperState = { kind: 'idle' };
  private starting: Promise<HelperState> | undefined;
  private starts = 0;
  private nextId = 1;
  private closed = false;

  constructor(options: AtspiFocusClientOptions = {}) {
    this.python = options.python ?? SYSTEM_PYTHON;
    const given = options.scriptPath;
    this.scriptPath = 'scriptPath' in options ? () => given : () => focusHelperScriptPath();
    this.env = options.env ?? process.env;
    this.startTimeoutMs = options.startTimeoutMs ?? 8000;
    this.answerTimeoutMs = options.answerTimeoutMs ?? 1500;
    this.maxStarts = options.maxStarts ?? 3;
  }

  /** The focused element, or undefined when the helper cannot tell (nothing focused known, or no helper). */
  async focusedElement(): Promise<AccessibleFocus | undefined> {
    const state = await this.running();
    if (state.kind !== 'running') return undefined;
    const line = await this.ask(state.helper);
    if (line === undefined || line.role === null) return undefined;
    return { role: line.role, states: line.states ?? [], application: line.application ?? undefined, processId: line.pid ?? undefined };
  }

  /** Starts the helper if it is not running, and says whether it runs or why it cannot. */
  async readiness(): Promise<{ ready: true } | { ready: false; reason: string }> {
    const state = await this.running();
    return state.kind === 'running' ? { ready: true } : { ready: false, reason: state.kind === 'unavailable' ? state.reason : 'not started' };
  }

  /** The helper's pid while it runs (tests check that close() leaves none behind). */
  helperPid(): number | undefined {
    return this.state.kind === 'running' ? this.state.helper.child.pid : undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.starting !== undefined) await this.starting;
    if (this.state.kind === 'running') await stopHelper(this.state.helper);
    this.state = { kind: 'unavailable', reason: 'closed' };
  }

  private async running(): Promise<HelperState> {
    if (this.state.kind !== 'idle') return this.state;
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<HelperState> {
    if (this.closed) return { kind: 'unavailable', reason: 'closed' };
    const scriptPath = this.scriptPath();
    if (scriptPath === undefined) return (this.state = { kind: 'unavailable', reason: 'the helper script resources/focus/atspi-focus.py is missing' });
    this.starts += 1;
    const child = spawn(this.python, [scriptPath], { stdio: ['pipe', 'pipe', 'ignore'], env: this.env });
    // A helper that dies while a question is written makes the pipe fail (EPIPE); the question is then
    // unanswered (its timer or the exit settles it), which must not become an uncaught error.
    child.stdin?.on('error', () => undefined);
    const helper: RunningHelper = { child, exited: exitOf(child), answers: new Map() };
    const outcome = await firstLine(helper, this.startTimeoutMs);
    if (outcome.kind !== 'ready') {
      await stopHelper(helper);
      return (this.state = { kind: 'unavailable', reason: outcome.reason });
    }
    void helper.exited.then(() => this.forget(helper));
    if (this.closed) {
      await stopHelper(helper);
      return { kind: 'unavailable', reason: 'closed' };
    }
    return (this.state = { kind: 'running', helper });
  }

  /** A helper that died answers nothing more; the next question starts another, a few times at most. */
  private forget(helper: RunningHelper): void {
    for (const answer of helper.answers.values()) answer(undefined);
    helper.answers.clear();
    if (this.state.kind !== 'running' || this.state.helper !== helper) return;
    this.state = this.starts < this.maxStarts ? { kind: 'idle' } : { kind: 'unavailable', reason: `the AT-SPI helper exited ${this.starts} times` };
  }

  private ask(helper: RunningHelper): Promise<z.infer<typeof AnswerLineSchema> | undefined> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => settle(undefined), this.answerTimeoutMs);
      const settle = (line: z.infer<typeof AnswerLineSchema> | undefined): void => {
        clearTimeout(timer);
        helper.answers.delete(id);
        resolve(line);
      };
      helper.answers.set(id, settle);
      helper.child.stdin?.write(`${JSON.stringify({ id })}\n`, (error) => {
        if (error) settle(undefined);
      });
    });
  }
}

function deliverAnswer(helper: RunningHelper, text: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return;
  }
  const line = AnswerLineSchema.safeParse(parsed);
  if (line.success) helper.answers.get(line.data.id)?.(line.data);
}

type StartOutcome = { kind: 'ready' } | { kind: 'failed'; reason: string };

/**
 * Reads the helper's lines from its start: the first says ready or why not (a helper that says nothing in
 * time, or dies first, is not ready); the others are answers.
 */
function firstLine(helper: RunningHelper, timeoutMs: number): Promise<StartOutcome> {
  const { child } = helper;
  return new Promise((resolve) => {
    let started = false;
    const finish = (outcome: StartOutcome): void => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => finish({ kind: 'failed', reason: `the AT-SPI helper did not start within ${timeoutMs} ms` }), timeoutMs);
    child.once('error', (error) => finish({ kind: 'failed', reason: `${child.spawnfile} cannot be started: ${error.message}` }));
    createInterface({ input: child.stdout! }).on('line', (text) => (started ? deliverAnswer(helper, text) : finish(readyOutcome(text))));
    void helper.exited.then(() => finish({ kind: 'failed', reason: 'the AT-SPI helper exited before it was ready' }));
  });
}

function readyOutcome(text: string): StartOutcome {
  try {
    const line = ReadyLineSchema.safeParse(JSON.parse(text));
    if (line.success) return 'ready' in line.data ? { kind: 'ready' } : { kind: 'failed', reason: line.data.unavailable };
  } catch {
    // Not JSON: said below.
  }
  return { kind: 'failed', reason: `the AT-SPI helper answered something unexpected: ${text.slice(0, 120)}` };
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    // A child that could not be spawned emits 'error' and never 'exit'.
    child.once('error', () => resolve());
  });
}

/** Closes its stdin (the helper exits at end of input), then SIGTERM, then SIGKILL: by its pid, waited for. */
async function stopHelper(helper: RunningHelper): Promise<void> {
  const { child } = helper;
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.stdin?.end();
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
  await helper.exited;
  clearTimeout(timer);
}
