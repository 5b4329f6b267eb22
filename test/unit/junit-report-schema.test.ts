/**
 * `--junit` as CI reads it (flows/junit-report.ts): every kind of run (passed, failed, refused before it ran,
 * stopped, a step allowed to fail) validates with `xmllint --schema` against the Jenkins junit-10 structure
 * (test/fixtures/junit/jenkins-junit-10-structure.xsd); a stopped flow is an <error type="Stopped"> so CI never
 * reads it as green; a step allowed to fail is no <failure>, its reason in <system-out>; files are named relative
 * to the working folder, and the evidence frames and the report on [[ATTACHMENT|path]] lines.
 */
import { describe, expect, it } from 'vitest';
import type { FlowResult, FlowRunResult, StepResult } from '../../src/main/flows/flow-result.js';
import { junitReport } from '../../src/main/flows/junit-report.js';
import { junitTextVerdict } from '../helpers/junit-schema.js';

const CWD = '/work/shop';

function step(path: string, status: StepResult['status'], more: Partial<StepResult> = {}): StepResult {
  return {
    path, label: 'assert', kind: 'assert', text: `check ${path}`, at: { file: `${CWD}/flows/cart.yaml`, line: 4 + Number(path[0]), column: 5 }, status,
    reason: status === 'passed' ? 'It holds.' : status === 'skipped' ? 'an earlier step failed' : 'The total is $12.50 & not <$10>.', evidence: status === 'passed' ? [] : ['img_00000000000a'],
    durationMs: 1234, costDollars: 0.01, turnId: 'turn_000000000001', ...more,
  };
}

function flow(status: FlowResult['status'], steps: StepResult[], more: Partial<FlowResult> = {}): FlowResult {
  return {
    name: 'Cart', file: `${CWD}/flows/cart.yaml`, status, sessionId: 'ses_000000000001', attempts: 1, earlierSessions: [], startedAt: '2026-11-28T10:00:00.000Z',
    durationMs: 5000, costDollars: 0.02, error: status === 'failed' ? 'step 2 failed' : undefined, steps, ...more,
  };
}

function run(...flows: FlowResult[]): FlowRunResult {
  return { startedAt: '2026-11-28T10:00:00.000Z', durationMs: 6000, shard: '1/2', flows };
}

const OUTPUTS: Record<string, FlowRunResult> = {
  passed: run(flow('passed', [step('1', 'passed', { replay: { mode: 'healed', why: 'before action 1: moved', modelCalls: 1, saved: { modelCalls: 0, costDollars: null } } })])),
  failed: run(flow('failed', [step('1', 'passed'), step('2', 'failed'), step('3', 'skipped')])),
  refused: run(
    flow('failed', [], {
      sessionId: undefined, error: 'the flow file has 2 problems; nothing was run', durationMs: 0,
      refused: [`${CWD}/flows/cart.yaml:5:5: unknown key "clik"`, `${CWD}/flows/cart.yaml:4:9: \${nowhere} is not defined`],
    }),
  ),
  stopped: run(flow('stopped', [step('1', 'passed'), step('2', 'stopped', { reason: 'stopped by Ctrl+C' }), step('3', 'skipped', { reason: 'the flow was stopped' })], { error: 'stopped by Ctrl+C' })),
  allowed: run(flow('passed', [step('1', 'failed', { allowed: true }), step('2', 'passed')])),
  // A Midscene task (a group) whose step failed: the task is failed because of its step, which is the failure.
  group: run(
    flow('failed', [
      step('1', 'failed', { kind: 'group', label: 'checkout', text: 'checkout', reason: 'step 1.1 (aiAssert, line 6) failed: no total', evidence: [] }),
      step('1.1', 'failed', { label: 'aiAssert' }),
      step('1.2', 'skipped'),
    ]),
  ),
};

const ATTACHMENTS = new Map([['img_00000000000a', `${CWD}/out/junit.img_00000000000a.png`]]);

