/**
 * `sightline replay SESSION`: the session's finished turns, in order, on the present screen, each replayed from
 * that very turn with the checks of a flow's replay (docs/flows.md, "Replay"): a `do` turn (or a plain request)
 * replays its actions, checked before and after each against its recorded frames, and is healed by the model where
 * the screen diverged (`--no-heal`: the first divergence stops the replay, exit 1, naming the turn and the region);
 * a question reuses its recorded verdict on an identical frame and is asked again otherwise. The replay is a new
 * session of its own; the recorded one is only read.
 */
import type { Command } from 'commander';
import { parseId } from '../../../shared/ids.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { Sightline, StepFailedError, type SightlineAgent, type StepRecord } from '../../automation/index.js';
import { replayResultOf } from '../../flows/flow-runner.js';
import type { TurnRecord } from '../../storage/index.js';
import { loadCliConfig } from '../cli-config.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { watchInterrupts } from '../run/interrupts.js';
import { redactingWriter } from '../run/secrets.js';
import { assembleRun } from '../../app/run-assembly.js';

export interface ReplayOptions {
  heal?: boolean | undefined;
  url?: string | undefined;
  model?: string | undefined;
  baseUrl?: string | undefined;
  yes?: boolean | undefined;
}

interface RecordedSession {
  id: string;
  name: string;
  operator: 'browser' | 'desktop';
  turns: TurnRecord[];
}

export async function replaySession(invocation: CliInvocation, command: Command, sessionArgument: string, options: ReplayOptions): Promise<void> {
  const { io } = invocation;
  const flags = { 'model.name': options.model, 'model.baseUrl': options.baseUrl };
  const loaded = loadCliConfig(command, io, flags, { 'model.name': '--model', 'model.baseUrl': '--base-url' });
  const recorded = await readSession(loaded, sessionArgument);
  if (recorded.operator === 'browser' && options.url === undefined) {
    throw new UserError(`session ${recorded.id} drove a browser: give the page to replay it on with --url.`, EXIT.usage);
  }
  const secrets = secretsOf(recorded.turns, io.env);
  const redact = redactorOf([...configuredSecrets(loaded.config), ...Object.values(secrets)]);
  const stderr = redactingWriter(io.stderr, redact);
  await explainSetupErrors(() => assembleRun({ config: loaded.config, env: io.env, onWarning: (message) => stderr(`sightline: ${message}\n`), home: loaded.home.root }));
  const interrupts = watchInterrupts(stderr);
  let agent: SightlineAgent | undefined;
  let failed = false;
  try {
    agent = await Sightline.launch({
      home: loaded.home.root,
      env: io.env,
      operator: recorded.operator,
      ...(options.url === undefined ? {} : { url: options.url }),
      secrets,
      flowName: recorded.name,
      config: Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)),
      yes: options.yes === true,
    });
    stderr(`▶ replaying ${recorded.id} (${recorded.turns.length} turn${recorded.turns.length === 1 ? '' : 's'}) as ${agent.sessionId}\n`);
    for (const turn of recorded.turns) {
      if (interrupts.signal.aborted) break;
      const replay = { heal: options.heal !== false, from: turn.id };
      const step = await replayTurn(agent, turn, replay, interrupts.signal).catch((error: unknown) => {
        if (error instanceof StepFailedError) return error.step;
        throw error;
      });
      stderr(turnLine(turn, step));
      if (step.status !== 'passed') {
        failed = true;
        break;
      }
    }
  } finally {
    interrupts.dispose();
    await agent?.close();
  }
  invocation.exitCode = interrupts.signal.aborted ? EXIT.stopped : failed ? EXIT.failed : EXIT.ok;
}

/** One recorded turn, replayed by the SDK verb of its kind. */
async function replayTurn(agent: SightlineAgent, turn: TurnRecord, replay: { heal: boolean; from: string }, signal: AbortSignal): Promise<StepRecord> {
  const options = { replay, signal };
  switch (turn.stepKind) {
    case null:
    case 'do':
      return agent.do(turn.userRequest, options);
    case 'assert':
      return agent.assert(turn.userRequest, options);
    case 'if':
      await agent.check(turn.userRequest, options);
      return agent.steps.at(-1)!;
    case 'extract':
      // The schema is not stored; the recorded value's shape is what the model is asked for again.
      await agent.extract(turn.userRequest, {}, options);
      return agent.steps.at(-1)!;
    case 'wait_for':
      return agent.waitFor(turn.userRequest, options);
    case 'locate':
      await agent.locate(turn.userRequest, options);
      return agent.steps.at(-1)!;
  }
}

async function readSession(loaded: Parameters<typeof openCliRuntime>[0], sessionArgument: string): Promise<RecordedSession> {
  const id = parseId('session', sessionArgument);
  if (id === undefined) throw new UserError(`${JSON.stringify(sessionArgument.slice(0, 60))} is not a session id (ses_…).`, EXIT.usage);
  const runtime = await openCliRuntime(loaded);
  try {
    const session = runtime.storage.sessions.get(id);
    if (session === undefined) throw new UserError(`There is no session ${id} in ${loaded.home.root}.`, EXIT.failed);
    const turns = runtime.storage.turns.listBySession(id).filter((turn) => turn.status === 'finished');
    if (turns.length === 0) throw new UserError(`Session ${id} has no finished turn to replay.`, EXIT.failed);
    const operator = session.operator === 'desktop' ? 'desktop' : 'browser';
    return { id, name: session.flowName ?? session.title, operator, turns };
  } finally {
    runtime.close();
  }
}

/** The secrets the recorded requests name as {{NAME}}, from this environment: typed for the placeholders again. */
function secretsOf(turns: readonly TurnRecord[], env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const turn of turns) {
    for (const match of turn.userRequest.matchAll(/\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g)) {
      const value = env[match[1]!];
      if (value !== undefined && value !== '') secrets[match[1]!] = value;
    }
  }
  return secrets;
}

function turnLine(turn: TurnRecord, step: StepRecord): string {
  const mark = step.status === 'passed' ? '✓' : step.status === 'stopped' ? '■' : '✗';
  const replay = step.replay === undefined ? undefined : replayResultOf(step.replay);
  const how = replay === undefined ? '' : ` [${replay.mode}${replay.reusedAnswer === true ? ' verdict' : ''}${replay.saved.modelCalls > 0 ? `, ${replay.saved.modelCalls} model calls saved` : ''}${replay.why === undefined ? '' : `: ${replay.why}`}]`;
  const why = step.status === 'passed' || step.reason === undefined ? '' : `\n      ${step.reason.replace(/\s+/g, ' ')}`;
  return `  ${mark} turn ${turn.sequence} ${turn.stepKind ?? 'do'}: ${turn.userRequest.replace(/\s+/g, ' ').slice(0, 100)}${how}${why}\n`;
}
