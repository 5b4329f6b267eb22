/**
 * `sightline run "<task>"`: one turn of the agent, headless. Checks every flag before anything starts,
 * then opens the runtime, builds the model adapter, the operator and the agent, runs the turn with
 * progress on stderr (and JSON lines on stdout with --json), and sets the exit code from how it ended:
 * 0 finished, 1 failed, 2 usage or configuration error, 3 stopped.
 */
import type { Command } from 'commander';
import type { Config } from '../../../shared/config.js';
import { userText } from '../../../shared/messages.js';
import { openRuntime, type Runtime } from '../../api/runtime.js';
import { CompactionQueue, createCompactionHook, injectionDebugLogFromEnvironment } from '../../context/index.js';
import { createAgent, SessionUnavailableError, type Agent, type TurnOutcome, type TurnRequest } from '../../agent/index.js';
import { createModelAdapter } from '../../llm/create-model-adapter.js';
import type { ModelAdapter } from '../../llm/model-adapter.js';
import { ModelConfigurationError } from '../../llm/model-errors.js';
import { BrowserNotFoundError } from '../../operators/browser-executable.js';
import { BrowserOperatorError } from '../../operators/browser-operator.js';
import { createOperator } from '../../operators/create-operator.js';
import { DisplayUnavailableError, UnknownDisplayError } from '../../operators/display-errors.js';
import type { Operator } from '../../operators/operator.js';
import { DatabaseOpenError, DatabaseVersionError } from '../../storage/index.js';
import { loadCliConfig, type CliConfig } from '../context-config.js';
import { EXIT, UserError, type CliContext } from '../io.js';
import { readContextFile } from './context-file.js';
import { eventPrinter } from './event-output.js';
import { exitCodeOf } from './exit-codes.js';
import { watchInterrupts } from './interrupts.js';
import { askUserHandler, confirmationHandler } from './person-handlers.js';
import { CONFIG_FLAG_NAMES, checkTask, checkUrl, configFlags, parseSessionFlag, type RunOptions } from './run-options.js';
import { openRunTools, type RunTools } from './run-tools.js';
import { redactingWriter, secretsOf } from './secrets.js';
import { askOnTerminal } from './terminal-question.js';

export async function runTask(context: CliContext, command: Command, taskText: string, options: RunOptions): Promise<void> {
  const task = checkTask(taskText);
  const sessionId = parseSessionFlag(options.session);
  const ephemeral = readContextFile(options.contextFile, options.contextType, context.io.cwd);
  const loaded = loadCliConfig(command, context.io, configFlags(options), CONFIG_FLAG_NAMES);
  const { config } = loaded;
  const url = checkUrl(options.url, config);
  const secrets = secretsOf(config);
  const stdout = redactingWriter(context.io.stdout, secrets);
  const stderr = redactingWriter(context.io.stderr, secrets);
  const model = buildModel(config);

  const runtime = await openHomeRuntime(loaded);
  const interrupts = watchInterrupts(stderr);
  let operator: Operator | undefined;
  let extraTools: RunTools | undefined;
  try {
    if (sessionId !== undefined) checkSessionCanContinue(runtime, sessionId, loaded);
    operator = await withoutForeignInterruptHandlers(() => buildOperator(config, url, context.io.env));
    extraTools = await openRunTools(config, model, stderr);
    const ask = (question: string, signal: AbortSignal) => askOnTerminal(question, signal, interrupts.interrupt);
    const people = { io: context.io, stderr, assumeYes: options.yes === true, ask };
    const agent = createAgent({
      storage: runtime.storage,
      config,
      model,
      operator,
      confirm: confirmationHandler(people),
      askUser: askUserHandler(people),
      extraTools: extraTools.tools,
      onEvent: eventPrinter({ stdout, stderr, json: options.json === true, stream: options.stream === true }),
      injectionDebugLog: injectionDebugLogFromEnvironment(context.io.env, (line) => stderr(`${line}\n`)),
      turnEndHooks: [createCompactionHook(new CompactionQueue({ storage: runtime.storage }))],
    });
    stderr(`${operator.describe().kind} operator on ${operator.describe().target}, model ${config.model.name}\n`);
    const outcome = await runTurn(agent, {
      ...(sessionId !== undefined ? { sessionId } : {}),
      request: userText(task),
      ...(ephemeral !== undefined ? { ephemeral: [ephemeral] } : {}),
      signal: interrupts.signal,
    });
    reportOutcome(outcome, { stdout, stderr, json: options.json === true });
    context.exitCode = exitCodeOf(outcome);
  } finally {
    interrupts.dispose();
    await extraTools?.close();
    await operator?.close();
    runtime.close();
  }
}

