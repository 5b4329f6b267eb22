/**
 * Running many flows (flows/flow-suite.ts, shards.ts): --shard cuts the same ordered list the same way on every
 * machine, --concurrency runs browser flows side by side but desktop flows one at a time, --retry runs a failed flow
 * again in a session of its own, and a failed step skips the rest unless the step or the run continues on error.
 * The flows run on a stand-in for the SDK's agent, so what is proven is the scheduling, with latches, not timing.
 */
import { describe, expect, it } from 'vitest';
import type { SightlineAgent, StepRecord } from '../../src/main/automation/index.js';
import { StepFailedError } from '../../src/main/automation/index.js';
import type { Flow, FlowStep } from '../../src/main/flows/flow-model.js';
import { runFlowSuite, type FlowSuiteOptions } from '../../src/main/flows/flow-suite.js';
import { parseShard, shardOf } from '../../src/main/flows/shards.js';

const at = { file: '/flows/a.yaml', line: 1, column: 1 };

function step(kind: 'do' | 'assert', text: string, continueOnError = false): FlowStep {
  return { kind, text, at, label: kind, continueOnError };
}

function flow(name: string, steps: FlowStep[], operator: 'browser' | 'desktop' = 'browser'): Flow {
  return { name, file: `/flows/${name}.yaml`, format: 'sightline', target: { operator, at }, vars: {}, secrets: [], steps };
}

/** A stand-in agent: `act` decides what each do/assert does (resolve, or throw a StepFailedError). */
function fakeAgent(sessionId: string, act: (text: string) => Promise<void>): SightlineAgent {
  const steps: StepRecord[] = [];
  const record = (kind: 'do' | 'assert', text: string, status: StepRecord['status']): StepRecord => {
    const made: StepRecord = {
      kind, text, status, sessionId, turnId: 'turn_000000000001', reason: status === 'failed' ? `${text} failed` : 'done', answer: undefined,
      evidence: [], actions: 1, startedAt: new Date().toISOString(), durationMs: 1, cost: { dollars: 0.01, unpricedTokens: 0 },
    };
    steps.push(made);
    return made;
  };
  const run = (kind: 'do' | 'assert') => async (text: string) => {
    try {
      await act(text);
    } catch (error) {
      throw new StepFailedError(String(error), record(kind, text, 'failed'));
    }
    return record(kind, text, 'passed');
  };
  return {
    sessionId,
    steps,
    cost: { dollars: 0.01 * steps.length, unpricedTokens: 0 },
    do: run('do'),
    assert: run('assert'),
    close: async () => undefined,
  } as unknown as SightlineAgent;
}

function suiteOptions(open: FlowSuiteOptions['open'], extra: Partial<FlowSuiteOptions> = {}): FlowSuiteOptions {
  return { open, env: {}, continueOnError: false, signal: new AbortController().signal, concurrency: 1, retries: 0, shard: undefined, ...extra };
}

function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('--shard', () => {
  it("cuts the list into runs whose sizes differ by at most one, the larger first (Playwright's way)", () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const shards = [1, 2, 3].map((current) => shardOf(items, { current, total: 3 }));
    expect(shards).toEqual([['a', 'b', 'c'], ['d', 'e'], ['f', 'g']]);
    expect(shards.flat()).toEqual(items);
    expect(shardOf(['a'], { current: 2, total: 3 })).toEqual([]);
  });

  it('reads I/N and refuses what is not', () => {
    expect(parseShard('2/4')).toEqual({ current: 2, total: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ current: 1, total: 1 });
    for (const text of ['0/2', '3/2', '2', '1/0', 'a/b', '-1/2', '1.5/2']) expect(parseShard(text)).toBeUndefined();
  });
});

