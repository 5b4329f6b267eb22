/**
 * `--junit FILE.xml`: the run as JUnit XML, the format CI systems read (Jenkins, GitLab, GitHub's test
 * reporters): a <testsuite> per flow, a <testcase> per step. The file keeps to the Jenkins xunit plugin's
 * junit-10.xsd (jenkinsci/xunit-plugin, src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd),
 * the strictest schema CI readers hold a file to: a testcase carries only name, classname and time, so where a
 * step stands in its file, how it was replayed and why a step was allowed to fail go to its <system-out>, and
 * what the run says of a flow goes to the suite's <properties>.
 *
 * A failed step is a <failure>; a stopped one, and a flow refused before it ran, an <error> (CI must never read
 * either as green); a step allowed to fail (continue_on_error) passes, its reason in <system-out>. A failed
 * step's evidence frames, written beside the XML by the caller, are named on `[[ATTACHMENT|path]]` lines, the
 * convention Jenkins' JUnit Attachments plugin and GitLab's unit test reports read. Text from models and pages is
 * escaped, and characters XML cannot hold are dropped, so the file always parses.
 */
import { isAbsolute, relative, sep } from 'node:path';
import type { FlowResult, FlowRunResult, StepResult } from './flow-result.js';

export interface JunitOptions {
  /** The working folder: files are named relative to it, as CI annotators and attachment readers resolve them. */
  cwd: string;
  /** Evidence frames written as files beside the XML: image id → the file's path. */
  attachments?: ReadonlyMap<string, string>;
  /** The HTML report written with the run (--report), named on every failed case's attachment lines. */
  reportFile?: string;
}

type Outcome = 'passed' | 'failure' | 'error' | 'skipped';

interface Case {
  name: string;
  time: number;
  outcome: Outcome;
  /** failure and error: the type and the message. */
  type?: string;
  message?: string;
  detail?: string;
  /** Lines for <system-out>. */
  out: string[];
}

export function junitReport(run: FlowRunResult, options: JunitOptions): string {
  const suites = run.flows.map((flow) => ({ flow, cases: casesOf(flow, options) }));
  const all = suites.flatMap((suite) => suite.cases);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sightline flow" tests="${all.length}" failures="${counted(all, 'failure')}" errors="${counted(all, 'error')}" time="${seconds(run.durationMs)}">`,
    ...suites.flatMap(({ flow, cases }) => suite(flow, cases, run, options)),
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}

/** A path as CI reads it: relative to the working folder with forward slashes; absolute when it lies outside. */
export function workingPath(cwd: string, file: string): string {
  const path = relative(cwd, file);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return file;
  return path.split(sep).join('/');
}

function counted(cases: readonly Case[], outcome: Outcome): number {
  return cases.filter((each) => each.outcome === outcome).length;
}

