/**
 * Issue 33, finding 4 on a real page: one `key` action that moves the focus into a password field (Tab from
 * the user name field, shift+Tab from the field after it) and types or pastes there is judged against the
 * field each key meets. Refused, nothing reaches the password field; approved, it gets the keys and every
 * stored row holds `[password]` instead. A middle click over the password field pastes the primary selection
 * on Linux, and is asked about like a paste.
 */
import { describe, expect, it } from 'vitest';
import { hasBrowser, useBrowserAgent } from '../helpers/browser-agent.js';
import { useReportingPage } from '../helpers/reporting-page-server.js';
import { computerCall, finishCall, type AgentHarness } from '../helpers/agent-harness.js';

const NAME = 'alice-in-wonderland';
const NAME_FIELD = { x: 60, y: 35 };
const PASSWORD_FIELD = { x: 60, y: 115 };

// The user name field (holding a name), the password field, and a field after it; the user name field has the
// focus, or the one after the password field with #after. Each change of the password field is reported.
const PAGE = `<!doctype html><html><head><title>log in</title></head><body style="margin:0">
  <input id="name" value="${NAME}" style="position:absolute;left:20px;top:20px;width:300px;height:30px;font-size:16px">
  <input id="secret" type="password" style="position:absolute;left:20px;top:100px;width:300px;height:30px;font-size:16px">
  <input id="after" style="position:absolute;left:20px;top:180px;width:300px;height:30px;font-size:16px">
<script>
  const field = document.getElementById('secret');
  document.getElementById(location.hash === '#after' ? 'after' : 'name').focus();
  field.addEventListener('input', () => fetch('/value', { method: 'POST', body: field.value }));
</script></body></html>`;

const page = useReportingPage(PAGE);

describe.skipIf(!hasBrowser)('keys that move the focus into a browser password field within one action', () => {
  const browser = useBrowserAgent(page);

  /** The password field's value as the page has it now. */
  async function passwordValue(): Promise<string> {
    const view = { frameWidth: 800, frameHeight: 600, imageWidth: 800, imageHeight: 600, coordinateSpace: 'pixels' as const };
    return (await browser.operator.passwordFieldText(PASSWORD_FIELD, view)) ?? '(no password field)';
  }

  function storedText(own: AgentHarness, turnId: string): string {
    return JSON.stringify(own.storage.steps.listByTurn(turnId)) + JSON.stringify(own.storage.messages.listByTurn(turnId));
  }

  it.each([
    ['Tab', ''],
    ['shift+Tab', '#after'],
  ])('refuses the keys typed after %s without a person: the password field stays empty', async (move, hash) => {
    const { own, outcome } = await browser.run(false, [computerCall({ action: 'key', keys: `${move} s 3 c r e t` }), finishCall('Stopped.', false)], { hash });
    expect(own.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(await browser.operator.focusedFieldKind()).toBe('password');
    expect(await passwordValue()).toBe('');
    expect(page.reportedValues).toEqual([]);
    const [step] = own.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: '[password]' });
    expect(storedText(own, outcome.turnId)).not.toContain('s 3 c r e t');
  });

  it.each([
    ['Tab', ''],
    ['shift+Tab', '#after'],
  ])('once approved, the keys after %s reach the password field, and are stored masked', async (move, hash) => {
    const { own, outcome } = await browser.run(true, [computerCall({ action: 'key', keys: `${move} s 3 c r e t` }, 'Typing s3cret.'), finishCall()], { hash });
    await page.fieldValueBecomes('s3cret');
    const [step] = own.storage.steps.listByTurn(outcome.turnId);
    expect(step!.action).toEqual({ action: 'key', keys: '[password]' });
    const stored = storedText(own, outcome.turnId);
    expect(stored).not.toContain('s 3 c r e t');
    expect(stored).not.toContain('s3cret');
  });

  it('refuses a paste chord after Tab: the password field stays empty', async () => {
    const { own } = await browser.run(false, [
      computerCall({ action: 'triple_click', ...NAME_FIELD }, 'Selecting the name.'),
      computerCall({ action: 'key', keys: 'ctrl+c' }, 'Copying it.'),
      computerCall({ action: 'key', keys: 'Tab ctrl+v' }, 'Pasting it into the password field.'),
      finishCall('Stopped.', false),
    ]);
    expect(own.confirmations.map((request) => request.reason)).toEqual(['pasting into a password field']);
    expect(await passwordValue()).toBe('');
    expect(page.reportedValues).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('asks before a middle click over the password field, which pastes the selection on Linux', async () => {
    const { own, outcome } = await browser.run(false, [
      computerCall({ action: 'triple_click', ...NAME_FIELD }, 'Selecting the name.'),
      computerCall({ action: 'middle_click', ...PASSWORD_FIELD }, 'Pasting it with the middle button.'),
      finishCall('Stopped.', false),
    ]);
    expect(own.confirmations.map((request) => request.reason)).toEqual(['pasting the selection into a password field (a middle click pastes it on Linux)']);
    expect(own.storage.steps.listByTurn(outcome.turnId)[1]!.result).toMatchObject({ ok: false, refused: true });
    expect(await passwordValue()).toBe('');
    expect(page.reportedValues).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('once approved, the middle click pastes the selection there, and the session stores it masked', async () => {
    const { own, outcome } = await browser.run(true, [
      computerCall({ action: 'triple_click', ...NAME_FIELD }, 'Selecting the name.'),
      computerCall({ action: 'middle_click', ...PASSWORD_FIELD }, `Pasting ${NAME} with the middle button.`),
      finishCall(),
    ]);
    await page.fieldValueBecomes(NAME);
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[1]!.result).toMatchObject({ ok: true, detail: expect.stringContaining(`${NAME.length} characters pasted into a password field`) });
    const stored = storedText(own, outcome.turnId);
    expect(stored).toContain('[password]');
    expect(stored).not.toContain(NAME);
  });
});
