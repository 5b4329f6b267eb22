/**
 * Many flows in one run: `--concurrency N` runs browser flows side by side, each in its own browser, while desktop
 * flows take turns (there is one desktop); `--retry N` runs a failed flow again, up to N more times, each attempt
 * a session of its own; the result keeps the last attempt and names the earlier sessions. A stop ends what runs
 * and starts nothing new. `stopAfterFailure` (a Midscene batch index without continueOnError) starts nothing new
 * once a flow has failed: what runs finishes, and the flows not started are skipped with the reason.
 */
import type { Flow } from './flow-model.js';
import type { FlowResult, FlowRunResult } from './flow-result.js';
import { runFlow, type FlowRunOptions } from './flow-runner.js';

export interface FlowSuiteOptions extends FlowRunOptions {
  concurrency: number;
  retries: number;
  shard: string | undefined;
  /** Once a flow has failed (after its retries), start no other: they are skipped, naming the one that failed. */
  stopAfterFailure?: boolean;
  /** Told of each flow as it begins (attempt 1, 2…) and ends. */
  onFlowStart?: (flow: Flow, attempt: number) => void;
  onFlowEnd?: (flow: Flow, result: FlowResult) => void;
}

export async function runFlowSuite(flows: readonly Flow[], options: FlowSuiteOptions): Promise<FlowRunResult> {
  const started = Date.now();
  const results = new Array<FlowResult | undefined>(flows.length);
  let next = 0;
  let firstFailed: Flow | undefined;
  // One desktop: its flows run one at a time whatever the concurrency.
  let desktop: Promise<void> = Promise.resolve();
  const onDesktop = async <T>(work: () => Promise<T>): Promise<T> => {
    const turn = desktop.then(work);
    desktop = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  };
  const worker = async (): Promise<void> => {
    for (;;) {
      const index = next++;
      const flow = flows[index];
      if (flow === undefined) return;
      if (options.signal.aborted) {
        results[index] = notRun(flow);
        continue;
      }
      if (firstFailed !== undefined) {
        results[index] = skippedAfter(flow, firstFailed);
        options.onFlowEnd?.(flow, results[index]);
        continue;
      }
      const attempt = () => runWithRetries(flow, options);
      const result = flow.target?.operator === 'desktop' ? await onDesktop(attempt) : await attempt();
      results[index] = result;
      if (result.status === 'failed' && options.stopAfterFailure === true) firstFailed ??= flow;
      options.onFlowEnd?.(flow, result);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, flows.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return {
    startedAt: new Date(started).toISOString(),
    durationMs: Date.now() - started,
    shard: options.shard,
    flows: results.map((result, index) => result ?? notRun(flows[index]!)),
  };
}

async function runWithRetries(flow: Flow, options: FlowSuiteOptions): Promise<FlowResult> {
  const earlierSessions: string[] = [];
  for (let attempt = 1; ; attempt += 1) {
    options.onFlowStart?.(flow, attempt);
    const result = await runFlow(flow, options);
    const done = result.status !== 'failed' || attempt > options.retries || options.signal.aborted;
    if (done) return { ...result, attempts: attempt, earlierSessions };
    if (result.sessionId !== undefined) earlierSessions.push(result.sessionId);
  }
}

function skippedAfter(flow: Flow, failed: Flow): FlowResult {
  return { ...notRun(flow), status: 'skipped', error: `not started: ${failed.name} failed, and the batch index does not say continueOnError: true` };
}

function notRun(flow: Flow): FlowResult {
  return {
    name: flow.name,
    file: flow.file,
    status: 'stopped',
    sessionId: undefined,
    attempts: 0,
    earlierSessions: [],
    startedAt: new Date().toISOString(),
    durationMs: 0,
    costDollars: undefined,
    error: 'not started: the run was stopped',
    steps: [],
  };
}
