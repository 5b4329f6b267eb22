/**
 * Issue 17, finding 2 under Xvfb: the desktop operator learns what has the focus from the OS. A private session
 * bus with the AT-SPI bus on it, Chromium (with its accessibility tree on) showing a focused password field:
 * the desktop operator's focus reader says 'password', and an agent typing "hunter2" under `risky` without a
 * person is refused, stored masked. Tab to a text field: 'text', and typing goes through unasked. An xterm
 * focused: Enter is risky (refused, and the command line is not run); back in Chromium, Enter is not.
 *
 * node-screenshots and nut-js keep the DISPLAY of their first call, and the focus reader reads DISPLAY and
 * DBUS_SESSION_BUS_ADDRESS from process.env, so both are set before the operator is made (own forked process).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import type { FocusReading } from '../../src/main/operators/operator.js';
import { userText } from '../../src/shared/messages.js';
import { commandExists, hasSystemPackage } from '../helpers/system-packages.js';
import { canStartAccessibilityBus, startAccessibilityBus, type AccessibilityBus } from '../helpers/accessibility-bus.js';
import { computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';
import { canOpenDesktopTestWindow, openDesktopTestWindow, type DesktopTestWindow } from '../helpers/desktop-test-window.js';
import { startXvfb, type Xvfb } from '../helpers/xvfb.js';

const SCREEN = { width: 1280, height: 800 };
const TITLE = 'sightline-focus';
const canRun = canOpenDesktopTestWindow && canStartAccessibilityBus && hasSystemPackage('xterm', commandExists('xterm'));

// The password field has the focus from the start; the title mirrors both fields, so the X server's record
// of the window name shows what reached them.
const PAGE = `<!doctype html><html><head><title>${TITLE} pw= name=</title></head><body>
  <input id="pw" type="password" autofocus style="font-size:24px">
  <input id="name" type="text" style="font-size:24px">
<script>
  const show = () => { document.title = '${TITLE} pw=' + pw.value + ' name=' + document.getElementById('name').value; };
  const pw = document.getElementById('pw');
  pw.focus();
  document.addEventListener('input', show);
</script></body></html>`;

let xvfb: Xvfb;
let bus: AccessibilityBus;
let chromium: DesktopTestWindow | undefined;
let operator: DesktopOperator;
let harness: AgentHarness | undefined;

beforeAll(async () => {
  if (!canRun) return;
  xvfb = await startXvfb(SCREEN);
  bus = await startAccessibilityBus(xvfb.env);
  process.env.DISPLAY = xvfb.display;
  process.env.DBUS_SESSION_BUS_ADDRESS = bus.env.DBUS_SESSION_BUS_ADDRESS;
  operator = new DesktopOperator();
  // The first reading starts the AT-SPI helper, which switches accessibility on (org.a11y.Status.IsEnabled)
  // before Chromium starts; nothing has the focus yet.
  expect((await operator.focus()).fieldKind).toBe('unknown');
  chromium = openDesktopTestWindow({
    xvfb: { ...xvfb, env: bus.env },
    screen: SCREEN,
    titlePrefix: TITLE,
    fieldTop: 0,
    html: PAGE,
    // Chromium builds its web contents' accessibility tree only for assistive technology it detects; this
    // makes it build it from the start, as it would with a screen reader running.
    extraArguments: ['--force-renderer-accessibility'],
  });
});

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

afterAll(async () => {
  await operator?.close();
  await chromium?.close();
  await bus?.stop();
  await xvfb?.stop();
});

/** Reads the focus until it is what the test waits for (Chromium takes a few seconds to show its tree). */
async function focusBecomes(expected: (reading: FocusReading) => boolean, what: string): Promise<FocusReading> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const reading = await operator.focus();
    if (expected(reading)) return reading;
    if (Date.now() > deadline) throw new Error(`the focus never became ${what}; last reading ${JSON.stringify(reading)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function chromiumTitle(): string {
  return chromium?.title() ?? '';
}

async function titleBecomes(expected: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (chromiumTitle() !== expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(chromiumTitle()).toBe(expected);
}

async function agentOnDesktop(approve: boolean): Promise<AgentHarness> {
  harness = await startAgentHarness({ confirm: async () => approve, extra: { operator } });
  return harness;
}

function chromiumWindow(): string {
  return spawnSync('xdotool', ['search', '--name', `^${TITLE}`], { env: xvfb.env, encoding: 'utf8' }).stdout.trim().split('\n')[0]!;
}

function focusWindow(windowId: string): void {
  expect(spawnSync('xdotool', ['windowfocus', '--sync', windowId], { env: xvfb.env }).status).toBe(0);
}

describe.skipIf(!canRun)('the desktop operator reads the focus through AT-SPI and X11', () => {
  it('reports a focused password field in Chromium, and refuses typing into it without a person, stored masked', async () => {
    focusWindow(await windowOf(() => chromiumWindow()));
    const reading = await focusBecomes((focus) => focus.fieldKind === 'password', "'password'");
    expect(reading.application).toEqual({ name: 'Chromium', isTerminal: false });
    expect(await operator.focusedFieldKind()).toBe('password');

    const own = await agentOnDesktop(false);
    own.server.script([computerCall({ action: 'type', text: 'hunter2' }, 'Typing hunter2 into the field.'), finishCall('Stopped.', false)]);
    const outcome = await own.agent.runTurn({ request: userText('Log in') });
    expect(own.confirmations.map((request) => request.reason)).toEqual(['typing into a password field']);
    expect(chromiumTitle()).toBe(`${TITLE} pw= name=`);
    const steps = own.storage.steps.listByTurn(outcome.turnId);
    expect(steps[0]!.action).toEqual({ action: 'type', text: '[password]' });
    const stored = JSON.stringify(steps) + JSON.stringify(own.storage.messages.listByTurn(outcome.turnId));
    expect(stored).not.toContain('hunter2');
  });

  it('reports a focused text field as text, and types into it unasked', async () => {
    spawnSync('xdotool', ['key', '--window', chromiumWindow(), 'Tab'], { env: xvfb.env });
    await focusBecomes((focus) => focus.fieldKind === 'text', "'text'");
    const own = await agentOnDesktop(false);
    own.server.script([computerCall({ action: 'type', text: 'alice' }), finishCall()]);
    await own.agent.runTurn({ request: userText('Type the name') });
    expect(own.confirmations).toEqual([]);
    await titleBecomes(`${TITLE} pw= name=alice`);
  });

  describe('with an xterm focused', () => {
    let xterm: ChildProcess | undefined;
    let folder: string;

    beforeAll(async () => {
      folder = mkdtempSync(join(tmpdir(), 'sightline-xterm-'));
      xterm = spawn('xterm', ['-geometry', '80x10+0+400', '-e', '/bin/sh'], { env: { ...bus.env, PS1: '$ ' }, stdio: 'ignore' });
      focusWindow(await windowOf(() => spawnSync('xdotool', ['search', '--onlyvisible', '--pid', String(xterm!.pid)], { env: xvfb.env, encoding: 'utf8' }).stdout.trim().split('\n').pop() ?? ''));
    });

    afterAll(async () => {
      if (xterm?.exitCode === null) {
        const exited = new Promise((resolve) => xterm!.once('exit', resolve));
        xterm.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
    });

    it('knows the terminal, refuses Enter there without a person, and the command line does not run', async () => {
      const reading = await focusBecomes((focus) => focus.application?.isTerminal === true, 'a terminal');
      expect(reading).toEqual({ fieldKind: 'unknown', application: { name: 'XTerm', isTerminal: true } });
      const marker = join(folder, 'refused');
      const own = await agentOnDesktop(false);
      own.server.script([computerCall({ action: 'type', text: `touch ${marker}\n` }), finishCall('Stopped.', false)]);
      const outcome = await own.agent.runTurn({ request: userText('Run it') });
      expect(own.confirmations.map((request) => request.reason)).toEqual(['pressing Enter in a terminal (XTerm) runs the command line']);
      expect(own.storage.steps.listByTurn(outcome.turnId)[0]!.result).toMatchObject({ ok: false, refused: true });
      // The same line with an Enter a person approves does run: the refusal above is what kept it from running.
      const approved = join(folder, 'approved');
      await own.close();
      const allowed = await agentOnDesktop(true);
      allowed.server.script([computerCall({ action: 'key', keys: 'ctrl+u' }), computerCall({ action: 'type', text: `touch ${approved}\n` }), finishCall()]);
      await allowed.agent.runTurn({ request: userText('Run it') });
      await fileAppears(approved);
      expect(existsSync(marker)).toBe(false);
    });

    it('lets Enter through unasked once Chromium has the focus again', async () => {
      focusWindow(chromiumWindow());
      await focusBecomes((focus) => focus.application?.isTerminal === false, 'Chromium');
      const own = await agentOnDesktop(false);
      own.server.script([computerCall({ action: 'key', keys: 'Return' }), finishCall()]);
      await own.agent.runTurn({ request: userText('Press Enter') });
      expect(own.confirmations).toEqual([]);
    });
  });
});

async function windowOf(find: () => string): Promise<string> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const windowId = find();
    if (/^\d+$/.test(windowId)) return windowId;
    if (Date.now() > deadline) throw new Error('the window did not appear');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function fileAppears(path: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} was never created: the approved command did not run`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
