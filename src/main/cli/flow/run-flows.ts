/**
 * `sightline flow FILE…`: every flag and every file is checked before anything starts (a bad file is refused
 * with its line and column, exit 2); the model is built once to find a missing key early; then the flows run
 * (flows/flow-suite.ts), each as one session of the SDK, with a line per step on stderr, events on stdout with
 * --json, and the reports written at the end. Exit 0 when every flow passed, 1 when one failed, 3 when stopped.
 * With --queue (or SIGHTLINE_QUEUE_URL) the flows are enqueued for `sightline worker`s instead (../queue/).
 */
import { relative } from 'node:path';
import type { Command } from 'commander';
import { parseCostCeiling, COST_CEILING_FORMS } from '../../../shared/cost-ceiling.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { unpricedCeilingRefusal } from '../../agent/index.js';
import { assembleRun } from '../../app/run-assembly.js';
import type { Flow } from '../../flows/flow-model.js';
import { runStatus, type FlowRunResult } from '../../flows/flow-result.js';
import { flowSecrets } from '../../flows/flow-runner.js';
import { runFlowSuite } from '../../flows/flow-suite.js';
import { jsonReport } from '../../flows/json-report.js';
import { loadCliConfig, resolveCliHome } from '../cli-config.js';
import { homePrivacyWarning } from '../home-privacy.js';
import { outputFile, writeOutputFile } from '../output-files.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { commandOutput } from '../terminal-output.js';
import { watchInterrupts } from '../run/interrupts.js';
import { redactingWriter } from '../run/secrets.js';
import { askOnTerminal } from '../run/terminal-question.js';
import { enqueueFlows } from '../queue/enqueue-flows.js';
import { queueAddressOf } from '../queue/queue-address.js';
import { orderedFlows, readFlows, refuseOutOfScopeUrls } from './flow-files.js';
import { flowCdpTarget, type FlowCdpSettings } from './flow-cdp.js';
import { flowLauncher } from './flow-launch.js';
import { flowLine, stepLine, summaryLine } from './flow-lines.js';
import { checkedShard, FLOW_CONFIG_FLAG_NAMES, flowConfigFlags, parseVars, wholeNumber, type FlowOptions } from './flow-options.js';
import { writeJunitFile } from './junit-files.js';
import { refusedRun, writeRefusedOutputs, type AskedOutputs } from './refused-run.js';
import { redactResult, writeFlowRunReport } from './report-files.js';
import { checkFlows } from './check-flows.js';
import { terminalLine } from '../../../shared/terminal-text.js';

export async function runFlows(invocation: CliInvocation, command: Command, files: readonly string[], options: FlowOptions): Promise<void> {
  const { io } = invocation;
  if (options.check === true) return checkFlows(invocation, files, options);
  const started = Date.now();
  const queue = queueAddressOf(options.queue, io.env);
  // The files asked for are known first: a run refused after this still writes them (refused-run.ts).
  const outputs = queue === undefined ? { out: outputFile('--out', options.out, io.cwd), junit: outputFile('--junit', options.junit, io.cwd), report: outputFile('--report', options.report, io.cwd) } : undefined;
  const state: RunState = { started: false, redact: (text) => text };
  try {
    return await checkedRun(invocation, command, files, options, queue, outputs, state);
  } catch (error) {
    if (outputs !== undefined && error instanceof UserError && error.exitCode === EXIT.usage && !state.started) {
      const redact = state.redact;
      await writeRefusedOutputs(outputs, refusedRun(files, io.cwd, error, started), { cwd: io.cwd, home: resolveCliHome(command, io), redact, stderr: redactingWriter(io.stderr, redact) });
    }
    throw error;
  }
}

/** How far the run got: once it has started, a usage error is no refusal of the files; the run's redactor once known. */
interface RunState {
  started: boolean;
  redact: (text: string) => string;
}