function junit(result: FlowRunResult): string {
  return junitReport(result, { cwd: CWD, attachments: ATTACHMENTS, reportFile: `${CWD}/out/report.html` });
}

describe('--junit validates against the Jenkins junit-10 structure', () => {
  for (const [kind, result] of Object.entries(OUTPUTS)) {
    it(`the ${kind} run's file validates with xmllint --schema`, () => {
      expect(junitTextVerdict(junit(result))).toBe('validates');
    });
  }

  it('a stopped flow is an error, so CI never reads it as green (issue 38)', () => {
    const xml = junit(OUTPUTS.stopped!);
    expect(xml).toMatch(/<testsuites [^>]*errors="1"/);
    expect(xml).toMatch(/<testcase name="2 assert: check 2"[^>]*>\s*<error message="stopped by Ctrl\+C" type="Stopped">/);
  });

  it('a failure carries its reason; its frames and the report are on attachment lines, paths relative to the working folder', () => {
    const xml = junit(OUTPUTS.failed!);
    expect(xml).toMatch(/<failure message="The total is \$12\.50 &amp; not &lt;\$10&gt;\." type="AssertionFailed">/);
    expect(xml).toContain('<testsuite name="Cart" tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('file="flows/cart.yaml"');
    expect(xml).toContain('at: flows/cart.yaml:6:5');
    expect(xml).toContain('[[ATTACHMENT|out/junit.img_00000000000a.png]]');
    expect(xml).toContain('[[ATTACHMENT|out/report.html]]');
  });

  it('a step allowed to fail (continue_on_error) is no failure: its reason is in <system-out>', () => {
    const xml = junit(OUTPUTS.allowed!);
    expect(xml).not.toContain('<failure');
    expect(xml).toMatch(/<testsuites [^>]*failures="0" errors="0"/);
    expect(xml).toMatch(/<system-out>at: flows\/cart\.yaml:5:5\nfailed, allowed by continue_on_error: The total is \$12\.50 &amp; not &lt;\$10&gt;\./);
    expect(xml).toContain('<property name="steps.allowedToFail" value="1"/>');
  });

  it('a group and its failed step count once: the step is the <failure>, the group says so in <system-out> (issue 35)', () => {
    const xml = junit(OUTPUTS.group!);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml).toMatch(/<testsuites [^>]*failures="1" errors="0"/);
    expect(xml).toContain('<testsuite name="Cart" tests="3" failures="1" errors="0" skipped="1"');
    expect(xml).toMatch(/<testcase name="1\.1 aiAssert: check 1\.1"[^>]*>\s*<failure /);
    expect(xml).toMatch(/<testcase name="1 checkout: checkout"[^>]*>\s*<system-out>at: flows\/cart\.yaml:5:5\nfailed: step 1\.1 \(aiAssert, line 6\) failed: no total<\/system-out>/);
  });

  it('a run refused before it started is one errored case carrying every file:line:column problem', () => {
    const xml = junit(OUTPUTS.refused!);
    expect(xml).toMatch(/<testcase name="0 flow: refused before it ran"[^>]*>\s*<error message="the flow file has 2 problems; nothing was run" type="Refused">/);
    expect(xml).toContain('/work/shop/flows/cart.yaml:5:5: unknown key "clik"');
    expect(xml).toContain('/work/shop/flows/cart.yaml:4:9: ${nowhere} is not defined');
  });

  it('the schema is not a rubber stamp: what the old writer wrote is refused', () => {
    const old = `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="x" tests="1" failures="0" errors="0" skipped="0" timestamp="2026-11-28T10:00:00Z">\n  <testsuite name="x" tests="1" failures="0" errors="0">\n    <testcase name="1 do" file="cart.yaml" line="4"><properties><property name="replay" value="model"/></properties></testcase>\n  </testsuite>\n</testsuites>\n`;
    const verdict = junitTextVerdict(old);
    for (const refused of ["attribute 'skipped'", "attribute 'timestamp'", "attribute 'file'", "attribute 'line'", "'properties'"]) expect(verdict).toContain(refused);
  });
});
