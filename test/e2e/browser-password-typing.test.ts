/**
 * Issue 17, finding 3 on a real page: with a password field focused in Chromium, a `key` sequence that
 * spells a secret passes the same gate as typing it. Refused, nothing reaches the field; approved, the field
 * gets it and every stored row holds `[password]` instead.
 */
import { describe, expect, it } from 'vitest';
import { hasBrowser, useBrowserAgent } from '../helpers/browser-agent.js';
import { useReportingPage } from '../helpers/reporting-page-server.js';
import { computerCall, finishCall } from '../helpers/agent-harness.js';

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
  const browser = useBrowserAgent(page);

  const spelling = [computerCall({ action: 'key', keys: 's 3 c r e t' }, 'Spelling s3cret.'), finishCall()];

  it('is refused like typing it: the field stays empty', async () => {
    const { own, outcome } = await browser.run(false, spelling);
    expect(own.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(await browser.operator.focusedFieldKind()).toBe('password');
    expect(page.reportedValues).toEqual([]);
    expect(own.storage.steps.listByTurn(outcome.turnId)[0]!.action).toEqual({ action: 'key', keys: '[password]' });
  });

  it('once approved reaches the field, and is stored masked', async () => {
    const { own, outcome } = await browser.run(true, spelling);
    await page.fieldValueBecomes('s3cret');
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[0]!.action).toEqual({ action: 'key', keys: '[password]' });
    const stored = JSON.stringify(steps) + JSON.stringify(own.storage.messages.listByTurn(outcome.turnId));
    expect(stored).not.toContain('s 3 c r e t');
    expect(stored).not.toContain('s3cret');
  });
});