async function checkedRun(
  invocation: CliInvocation,
  command: Command,
  files: readonly string[],
  options: FlowOptions,
  queue: ReturnType<typeof queueAddressOf>,
  outputs: AskedOutputs | undefined,
  state: RunState,
): Promise<void> {
  const { io } = invocation;
  const vars = parseVars(options.var);
  const concurrencyFlag = options.concurrency === undefined ? undefined : wholeNumber('--concurrency', options.concurrency, 1, { min: 1, max: 64 });
  const retries = wholeNumber('--retry', options.retry, 0, { min: 0, max: 10 });
  const shard = checkedShard(options.shard);
  if (options.heal === false && options.replay !== true) throw new UserError('--no-heal goes with --replay: it says what a replay does where the screen changed.', EXIT.usage);
  if (options.maxCost !== undefined && parseCostCeiling(options.maxCost) === undefined) {
    throw new UserError(`--max-cost: expected ${COST_CEILING_FORMS}, got ${JSON.stringify(options.maxCost.slice(0, 40))}.`, EXIT.usage);
  }
  if (queue !== undefined && (options.cdp !== undefined || options.allowRemoteCdp === true)) {
    throw new UserError("--cdp acts in a browser on this machine; a queued flow runs on a worker's, so --cdp does not go with --queue.", EXIT.usage);
  }
  if (queue !== undefined) return enqueueFlows(invocation, command, files, options, { address: queue, vars, retries, shard });
  if (outputs === undefined) throw new Error('the files asked for are known for every run not queued');
  if (options.wait === true) throw new UserError('--wait waits for queued flows: give --queue URL (or set SIGHTLINE_QUEUE_URL).', EXIT.usage);
  if (options.store !== undefined || options.blobs !== undefined) {
    throw new UserError("--store and --blobs go with --queue: a flow run here keeps its session in this machine's home (sightline worker --store ships the runs it takes).", EXIT.usage);
  }
  const { out: outFile, junit: junitFile, report: reportFile } = outputs;
  const loaded = loadCliConfig(command, io, flowConfigFlags(options), FLOW_CONFIG_FLAG_NAMES);
  state.redact = redactorOf(configuredSecrets(loaded.config));
  // Ceilings in dollars that no price can be held to are refused before any browser starts or any request is sent.
  const unheld =
    unpricedCeilingRefusal(loaded.config, options.maxCost, '--max-cost') ?? unpricedCeilingRefusal(loaded.config, loaded.config.agent.maxCost, 'agent.maxCost');
  if (unheld !== undefined) throw new UserError(unheld, EXIT.usage);
  const run = readFlows(files, vars, io.env, io.cwd);
  refuseOutOfScopeUrls(run.flows, loaded.config.agent);
  const flows = orderedFlows(run, io.cwd, shard);
  // As in Midscene, the command line's flag wins over the batch index's setting.
  const concurrency = concurrencyFlag ?? run.batch?.concurrent ?? 1;
  const summaryFile = outputFile('summary', run.batch?.summary, io.cwd);
  const cdp = checkedFlowCdp(flows, options, concurrency, io.cwd);

  const secretValues = flows.flatMap((flow) => Object.values(flowSecrets(flow, io.env)));
  const redact = redactorOf([...configuredSecrets(loaded.config), ...secretValues]);
  state.redact = redact;
  const stdout = redactingWriter(commandOutput(io.stdout, options.json), redact);
  const stderr = redactingWriter(io.stderr, redact);
  const privacyWarning = homePrivacyWarning(loaded.home.root);
  if (privacyWarning !== undefined) stderr(`sightline: ${privacyWarning}\n`);
  for (const note of run.notes) stderr(`note: ${terminalLine(note)}\n`);
  // The model once, before any browser starts: a missing key or an unworkable dialect costs nothing.
  await explainSetupErrors(() => assembleRun({ config: loaded.config, env: io.env, onWarning: (message) => stderr(`sightline: ${message}\n`), home: loaded.home.root }));
  // From here on the run has started: a usage error after this is no refusal of the files.
  state.started = true;
  if (flows.length === 0) {
    stderr(`no flows to run${shard === undefined ? '' : ` in shard ${shard}`}\n`);
    return;
  }

  const interrupts = watchInterrupts(stderr);
  const asking = askingQueue();
  const json = options.json === true;
  const print = (value: unknown) => stdout(`${JSON.stringify(value)}\n`);
  let result: FlowRunResult;
  try {
    result = await runFlowSuite(flows, {
      concurrency,
      retries,
      shard,
      env: io.env,
      continueOnError: options.continueOnError === true,
      stopAfterFailure: run.batch !== undefined && !run.batch.continueOnError,
      signal: interrupts.signal,
      open: flowLauncher({
        home: loaded.home.root,
        env: io.env,
        maxCost: options.maxCost,
        ...(options.replay === true ? { replay: { heal: options.heal !== false } } : {}),
        config: flowConfigFlags(options),
        yes: options.yes === true,
        cdp,
        // A person can answer only one question at a time, and only at a terminal.
        ...(io.isInteractive && options.yes !== true
          ? { onConfirm: (question) => asking(() => askYes(`Allow ${question.action} (${question.reason})? [y/N] `, interrupts)) }
          : {}),
        ...(json ? { onEvent: (event) => print(event) } : {}),
      }),
      onFlowStart: (flow, attempt) => {
        stderr(`▶ ${flow.name} (${relative(io.cwd, flow.file) || flow.file})${attempt > 1 ? `, attempt ${attempt}` : ''}\n`);
        // What the file holds that Sightline reads and ignores, said once, before the flow's steps.
        if (attempt === 1) for (const note of flow.notes ?? []) stderr(`  note: ${terminalLine(note)}\n`);
        if (json) print({ type: 'flow-started', flow: flow.name, file: flow.file, attempt });
      },
      onStep: (flow, step) => {
        stderr(stepLine(step, redact));
        if (json) print({ type: 'flow-step', flow: flow.name, ...step });
      },
      onFlowEnd: (flow, flowResult) => {
        stderr(flowLine(flowResult, redact));
        if (json) print({ type: 'flow-ended', flow: flow.name, status: flowResult.status, sessionId: flowResult.sessionId, error: flowResult.error });
      },
    });
  } finally {
    interrupts.dispose();
  }
  const status = runStatus(result);
  const redacted = redactResult(result, redact);
  if (outFile !== undefined) writeOutputFile('--out', outFile, jsonReport(redacted, status));
  if (summaryFile !== undefined) writeOutputFile('summary', summaryFile, jsonReport(redacted, status));
  const reported = reportFile !== undefined && (await writeFlowRunReport(reportFile, redacted, status, { home: loaded.home }, redact, stderr));
  if (junitFile !== undefined) await writeJunitFile(junitFile, redacted, { cwd: io.cwd, home: loaded.home, ...(reported ? { reportFile } : {}), stderr });
  stderr(summaryLine(result));
  invocation.exitCode = status === 'passed' ? EXIT.ok : status === 'stopped' ? EXIT.stopped : EXIT.failed;
}