function suite(flow: FlowResult, cases: readonly Case[], run: FlowRunResult, options: JunitOptions): string[] {
  const file = workingPath(options.cwd, flow.file);
  const properties = [
    ['file', file],
    ['status', flow.status],
    ['session', flow.sessionId ?? ''],
    ['attempts', String(flow.attempts)],
    ...flow.earlierSessions.map((session, index) => [`attempt.${index + 1}.session`, session]),
    ['cost.dollars', flow.costDollars === undefined ? 'unknown' : flow.costDollars.toFixed(6)],
    ...(flow.steps.some((step) => step.allowed === true) ? [['steps.allowedToFail', String(flow.steps.filter((step) => step.allowed === true).length)]] : []),
    ...replayTotals(flow),
    ['run.startedAt', run.startedAt],
    ...(run.shard === undefined ? [] : [['run.shard', run.shard]]),
  ];
  return [
    `  <testsuite name="${attribute(flow.name)}" tests="${cases.length}" failures="${counted(cases, 'failure')}" errors="${counted(cases, 'error')}" skipped="${counted(cases, 'skipped')}" time="${seconds(flow.durationMs)}" timestamp="${attribute(flow.startedAt)}" file="${attribute(file)}">`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property name="${attribute(name!)}" value="${attribute(value!)}"/>`),
    '    </properties>',
    ...cases.map((each) => testcase(flow, each)),
    '  </testsuite>',
  ];
}

function casesOf(flow: FlowResult, options: JunitOptions): Case[] {
  const file = workingPath(options.cwd, flow.file);
  const report = options.reportFile === undefined ? [] : [`report: ${attachment(workingPath(options.cwd, options.reportFile))}`];
  const cases: Case[] = [];
  const flowCase = flowLevelCase(flow, file, report);
  if (flowCase !== undefined) cases.push(flowCase);
  for (const step of flow.steps) cases.push(stepCase(flow, step, file, report, options));
  return cases;
}

/**
 * A flow that ended badly outside its steps: refused before it ran, failed before or between steps (it could
 * not start), or stopped with no step running. One case says why.
 */
function flowLevelCase(flow: FlowResult, file: string, report: string[]): Case | undefined {
  const at = `at: ${file}`;
  if (flow.refused !== undefined) {
    return {
      name: '0 flow: refused before it ran',
      time: 0,
      outcome: 'error',
      type: 'Refused',
      message: flow.error ?? 'the flow file has problems; nothing was run',
      detail: flow.refused.join('\n'),
      out: [at, ...report],
    };
  }
  if (flow.status === 'failed' && !flow.steps.some((step) => step.status === 'failed' && step.allowed !== true)) {
    return { name: '0 flow', time: 0, outcome: 'error', type: 'FlowError', message: flow.error ?? 'the flow failed', detail: flow.error ?? '', out: [at, ...report] };
  }
  if (flow.status === 'stopped' && !flow.steps.some((step) => step.status === 'stopped')) {
    return { name: '0 flow: stopped', time: 0, outcome: 'error', type: 'Stopped', message: flow.error ?? 'the flow was stopped', detail: flow.error ?? '', out: [at, ...report] };
  }
  return undefined;
}

function stepCase(flow: FlowResult, step: StepResult, file: string, report: string[], options: JunitOptions): Case {
  const name = `${step.path} ${step.label}${step.text === undefined ? '' : `: ${oneLine(step.text)}`}`;
  const out = [`at: ${file}:${step.at.line}:${step.at.column}`, ...replayLines(step)];
  const frames = (): string[] => [
    ...step.evidence.flatMap((id) => {
      const path = options.attachments?.get(id);
      return path === undefined ? [] : [`evidence ${id}: ${attachment(workingPath(options.cwd, path))}`];
    }),
    ...report,
  ];
  const base = { name, time: step.durationMs, out };
  if (step.status === 'failed' && step.allowed === true) {
    // Allowed to fail: not a failure CI counts, but the reason and the frames are there to read.
    return { ...base, outcome: 'passed', out: [...out, `failed, allowed by continue_on_error: ${step.reason ?? 'failed'}`, ...evidenceLine(step), ...frames()] };
  }
  if (step.status === 'failed' && failedWithin(flow, step)) {
    // A group, branch, loop or used flow failed because a step inside it did: that step is the <failure>, so the
    // failure is counted once; the holder says why in its <system-out>.
    return { ...base, outcome: 'passed', out: [...out, `failed: ${step.reason ?? 'a step inside it failed'}`] };
  }
  if (step.status === 'failed') {
    return { ...base, outcome: 'failure', type: failureType(step), message: step.reason ?? 'failed', detail: failureText(flow, step, file), out: [...out, ...frames()] };
  }
  if (step.status === 'stopped') {
    return { ...base, outcome: 'error', type: 'Stopped', message: step.reason ?? 'the flow was stopped', detail: failureText(flow, step, file), out: [...out, ...frames()] };
  }
  if (step.status === 'skipped') return { ...base, outcome: 'skipped', message: step.reason ?? 'skipped' };
  return { ...base, outcome: 'passed' };
}

/** Whether a step holding steps failed for a step inside it (`1.2` or `3[1].2` within `1` or `3`). */
function failedWithin(flow: FlowResult, holder: StepResult): boolean {
  return flow.steps.some((inner) => inner.status === 'failed' && inner.allowed !== true && (inner.path.startsWith(`${holder.path}.`) || inner.path.startsWith(`${holder.path}[`)));
}

function testcase(flow: FlowResult, each: Case): string {
  const open = `    <testcase name="${attribute(each.name)}" classname="${attribute(flow.name)}" time="${seconds(each.time)}">`;
  const body =
    each.outcome === 'failure' || each.outcome === 'error'
      ? `      <${each.outcome} message="${attribute(each.message ?? '')}" type="${attribute(each.type ?? '')}">${text(each.detail ?? '')}</${each.outcome}>`
      : each.outcome === 'skipped'
        ? `      <skipped message="${attribute(each.message ?? 'skipped')}"/>`
        : undefined;
  return [open, ...(body === undefined ? [] : [body]), `      <system-out>${text(each.out.join('\n'))}</system-out>`, '    </testcase>'].join('\n');
}

/** The line Jenkins' JUnit Attachments plugin and GitLab turn into a link to the file. */
function attachment(path: string): string {
  return `[[ATTACHMENT|${path}]]`;
}

/** How many steps were replayed, healed, diverged or run by the model, and the model calls the replays saved. */
function replayTotals(flow: FlowResult): string[][] {
  const replays = flow.steps.flatMap((step) => (step.replay === undefined ? [] : [step.replay]));
  if (!replays.some((replay) => replay.mode !== 'model')) return [];
  const count = (mode: string) => String(replays.filter((replay) => replay.mode === mode).length);
  const savedDollars = replays.every((replay) => replay.saved.costDollars !== null) ? replays.reduce((sum, replay) => sum + replay.saved.costDollars!, 0).toFixed(6) : 'unknown';
  return [
    ['replay.replayed', count('replayed')],
    ['replay.healed', count('healed')],
    ['replay.diverged', count('diverged')],
    ['replay.model', count('model')],
    ['replay.saved.modelCalls', String(replays.reduce((sum, replay) => sum + replay.saved.modelCalls, 0))],
    ['replay.saved.dollars', savedDollars],
  ];
}

/** A step's replay as lines of its <system-out>: how it ran, why it was healed, what it saved. */
function replayLines(step: StepResult): string[] {
  const replay = step.replay;
  if (replay === undefined) return [];
  return [
    `replay: ${replay.mode}`,
    ...(replay.why === undefined ? [] : [`replay.why: ${replay.why}`]),
    ...(replay.reusedAnswer === true ? ['replay.reusedAnswer: true'] : []),
    `replay.modelCalls: ${replay.modelCalls}`,
    `replay.saved.modelCalls: ${replay.saved.modelCalls}`,
    `replay.saved.dollars: ${replay.saved.costDollars === null ? 'unknown' : replay.saved.costDollars.toFixed(6)}`,
  ];
}

function evidenceLine(step: StepResult): string[] {
  return [`evidence: ${step.evidence.length === 0 ? 'none' : step.evidence.join(', ')}`];
}

function failureType(step: StepResult): string {
  return step.kind === 'assert' ? 'AssertionFailed' : step.kind === 'wait_for' ? 'WaitTimeout' : 'StepFailed';
}

function failureText(flow: FlowResult, step: StepResult, file: string): string {
  return [
    step.reason ?? step.status,
    ...evidenceLine(step),
    `session: ${flow.sessionId ?? 'none'}${step.turnId === undefined ? '' : `, turn ${step.turnId}`}`,
    `at: ${file}:${step.at.line}:${step.at.column}`,
  ].join('\n');
}

function seconds(milliseconds: number): string {
  return (Math.max(0, milliseconds) / 1000).toFixed(3);
}

function oneLine(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Characters XML 1.0 cannot hold at all (control characters but tab, newline, return; lone surrogates). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function text(value: string): string {
  return value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
