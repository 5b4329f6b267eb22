/**
 * `sightline flow FILE…`: every flag and every file is checked before anything starts (a bad file is refused
 * with its line and column, exit 2); the model is built once to find a missing key early; then the flows run
 * (flows/flow-suite.ts), each as one session of the SDK, with a line per step on stderr, events on stdout with
 * --json, and the reports written at the end. Exit 0 when every flow passed, 1 when one failed, 3 when stopped.
 */
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { parseCostCeiling, COST_CEILING_FORMS } from '../../../shared/cost-ceiling.js';
import { dollarText } from '../../../shared/cost.js';
import { configuredSecrets, redactorOf } from '../../../shared/secret-redaction.js';
import { assembleRun } from '../../app/run-assembly.js';
import { Sightline } from '../../automation/index.js';
import { FlowFileError, loadFlowFiles } from '../../flows/flow-file.js';
import type { Flow } from '../../flows/flow-model.js';
import { runStatus, type FlowResult, type FlowRunResult, type StepResult } from '../../flows/flow-result.js';
import { flowSecrets } from '../../flows/flow-runner.js';
import { runFlowSuite } from '../../flows/flow-suite.js';
import { jsonReport } from '../../flows/json-report.js';
import { junitReport } from '../../flows/junit-report.js';
import { parseShard, shardOf } from '../../flows/shards.js';
import { buildFlowRunReport, ReportTooLargeError } from '../../report/index.js';
import { openStorage } from '../../storage/index.js';
import type { SightlineHome } from '../../config/home.js';
import { loadCliConfig } from '../cli-config.js';
import { packageVersion } from '../package-info.js';
import { homePrivacyWarning } from '../home-privacy.js';
import { outputFile, writeOutputFile } from '../output-files.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import { commandOutput } from '../terminal-output.js';
import { watchInterrupts } from '../run/interrupts.js';
import { redactingWriter } from '../run/secrets.js';
import { askOnTerminal } from '../run/terminal-question.js';
import { checkedShard, FLOW_CONFIG_FLAG_NAMES, flowConfigFlags, parseVars, wholeNumber, type FlowOptions } from './flow-options.js';

export async function runFlows(invocation: CliInvocation, command: Command, files: readonly string[], options: FlowOptions): Promise<void> {
  const { io } = invocation;
  const vars = parseVars(options.var);
  const concurrency = wholeNumber('--concurrency', options.concurrency, 1, { min: 1, max: 64 });
  const retries = wholeNumber('--retry', options.retry, 0, { min: 0, max: 10 });
  const shard = checkedShard(options.shard);
  if (options.heal === false && options.replay !== true) throw new UserError('--no-heal goes with --replay: it says what a replay does where the screen changed.', EXIT.usage);
  if (options.maxCost !== undefined && parseCostCeiling(options.maxCost) === undefined) {
    throw new UserError(`--max-cost: expected ${COST_CEILING_FORMS}, got ${JSON.stringify(options.maxCost.slice(0, 40))}.`, EXIT.usage);
  }
  const outFile = outputFile('--out', options.out, io.cwd);
  const junitFile = outputFile('--junit', options.junit, io.cwd);
  const reportFile = outputFile('--report', options.report, io.cwd);
  const loaded = loadCliConfig(command, io, flowConfigFlags(options), FLOW_CONFIG_FLAG_NAMES);
  const flows = orderedFlows(readFlows(files, vars, io.env, io.cwd), io.cwd, shard);

  const secretValues = flows.flatMap((flow) => Object.values(flowSecrets(flow, io.env)));
  const redact = redactorOf([...configuredSecrets(loaded.config), ...secretValues]);
  const stdout = redactingWriter(commandOutput(io.stdout, options.json), redact);
  const stderr = redactingWriter(io.stderr, redact);
  const privacyWarning = homePrivacyWarning(loaded.home.root);
  if (privacyWarning !== undefined) stderr(`sightline: ${privacyWarning}\n`);
  // The model once, before any browser starts: a missing key or an unworkable dialect costs nothing.
  await explainSetupErrors(() => assembleRun({ config: loaded.config, env: io.env, onWarning: () => undefined }));
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
      signal: interrupts.signal,
      open: (flow, start) =>
        Sightline.launch({
          home: loaded.home.root,
          env: io.env,
          operator: flow.target?.operator ?? 'browser',
          ...(start.url === undefined ? {} : { url: start.url }),
          secrets: start.secrets,
          flowName: flow.name,
          ...(options.replay === true ? { replay: { heal: options.heal !== false } } : {}),
          ...(options.maxCost === undefined ? {} : { maxCost: options.maxCost }),
          config: definedOnly(flowConfigFlags(options)),
          yes: options.yes === true,
          // A person can answer only one question at a time, and only at a terminal.
          ...(io.isInteractive && options.yes !== true
            ? { onConfirm: (question) => asking(() => askYes(`Allow ${question.action} (${question.reason})? [y/N] `, interrupts)) }
            : {}),
          ...(json ? { onEvent: (event) => print(event) } : {}),
        }),
      onFlowStart: (flow, attempt) => {
        stderr(`▶ ${flow.name} (${relative(io.cwd, flow.file) || flow.file})${attempt > 1 ? `, attempt ${attempt}` : ''}\n`);
        if (json) print({ type: 'flow-started', flow: flow.name, file: flow.file, attempt });
      },
      onStep: (flow, step) => {
        stderr(stepLine(step));
        if (json) print({ type: 'flow-step', flow: flow.name, ...step });
      },
      onFlowEnd: (flow, flowResult) => {
        stderr(flowLine(flowResult));
        if (json) print({ type: 'flow-ended', flow: flow.name, status: flowResult.status, sessionId: flowResult.sessionId, error: flowResult.error });
      },
    });
  } finally {
    interrupts.dispose();
  }
  const status = runStatus(result);
  const redacted = redactResult(result, redact);
  if (outFile !== undefined) writeOutputFile('--out', outFile, jsonReport(redacted, status));
  if (junitFile !== undefined) writeOutputFile('--junit', junitFile, junitReport(redacted));
  if (reportFile !== undefined) await writeFlowRunReport(reportFile, redacted, status, loaded.home, redact, stderr);
  stderr(summaryLine(result));
  invocation.exitCode = status === 'passed' ? EXIT.ok : status === 'stopped' ? EXIT.stopped : EXIT.failed;
}

