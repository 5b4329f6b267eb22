/**
 * `sightline run "<task>"`: one turn of the agent, headless. Checks every flag and builds the model adapter
 * before anything starts, then opens the runtime, the run's parts (the one run assembly: operator, extra
 * tools, turn-end hooks) and the agent, runs the turn with progress on stderr (and JSON lines on stdout
 * with --json), and sets the exit code from how it ended: 0 finished, 1 failed, 2 usage or configuration
 * error (a missing key, display or browser included), 3 stopped.
 */
import type { Command } from 'commander';
import { secretRedactor } from '../../../shared/secret-redaction.js';
import { terminalText } from '../../../shared/terminal-text.js';
import { assembleRun, type RunParts } from '../../app/run-assembly.js';
import type { Runtime } from '../../app/runtime.js';
import { injectionDebugLogFromEnvironment } from '../../context/index.js';
import { requestWithPictures } from '../../perception/attached-pictures.js';
import { createAgent, SessionUnavailableError, unpricedCeilingRefusal, type Agent, type TurnOutcome, type TurnRequest } from '../../agent/index.js';
import { loadCliConfig, type CliConfig } from '../cli-config.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import { explainStorageFailure } from '../storage-failure-errors.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { homePrivacyWarning } from '../home-privacy.js';
import { commandOutput } from '../terminal-output.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { readContextFile } from './context-file.js';
import { readPictureFiles } from './picture-files.js';
import { eventPrinter } from './event-output.js';
import { exitCodeOf } from './exit-codes.js';
import { watchInterrupts } from './interrupts.js';
import { watchDesktopStopShortcut } from './stop-shortcut-watch.js';
import { askUserHandler, confirmationHandler } from './person-handlers.js';
import { CONFIG_FLAG_NAMES, checkCdp, checkTask, checkUrl, configFlags, parseSessionFlag, type RunOptions } from './run-options.js';
import { redactingWriter } from './secrets.js';
import { askOnTerminal } from './terminal-question.js';

export async function runTask(invocation: CliInvocation, command: Command, taskText: string, options: RunOptions): Promise<void> {
  const task = checkTask(taskText);
  const sessionId = parseSessionFlag(options.session);
  const ephemeral = readContextFile(options.contextFile, options.contextType, invocation.io.cwd);
  const pictures = await readPictureFiles(options.image, invocation.io.cwd);
  const loaded = loadCliConfig(command, invocation.io, configFlags(options), CONFIG_FLAG_NAMES);
  const { config } = loaded;
  // A ceiling in dollars that no price can be held to is refused before anything opens or any request is sent.
  const unheld = unpricedCeilingRefusal(config, config.agent.maxCost, options.maxCost !== undefined ? '--max-cost' : 'agent.maxCost');
  if (unheld !== undefined) throw new UserError(unheld, EXIT.usage);
  const url = checkUrl(options.url, config);
  const cdp = checkCdp(options, config);
  const redact = secretRedactor(config);
  const stdout = redactingWriter(commandOutput(invocation.io.stdout, options.json), redact);
  const stderr = redactingWriter(invocation.io.stderr, redact);
  const onWarning = (message: string) => stderr(`sightline: ${message}\n`);
  const privacyWarning = homePrivacyWarning(loaded.home.root);
  if (privacyWarning !== undefined) stderr(`sightline: ${privacyWarning}\n`);
  // The model first, before the runtime opens: a missing key costs nothing.
  const assembly = await explainSetupErrors(() => assembleRun({ config, env: invocation.io.env, onWarning, home: loaded.home.root }));

  const runtime = await openCliRuntime(loaded);
  const interrupts = watchInterrupts(stderr);
  let parts: RunParts | undefined;
  let stopShortcutWatch: () => void = () => undefined;
  try {
    if (sessionId !== undefined) checkSessionCanContinue(runtime, sessionId, loaded);
    parts = await explainSetupErrors(() => assembly.open(runtime.storage, { url, cdp }));
    const { model, operator } = parts;
    // readline writes the prompt itself, past the writers above: it names the model's action (typed text).
    const ask = (question: string, signal: AbortSignal) => askOnTerminal(terminalText(redact(question)), signal, interrupts.interrupt);
    const people = { io: invocation.io, stderr, assumeYes: options.yes === true, ask };
    const agent = createAgent({
      storage: runtime.storage,
      config,
      model,
      operator,
      confirm: confirmationHandler(people),
      askUser: askUserHandler(people),
      extraTools: parts.tools,
      onEvent: eventPrinter({ stdout, stderr, json: options.json === true, stream: options.stream === true }),
      injectionDebugLog: injectionDebugLogFromEnvironment(invocation.io.env, (line) => stderr(`${line}\n`)),
      turnEndHooks: parts.turnEndHooks,
    });
    stderr(`${operator.describe().kind} operator on ${operator.describe().target}, model ${config.model.name}\n`);
    // The browser operator's keys go to its page alone; only the desktop's take the person's keyboard and mouse.
    if (operator.describe().kind === 'desktop') {
      stopShortcutWatch = await watchDesktopStopShortcut({
        loadHook: invocation.io.globalKeyHook,
        configured: config.agent.stopShortcut,
        platform: process.platform,
        onStop: interrupts.stop,
        notice: (line) => stderr(`${line}\n`),
      });
    }
    const outcome = await runTurn(agent, {
      ...(sessionId !== undefined ? { sessionId } : {}),
      request: requestWithPictures(task, pictures),
      ...(ephemeral !== undefined ? { ephemeral: [ephemeral] } : {}),
      signal: interrupts.signal,
    });
    reportOutcome(outcome, { stdout, stderr, json: options.json === true });
    invocation.exitCode = exitCodeOf(outcome);
  } catch (error) {
    // A turn that cannot even be begun or ended on a failing database (a damaged page, a full disk).
    throw explainStorageFailure(error, runtime.storage.paths);
  } finally {
    stopShortcutWatch();
    interrupts.dispose();
    await parts?.close();
    runtime.close();
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

function reportOutcome(
  outcome: TurnOutcome,
  output: { stdout: (text: string) => void; stderr: (text: string) => void; json: boolean },
): void {
  // With --json, stdout holds events only; the turn-ended event already carries the summary.
  if (!output.json && outcome.summary !== undefined && outcome.summary !== '') output.stdout(`${outcome.summary}\n`);
  output.stderr(`session ${outcome.sessionId} (continue it with --session ${outcome.sessionId})\n`);
}
