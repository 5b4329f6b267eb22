/**
 * An agent driving a real Chromium page (the browser password tests): a BrowserOperator on a reporting page and
 * the agent harness around it, both closed after each test and the page's reports forgotten. Call
 * `useBrowserAgent` inside the `describe` it serves, skipped with `describe.skipIf(!hasBrowser)`.
 */
import { afterEach } from 'vitest';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { BrowserOperator } from '../../src/main/operators/browser-operator.js';
import type { TurnOutcome } from '../../src/main/agent/agent-contract.js';
import { userText } from '../../src/shared/messages.js';
import { startAgentHarness, type AgentHarness, type FakeAnswer } from './agent-harness.js';
import type { ReportingPage } from './reporting-page-server.js';
import { hasSystemPackage } from './system-packages.js';

/** Whether this machine has a Chromium the BrowserOperator can launch. */
export const hasBrowser = hasSystemPackage(
  'chromium',
  (() => {
    try {
      findBrowserExecutable({ env: process.env, platform: process.platform });
      return true;
    } catch {
      return false;
    }
  })(),
);

export interface BrowserAgentRun {
  own: AgentHarness;
  outcome: TurnOutcome;
}

export interface BrowserAgent {
  /** The operator of the test's run (after `run`). */
  readonly operator: BrowserOperator;
  /**
   * Opens the page (at `hash`) in Chromium, scripts the model and runs one turn asking `request`; every
   * confirmation is answered `approve`.
   */
  run(approve: boolean, script: FakeAnswer[], options?: { hash?: string; request?: string }): Promise<BrowserAgentRun>;
}

export function useBrowserAgent(page: ReportingPage): BrowserAgent {
  let harness: AgentHarness | undefined;
  let operator: BrowserOperator | undefined;

  afterEach(async () => {
    await harness?.close();
    await operator?.close();
    harness = undefined;
    operator = undefined;
    page.reset();
  });

  return {
    get operator() {
      if (operator === undefined) throw new Error('the browser is only launched by run()');
      return operator;
    },
    run: async (approve, script, { hash = '', request = 'Log in' } = {}) => {
      operator = await BrowserOperator.launch({ url: `${page.origin}/${hash}`, viewport: { width: 800, height: 600 } });
      harness = await startAgentHarness({ confirm: async () => approve, extra: { operator } });
      harness.server.script(script);
      const outcome = await harness.agent.runTurn({ request: userText(request) });
      return { own: harness, outcome };
    },
  };
}