function buildModel(config: Config): ModelAdapter {
  try {
    return createModelAdapter(config.model);
  } catch (error) {
    if (error instanceof ModelConfigurationError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

async function openHomeRuntime(loaded: CliConfig): Promise<Runtime> {
  try {
    return await openRuntime({ home: loaded.home, config: loaded.config });
  } catch (error) {
    if (error instanceof DatabaseVersionError || error instanceof DatabaseOpenError) throw new UserError(error.message, EXIT.failed);
    throw error;
  }
}

/** Checked before anything is launched, so a typo costs nothing; the agent checks again when the turn begins. */
function checkSessionCanContinue(runtime: Runtime, sessionId: string, loaded: CliConfig): void {
  const session = runtime.storage.sessions.get(sessionId);
  if (session === undefined) {
    throw new UserError(`--session: there is no session ${sessionId} in ${loaded.home.root} (see \`sightline sessions ls\`).`, EXIT.usage);
  }
  if (session.status === 'closed') throw new UserError(`--session: session ${sessionId} is closed and takes no new turns.`, EXIT.usage);
}

async function runTurn(agent: Agent, request: TurnRequest): Promise<TurnOutcome> {
  try {
    return await agent.runTurn(request);
  } catch (error) {
    if (error instanceof SessionUnavailableError) throw new UserError(`--session: ${error.message}`, EXIT.usage);
    throw error;
  }
}

/** The operator; a missing display or browser is the user's to fix (exit 2), with the operator's own message. */
async function buildOperator(config: Config, url: string | undefined, env: Record<string, string | undefined>): Promise<Operator> {
  try {
    return await createOperator({ kind: config.agent.operator, displayId: config.perception.displayId, url, env });
  } catch (error) {
    const fixable =
      error instanceof BrowserNotFoundError ||
      error instanceof BrowserOperatorError ||
      error instanceof DisplayUnavailableError ||
      error instanceof UnknownDisplayError;
    if (fixable) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

/**
 * playwright-core's launch installs its own Ctrl+C handler that closes its browsers and exits the process
 * with 130 at once, which would cut our clean stop short (the turn must end as stopped, exit 3). The
 * operator closes its browser itself when the turn ends, so any SIGINT listener added while the operator
 * was being created is removed. (A no-op once BrowserOperator launches with `handleSIGINT: false`.)
 */
async function withoutForeignInterruptHandlers<T>(create: () => Promise<T>): Promise<T> {
  const before = new Set(process.listeners('SIGINT'));
  try {
    return await create();
  } finally {
    for (const listener of process.listeners('SIGINT')) if (!before.has(listener)) process.off('SIGINT', listener);
  }
}

function reportOutcome(
  outcome: TurnOutcome,
  output: { stdout: (text: string) => void; stderr: (text: string) => void; json: boolean },
): void {
  // With --json, stdout holds events only; the turn-ended event already carries the summary.
  if (!output.json && outcome.summary !== undefined && outcome.summary !== '') output.stdout(`${outcome.summary}\n`);
  output.stderr(`session ${outcome.sessionId} (continue it with --session ${outcome.sessionId})\n`);
}