/** The HTML report of the whole run, read from the sessions the flows stored; a report that cannot be made is said, not fatal. */
async function writeFlowRunReport(
  file: string,
  result: FlowRunResult,
  status: FlowResult['status'],
  home: SightlineHome,
  redact: (text: string) => string,
  stderr: (text: string) => void,
): Promise<void> {
  const storage = openStorage(home);
  try {
    const report = await buildFlowRunReport(result, status, { storage, redact, sightlineVersion: packageVersion() });
    writeOutputFile('--report', file, report.html);
    stderr(`report: ${relativeOrAbsolute(file)} (${Math.max(1, Math.round(report.bytes / 1024))} KB)\n`);
  } catch (error) {
    if (error instanceof ReportTooLargeError || error instanceof UserError) {
      stderr(`sightline: --report: ${error.message}\n`);
      return;
    }
    throw error;
  } finally {
    storage.close();
  }
}

function relativeOrAbsolute(file: string): string {
  const path = relative(process.cwd(), file);
  return path === '' || path.startsWith('..') ? file : path;
}

/** Every file read and checked; all their problems in one usage error. */
function readFlows(files: readonly string[], vars: Record<string, string>, env: Record<string, string | undefined>, cwd: string): Flow[] {
  try {
    return loadFlowFiles(
      files.map((file) => resolve(cwd, file)),
      // A plain copy: the process's environment is an exotic object that a record schema does not take.
      { vars, env: { ...env } },
    );
  } catch (error) {
    if (error instanceof FlowFileError) throw new UserError(`the flow files have problems; nothing was run:\n${error.message}`, EXIT.usage);
    throw error;
  }
}

/** One order on every machine (paths from the working folder), then this machine's shard of it. */
function orderedFlows(flows: Flow[], cwd: string, shard: string | undefined): Flow[] {
  const ordered = [...flows].sort((first, second) => compare(relative(cwd, first.file), relative(cwd, second.file)));
  const parsed = shard === undefined ? undefined : parseShard(shard);
  return parsed === undefined ? ordered : shardOf(ordered, parsed);
}

function compare(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}

/** Extracted values and reasons come from pages and models: a secret that shows there is masked in the reports too. */
function redactResult(result: FlowRunResult, redact: (text: string) => string): FlowRunResult {
  return JSON.parse(redact(JSON.stringify(result))) as FlowRunResult;
}

function definedOnly(record: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined));
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

const MARKS: Record<StepResult['status'], string> = { passed: '✓', failed: '✗', stopped: '■', skipped: '-' };

function stepLine(step: StepResult): string {
  const text = step.text === undefined ? '' : `: ${oneLine(step.text, 100)}`;
  const time = step.status === 'skipped' ? '' : ` (${seconds(step.durationMs)})`;
  const why = step.status === 'failed' && step.reason !== undefined ? `\n      ${oneLine(step.reason, 300)}${step.evidence.length > 0 ? ` [evidence: ${step.evidence.join(', ')}]` : ''}` : '';
  const value = step.kind === 'extract' && step.status === 'passed' && step.value !== undefined ? ` → ${oneLine(JSON.stringify(step.value) ?? '', 100)}` : '';
  return `  ${MARKS[step.status]} ${step.path} ${step.label}${text}${value}${time}${replayNote(step)}${why}\n`;
}

/** "replayed, 2 model calls saved", "healed: before action 1 (…): …", "model". */
function replayNote(step: StepResult): string {
  const replay = step.replay;
  if (replay === undefined || replay.mode === 'model') return '';
  const saved = replay.saved.modelCalls > 0 ? `, ${replay.saved.modelCalls} model call${replay.saved.modelCalls === 1 ? '' : 's'} saved` : '';
  const why = replay.why === undefined ? '' : `: ${oneLine(replay.why, 200)}`;
  return ` [${replay.mode}${replay.reusedAnswer === true ? ' verdict' : ''}${saved}${why}]`;
}

function flowLine(flow: FlowResult): string {
  const cost = flow.costDollars === undefined ? '' : `, ${dollarText(flow.costDollars)}`;
  const error = flow.status === 'failed' && flow.error !== undefined ? `: ${oneLine(flow.error, 300)}` : '';
  return `${flow.status === 'passed' ? '✓' : flow.status === 'failed' ? '✗' : '■'} ${flow.name} ${flow.status} in ${seconds(flow.durationMs)}${cost}${error}${flow.sessionId === undefined ? '' : ` (session ${flow.sessionId})`}\n`;
}

function summaryLine(result: FlowRunResult): string {
  const count = (status: FlowResult['status']) => result.flows.filter((flow) => flow.status === status).length;
  const parts = [`${count('passed')} passed`, `${count('failed')} failed`, ...(count('stopped') > 0 ? [`${count('stopped')} stopped`] : [])];
  const flows = result.flows.length === 1 ? '1 flow' : `${result.flows.length} flows`;
  return `${flows}: ${parts.join(', ')} (${seconds(result.durationMs)}${result.shard === undefined ? '' : `, shard ${result.shard}`})\n`;
}

function oneLine(text: string, most: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > most ? `${line.slice(0, most - 1)}…` : line;
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