describe('many flows', () => {
  it('runs browser flows side by side with --concurrency', { timeout: 10_000 }, async () => {
    // Each flow waits in its first step until both have begun: run one after the other, they would never end.
    const bothStarted = latch();
    let started = 0;
    const open: FlowSuiteOptions['open'] = async (current) =>
      fakeAgent(`ses_${current.name}`, async () => {
        started += 1;
        if (started === 2) bothStarted.open();
        await bothStarted.promise;
      });
    const result = await runFlowSuite([flow('one', [step('do', 'a')]), flow('two', [step('do', 'b')])], suiteOptions(open, { concurrency: 2 }));
    expect(result.flows.map((each) => each.status)).toEqual(['passed', 'passed']);
  });

  it('runs desktop flows one at a time, whatever the concurrency', async () => {
    let running = 0;
    let most = 0;
    const open: FlowSuiteOptions['open'] = async (current) =>
      fakeAgent(`ses_${current.name}`, async () => {
        running += 1;
        most = Math.max(most, running);
        // Let the other workers reach their turn while this step is under way.
        await new Promise<void>((resolve) => setImmediate(resolve));
        running -= 1;
      });
    const flows = ['a', 'b', 'c'].map((name) => flow(name, [step('do', 'x'), step('do', 'y')], 'desktop'));
    const result = await runFlowSuite(flows, suiteOptions(open, { concurrency: 3 }));
    expect(result.flows.every((each) => each.status === 'passed')).toBe(true);
    expect(most).toBe(1);
  });

  it('runs a failed flow again with --retry, each attempt in a session of its own, and reports it once', async () => {
    let attempts = 0;
    const open: FlowSuiteOptions['open'] = async () => {
      attempts += 1;
      const attempt = attempts;
      return fakeAgent(`ses_attempt${attempt}`, async () => {
        if (attempt < 3) throw new Error('the button was not there');
      });
    };
    const result = await runFlowSuite([flow('flaky', [step('do', 'press')])], suiteOptions(open, { retries: 2 }));
    expect(result.flows).toHaveLength(1);
    expect(result.flows[0]).toMatchObject({ status: 'passed', attempts: 3, sessionId: 'ses_attempt3', earlierSessions: ['ses_attempt1', 'ses_attempt2'] });
  });

  it('skips the steps after a failure, unless the step continues on error', async () => {
    const open: FlowSuiteOptions['open'] = async () =>
      fakeAgent('ses_a', async (text) => {
        if (text.startsWith('fail')) throw new Error(text);
      });
    const stops = await runFlowSuite([flow('stops', [step('do', 'one'), step('assert', 'fail here'), step('do', 'three')])], suiteOptions(open));
    expect(stops.flows[0]!.steps.map((each) => each.status)).toEqual(['passed', 'failed', 'skipped']);
    expect(stops.flows[0]!.status).toBe('failed');
    expect(stops.flows[0]!.error).toMatch(/step 2 \(assert, line 1\) failed/);

    // continue_on_error: true on the step: it fails, is allowed to, and the flow passes (docs/flows.md).
    const goesOn = await runFlowSuite([flow('goes-on', [step('assert', 'fail softly', true), step('do', 'two')])], suiteOptions(open));
    expect(goesOn.flows[0]!.steps.map((each) => each.status)).toEqual(['failed', 'passed']);
    expect(goesOn.flows[0]!.steps[0]).toMatchObject({ allowed: true });
    expect(goesOn.flows[0]!.steps[0]!.continued).toBeUndefined();
    expect(goesOn.flows[0]!.status).toBe('passed');
    expect(goesOn.flows[0]!.error).toBeUndefined();

    // --continue-on-error only goes on: the flow still fails.
    const runWide = await runFlowSuite([flow('run-wide', [step('assert', 'fail'), step('do', 'two')])], suiteOptions(open, { continueOnError: true }));
    expect(runWide.flows[0]!.steps.map((each) => each.status)).toEqual(['failed', 'passed']);
    expect(runWide.flows[0]!.steps[0]).toMatchObject({ continued: true });
    expect(runWide.flows[0]!.steps[0]!.allowed).toBeUndefined();
    expect(runWide.flows[0]!.status).toBe('failed');
  });

  it("a Midscene task's continueOnError: a step failing inside it ends the task, not the flow, and the task says it failed", async () => {
    const open: FlowSuiteOptions['open'] = async () =>
      fakeAgent('ses_a', async (text) => {
        if (text.startsWith('fail')) throw new Error(text);
      });
    const task = (name: string, continueOnError: boolean, steps: FlowStep[]): FlowStep => ({ kind: 'group', name, label: name, at, continueOnError, steps });
    const allowed = await runFlowSuite(
      [flow('tasks', [task('soft', true, [step('do', 'one'), step('assert', 'fail here'), step('do', 'not reached')]), task('next', false, [step('do', 'two')])])],
      suiteOptions(open),
    );
    const steps = allowed.flows[0]!.steps;
    expect(steps.map((each) => [each.path, each.status, each.allowed ?? false])).toEqual([
      ['1', 'failed', true],
      ['1.1', 'passed', false],
      ['1.2', 'failed', true],
      ['1.3', 'skipped', false],
      ['2', 'passed', false],
      ['2.1', 'passed', false],
    ]);
    expect(steps[0]!.reason).toMatch(/step 1\.2 \(assert, line 1\) failed/);
    expect(allowed.flows[0]!.status).toBe('passed');

    // The same task without continueOnError fails the flow, and says so on the task too.
    const strict = await runFlowSuite([flow('strict', [task('hard', false, [step('assert', 'fail here')]), task('next', false, [step('do', 'two')])])], suiteOptions(open));
    expect(strict.flows[0]!.steps.map((each) => [each.path, each.status, each.allowed ?? false])).toEqual([
      ['1', 'failed', false],
      ['1.1', 'failed', false],
      ['2', 'skipped', false],
    ]);
    expect(strict.flows[0]!.status).toBe('failed');
  });

  it('starts nothing new once stopped, and says so', async () => {
    const controller = new AbortController();
    const open: FlowSuiteOptions['open'] = async () =>
      fakeAgent('ses_a', async () => {
        controller.abort();
      });
    const result = await runFlowSuite([flow('first', [step('do', 'stop')]), flow('second', [step('do', 'x')])], suiteOptions(open, { signal: controller.signal }));
    expect(result.flows[1]).toMatchObject({ status: 'stopped', attempts: 0, error: 'not started: the run was stopped' });
  });
});
