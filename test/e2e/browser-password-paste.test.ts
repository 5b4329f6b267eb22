/**
 * Issue 24, finding 3 on a real page: text copied from an ordinary field and pasted (ctrl+v, shift+Insert),
 * or selected and dragged onto a password field, fills the password field like typing it would. Under
 * `risky` with nobody to approve, each is refused and the password field stays empty; approved, the field
 * gets the text, the step says how much was pasted and never what, and every stored row of the session
 * holds `[password]` where the text was (the thought that named it included).
 */
import { describe, expect, it } from 'vitest';
import { hasBrowser, useBrowserAgent } from '../helpers/browser-agent.js';
import { useReportingPage } from '../helpers/reporting-page-server.js';
import { computerCall, finishCall } from '../helpers/agent-harness.js';

const SECRET = 'hunter2-correct-horse';
const NAME_FIELD = { x: 60, y: 35 };
const PASSWORD_FIELD = { x: 60, y: 215 };

// An ordinary field holding the secret (a note the page shows, or a prompt injection's bait), and a password
// field whose every change of value is reported to the server.
const PAGE = `<!doctype html><html><head><title>log in</title></head><body style="margin:0">
  <input id="name" value="${SECRET}" style="position:absolute;left:20px;top:20px;width:300px;height:30px;font-size:16px">
  <input id="secret" type="password" style="position:absolute;left:20px;top:200px;width:300px;height:30px;font-size:16px">
<script>
  const field = document.getElementById('secret');
  field.addEventListener('input', () => fetch('/value', { method: 'POST', body: field.value }));
</script></body></html>`;

const page = useReportingPage(PAGE);

const copyThenPaste = (keys: string) => [
  computerCall({ action: 'triple_click', ...NAME_FIELD }, `Selecting ${SECRET} in the name field.`),
  computerCall({ action: 'key', keys: 'ctrl+c' }, 'Copying it.'),
  computerCall({ action: 'click', ...PASSWORD_FIELD }, 'Into the password field.'),
  computerCall({ action: 'key', keys }, `Pasting ${SECRET}.`),
  finishCall(),
];

const dragOnto = [
  computerCall({ action: 'triple_click', ...NAME_FIELD }, `Selecting ${SECRET} in the name field.`),
  computerCall({ action: 'drag', ...NAME_FIELD, to_x: PASSWORD_FIELD.x, to_y: PASSWORD_FIELD.y }, `Dragging ${SECRET} onto the password field.`),
  finishCall(),
];

describe.skipIf(!hasBrowser)('text pasted or dropped into a browser password field', () => {
  const browser = useBrowserAgent(page);

  /** The password field's value as the page has it now (read directly, not through the operator's reading). */
  async function passwordValue(): Promise<string> {
    const view = { frameWidth: 800, frameHeight: 600, imageWidth: 800, imageHeight: 600, coordinateSpace: 'pixels' as const };
    return (await browser.operator.passwordFieldText(PASSWORD_FIELD, view)) ?? '(no password field)';
  }

  it.each([['ctrl+v'], ['shift+Insert']])('refuses %s into the password field without a person: the field stays empty', async (keys) => {
    const { own, outcome } = await browser.run(false, copyThenPaste(keys));
    expect(own.confirmations.map((request) => request.reason)).toEqual(['pasting into a password field']);
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[3]!.result).toMatchObject({ ok: false, refused: true });
    expect(await passwordValue()).toBe('');
    expect(page.reportedValues).toEqual([]);
  });

  it('refuses a drag that drops selected text on the password field: the field stays empty', async () => {
    const { own, outcome } = await browser.run(false, dragOnto);
    expect(own.confirmations.map((request) => request.reason)).toEqual(['dropping dragged text into a password field']);
    expect(own.storage.steps.listByTurn(outcome.turnId)[1]!.result).toMatchObject({ ok: false, refused: true });
    expect(await passwordValue()).toBe('');
    expect(page.reportedValues).toEqual([]);
  });

  it.each([
    ['a paste', copyThenPaste('ctrl+v'), 3, 'pasted'],
    ['a drop', dragOnto, 1, 'dropped'],
  ])('once approved, %s fills the field, and the session stores the text masked', async (_what, script, index, how) => {
    const { own, outcome } = await browser.run(true, script);
    await page.fieldValueBecomes(SECRET);
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[index]!.result).toMatchObject({ ok: true, detail: expect.stringContaining(`${SECRET.length} characters ${how} into a password field`) });
    const stored = JSON.stringify(steps) + JSON.stringify(own.storage.messages.listByTurn(outcome.turnId));
    expect(stored).toContain('[password]');
    expect(stored).not.toContain(SECRET);
    expect(JSON.stringify(own.events.filter((event) => event.type === 'step' && event.sequence > index))).not.toContain(SECRET);
  });
});
