/**
 * Issue 33, finding 7 on a real page: the configured key put together in a text field out of order, its second
 * half typed, the caret put at the start of the field with a click, then its first half. No call holds it, and
 * the model of the editing keys cannot follow a click; the field itself holds it, and the browser reads the
 * field back: every piece is masked in every stored row, read as SQLite holds it.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED } from '../../src/shared/secret-redaction.js';
import { hasBrowser, useBrowserAgent } from '../helpers/browser-agent.js';
import { useReportingPage } from '../helpers/reporting-page-server.js';
import { computerCall, finishCall, TEST_API_KEY } from '../helpers/agent-harness.js';
import { everythingStored } from '../helpers/raw-database.js';

const FIRST = TEST_API_KEY.slice(0, 15);
const SECOND = TEST_API_KEY.slice(15);

// One wide text field, focused; each change of its value is reported.
const PAGE = `<!doctype html><html><head><title>settings</title></head><body style="margin:0">
  <input id="key" style="position:absolute;left:20px;top:20px;width:600px;height:30px;font-size:16px;padding:0 0 0 4px">
<script>
  const field = document.getElementById('key');
  field.focus();
  field.addEventListener('input', () => fetch('/value', { method: 'POST', body: field.value }));
</script></body></html>`;

const page = useReportingPage(PAGE);

describe.skipIf(!hasBrowser)('a configured key put together in a browser text field out of order', () => {
  const browser = useBrowserAgent(page);

  it('is found in what the field holds, and each piece is masked where it was stored', async () => {
    // Nobody approves: typing a configured key into a text field is not asked about, only stored masked.
    const { own: harness, outcome } = await browser.run(
      false,
      [
        computerCall({ action: 'type', text: SECOND }, 'The end of the key first.'),
        computerCall({ action: 'click', x: 21, y: 35 }, 'To the start of the field.'),
        computerCall({ action: 'type', text: FIRST }, 'Then its beginning.'),
        finishCall(),
      ],
      { request: 'Put the key in' },
    );
    await page.fieldValueBecomes(TEST_API_KEY);

    expect(harness.confirmations).toEqual([]);
    const steps = harness.storage.steps.listByTurn(outcome.turnId);
    expect([steps[0]!.action, steps[2]!.action]).toEqual([
      { action: 'type', text: REDACTED },
      { action: 'type', text: REDACTED },
    ]);
    const stored = everythingStored(harness.home.databaseFile);
    expect(stored).not.toContain(FIRST);
    expect(stored).not.toContain(SECOND);
  });
});
