/**
 * Issue 17, finding 3 on a real page: with a password field focused in Chromium, a `key` sequence that
 * spells a secret passes the same gate as typing it. Refused, nothing reaches the field; approved, the field
 * gets it and every stored row holds `[password]` instead.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import { BrowserOperator } from '../../src/main/operators/browser-operator.js';
import { userText } from '../../src/shared/messages.js';
import { useReportingPage } from '../helpers/reporting-page-server.js';
import { computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';

const hasBrowser = (() => {
  try {
    findBrowserExecutable({ env: process.env, platform: process.platform });
    return true;
  } catch {
    return false;
  }
})();

// The password field has the focus from the start; each change of its value is reported to the server.
const PAGE = `<!doctype html><html><head><title>log in</title></head><body>
  <input id="secret" type="password">
<script>
  const field = document.getElementById('secret');
  field.focus();
  field.addEventListener('input', () => fetch('/value', { method: 'POST', body: field.value }));
</script></body></html>`;

const page = useReportingPage(PAGE);

describe.skipIf(!hasBrowser)('a key sequence spelling a secret into a browser password field', () => {
  let harness: AgentHarness | undefined;
  let operator: BrowserOperator | undefined;

  afterEach(async () => {
    await harness?.close();
    await operator?.close();
    harness = undefined;
    operator = undefined;
    page.reset();
  });

  async function start(approve: boolean): Promise<AgentHarness> {
    operator = await BrowserOperator.launch({ url: `${page.origin}/`, viewport: { width: 800, height: 600 } });
    harness = await startAgentHarness({ confirm: async () => approve, extra: { operator } });
    harness.server.script([computerCall({ action: 'key', keys: 's 3 c r e t' }, 'Spelling s3cret.'), finishCall()]);
    return harness;
  }

  it('is refused like typing it: the field stays empty', async () => {
    const own = await start(false);
    const outcome = await own.agent.runTurn({ request: userText('Log in') });
    expect(own.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(await operator!.focusedFieldKind()).toBe('password');
    expect(page.reportedValues).toEqual([]);
    expect(own.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'key', keys: '[password]' });
  });

  it('once approved reaches the field, and is stored masked', async () => {
    const own = await start(true);
    const outcome = await own.agent.runTurn({ request: userText('Log in') });
    await page.fieldValueBecomes('s3cret');
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[0]!.action).toEqual({ action: 'key', keys: '[password]' });
    const stored = JSON.stringify(steps) + JSON.stringify(own.storage.messages.listByTurn(outcome.turnId));
    expect(stored).not.toContain('s 3 c r e t');
    expect(stored).not.toContain('s3cret');
  });
});