/** --cdp and each flow's target.cdpEndpoint and bridgeMode, checked for every flow before anything starts (flow-cdp.ts). */
function checkedFlowCdp(flows: readonly Flow[], options: FlowOptions, concurrency: number, cwd: string): FlowCdpSettings {
  if (options.allowRemoteCdp === true && options.cdp === undefined && !flows.some((flow) => flow.target?.cdpEndpoint !== undefined)) {
    throw new UserError('--allow-remote-cdp goes with --cdp URL or a target.cdpEndpoint: there is no endpoint to allow.', EXIT.usage);
  }
  const settings: FlowCdpSettings = { endpoint: options.cdp, allowRemote: options.allowRemoteCdp === true };
  const problems = flows.flatMap((flow) => {
    const checked = flowCdpTarget(flow, settings);
    const name = relative(cwd, flow.file) || flow.file;
    if (!checked.ok) return [`${name}: ${checked.problem}.`];
    // Two flows at once in the one tab in front would act over each other.
    if (checked.cdp?.tab === 'current' && concurrency > 1) return [`${name}: bridgeMode: currentTab acts in the one tab in front; run it without --concurrency.`];
    return [];
  });
  if (problems.length > 0) throw new UserError([...new Set(problems)].join('\n'), EXIT.usage);
  return settings;
}

/** One question at a time: concurrent flows wait for each other's answers. */
function askingQueue(): <T>(ask: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (ask) => {
    const next = last.then(ask, ask);
    last = next.catch(() => undefined);
    return next;
  };
}

async function askYes(question: string, interrupts: ReturnType<typeof watchInterrupts>): Promise<boolean> {
  const answer = await askOnTerminal(question, interrupts.signal, interrupts.interrupt);
  return answer !== undefined && /^\s*y(es)?\s*$/i.test(answer);
}
