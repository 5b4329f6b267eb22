/**
 * `--junit FILE.xml`: the run as JUnit XML, the format CI systems read (Jenkins, GitLab, GitHub's test
 * reporters): a <testsuite> per flow, a <testcase> per step, a <failure> carrying the reason and the evidence ids,
 * <skipped/> for the steps not reached. Properties give each flow's session, attempts and cost. Text from models
 * and pages is escaped, and characters XML cannot hold are dropped, so the file always parses.
 */
import { basename } from 'node:path';
import type { FlowResult, FlowRunResult, StepResult } from './flow-result.js';

export function junitReport(run: FlowRunResult): string {
  const flows = run.flows;
  const count = (predicate: (step: StepResult) => boolean) => flows.reduce((sum, flow) => sum + flow.steps.filter(predicate).length + (flowError(flow) ? 1 : 0) * 0, 0);
  const tests = flows.reduce((sum, flow) => sum + casesOf(flow), 0);
  const failures = count((step) => step.status === 'failed') + flows.filter(flowError).length;
  const skipped = count((step) => step.status === 'skipped' || step.status === 'stopped');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sightline flow" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(run.durationMs)}" timestamp="${attribute(run.startedAt)}">`,
    ...flows.flatMap(suite),
    '</testsuites>',
    '',
  ];
  return lines.join('\n');
}

/** A flow that failed before or outside its steps (it could not start): one testcase says why. */
function flowError(flow: FlowResult): boolean {
  return flow.status === 'failed' && !flow.steps.some((step) => step.status === 'failed');
}

function casesOf(flow: FlowResult): number {
  return flow.steps.length + (flowError(flow) ? 1 : 0);
}

function suite(flow: FlowResult): string[] {
  const failures = flow.steps.filter((step) => step.status === 'failed').length + (flowError(flow) ? 1 : 0);
  const skipped = flow.steps.filter((step) => step.status === 'skipped' || step.status === 'stopped').length;
  const properties = [
    ['file', flow.file],
    ['status', flow.status],
    ['session', flow.sessionId ?? ''],
    ['attempts', String(flow.attempts)],
    ...flow.earlierSessions.map((session, index) => [`attempt.${index + 1}.session`, session]),
    ['cost.dollars', flow.costDollars === undefined ? 'unknown' : flow.costDollars.toFixed(6)],
    ...replayTotals(flow),
  ];
  return [
    `  <testsuite name="${attribute(flow.name)}" tests="${casesOf(flow)}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(flow.durationMs)}" timestamp="${attribute(flow.startedAt)}" file="${attribute(flow.file)}">`,
    '    <properties>',
    ...properties.map(([name, value]) => `      <property name="${attribute(name!)}" value="${attribute(value!)}"/>`),
    '    </properties>',
    ...(flowError(flow) ? [testcase(flow, '0 flow', 0, `      <failure message="${attribute(flow.error ?? 'the flow failed')}" type="FlowError">${text(flow.error ?? '')}</failure>`)] : []),
    ...flow.steps.map((step) => stepCase(flow, step)),
    '  </testsuite>',
  ];
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

/** A step's replay, as testcase properties: how it ran, why it was healed, what it saved. */
function stepProperties(step: StepResult): string[] {
  const replay = step.replay;
  if (replay === undefined) return [];
  const properties = [
    ['replay', replay.mode],
    ...(replay.why === undefined ? [] : [['replay.why', replay.why]]),
    ...(replay.reusedAnswer === true ? [['replay.reusedAnswer', 'true']] : []),
    ['replay.modelCalls', String(replay.modelCalls)],
    ['replay.saved.modelCalls', String(replay.saved.modelCalls)],
    ['replay.saved.dollars', replay.saved.costDollars === null ? 'unknown' : replay.saved.costDollars.toFixed(6)],
  ];
  return ['      <properties>', ...properties.map(([name, value]) => `        <property name="${attribute(name!)}" value="${attribute(value!)}"/>`), '      </properties>'];
}

function stepCase(flow: FlowResult, step: StepResult): string {
  const name = `${step.path} ${step.label}${step.text === undefined ? '' : `: ${oneLine(step.text)}`}`;
  const body =
    step.status === 'failed'
      ? `      <failure message="${attribute(step.reason ?? 'failed')}" type="${attribute(failureType(step))}">${text(failureText(flow, step))}</failure>`
      : step.status === 'skipped' || step.status === 'stopped'
        ? `      <skipped message="${attribute(step.reason ?? step.status)}"/>`
        : undefined;
  const inside = [...stepProperties(step), ...(body === undefined ? [] : [body])];
  return testcase(flow, name, step.durationMs, inside.length === 0 ? undefined : inside.join('\n'), step.at.line);
}

function testcase(flow: FlowResult, name: string, durationMs: number, body: string | undefined, line?: number): string {
  const open = `    <testcase name="${attribute(name)}" classname="${attribute(flow.name)}" time="${seconds(durationMs)}" file="${attribute(basename(flow.file))}"${line === undefined ? '' : ` line="${line}"`}`;
  return body === undefined ? `${open}/>` : `${open}>\n${body}\n    </testcase>`;
}

function failureType(step: StepResult): string {
  return step.kind === 'assert' ? 'AssertionFailed' : step.kind === 'wait_for' ? 'WaitTimeout' : 'StepFailed';
}

function failureText(flow: FlowResult, step: StepResult): string {
  return [
    step.reason ?? 'failed',
    `evidence: ${step.evidence.length === 0 ? 'none' : step.evidence.join(', ')}`,
    `session: ${flow.sessionId ?? 'none'}${step.turnId === undefined ? '' : `, turn ${step.turnId}`}`,
    `at: ${flow.file}:${step.at.line}:${step.at.column}`,
  ].join('\n');
}

function seconds(milliseconds: number): string {
  return (milliseconds / 1000).toFixed(3);
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
