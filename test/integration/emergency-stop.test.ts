/**
 * The emergency stop ends a running turn as stopped. A real run through the app API (the real agent and
 * model adapter against the fake model server, a fake operator held by a latch in the middle of its second
 * action) is stopped by the global shortcut (fake globalShortcut), the tray's Stop Sightline (fake Tray and
 * Menu) or the indicator's Stop (its IPC channel); the stored turn is `stopped` and the steps before it are
 * kept. The CLI's path is the same with the fake global input hook in place of Electron: the functions
 * `sightline run` wires (the interrupt watch and the stop shortcut watch) around a real agent turn.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeElectron, resetFakeElectron, type FakeBrowserWindow, type FakeMenu } from '../helpers/fake-electron.js';
import { installEmergencyStop, type EmergencyStop } from '../../src/main/electron/emergency-stop.js';
import { STOP_INDICATOR_STATE_CHANNEL, STOP_INDICATOR_STOP_CHANNEL, type StopIndicatorState } from '../../src/shared/stop-indicator.js';
import { watchInterrupts } from '../../src/main/cli/run/interrupts.js';
import { watchDesktopStopShortcut } from '../../src/main/cli/run/stop-shortcut-watch.js';
import type { GlobalKeyDown, GlobalKeyHook } from '../../src/main/operators/global-key-hook.js';
import type { ComputerAction } from '../../src/shared/actions.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';
import { userText } from '../../src/shared/messages.js';
import { computerCall, finishCall, startAgentHarness, type AgentHarness } from '../helpers/agent-harness.js';

vi.mock('electron', async () => (await import('../helpers/fake-electron.js')).fakeElectronModule);

const INDICATOR_URL = 'file:///opt/sightline/out/renderer/stop-indicator.html';
const MAIN_PAGE_URL = 'file:///opt/sightline/out/renderer/index.html';

/** Holds the operator inside one action until the test lets it go. */
class ActionLatch {
  reached!: Promise<void>;
  private markReached: () => void = () => undefined;
  private markReleased: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.markReleased = resolve));
  executed = 0;

  constructor(private readonly holdAt: number) {
    this.reached = new Promise<void>((resolve) => (this.markReached = resolve));
  }

  readonly onExecute = async (_action: ComputerAction): Promise<void> => {
    this.executed += 1;
    if (this.executed !== this.holdAt) return;
    this.markReached();
    await this.released;
  };

  release(): void {
    this.markReleased();
  }
}

const keepsClicking = [
  computerCall({ action: 'click', x: 10, y: 10 }),
  computerCall({ action: 'click', x: 20, y: 20 }),
  computerCall({ action: 'click', x: 30, y: 30 }),
  computerCall({ action: 'click', x: 40, y: 40 }),
  finishCall('Clicked everything.'),
];

let api: AppApiHarness | undefined;
let emergencyStop: EmergencyStop | undefined;

beforeEach(() => resetFakeElectron());

afterEach(async () => {
  emergencyStop?.dispose();
  emergencyStop = undefined;
  await api?.close();
  api = undefined;
});

async function appWithEmergencyStop(options: { latch: ActionLatch; platform?: NodeJS.Platform; shortcut?: string }): Promise<{ run: AppApiHarness; stop: EmergencyStop }> {
  api = await startAppApiHarness({ operator: { onExecute: options.latch.onExecute } });
  emergencyStop = installEmergencyStop({
    service: api.service,
    configuredShortcut: options.shortcut,
    platform: options.platform ?? 'linux',
    indicator: { pageUrl: INDICATOR_URL, preloadPath: '/opt/sightline/out/preload/stop-indicator.cjs' },
    showMainWindow: () => undefined,
    quit: () => undefined,
  });
  return { run: api, stop: emergencyStop };
}

function trayMenu(): FakeMenu {
  const menu = fakeElectron.trays[0]?.contextMenu;
  if (!menu) throw new Error('The tray has no menu');
  return menu as FakeMenu;
}

function stopItemEnabled(): boolean | undefined {
  return trayMenu().items.find((item) => item.label === 'Stop Sightline')?.enabled;
}

function indicatorWindows(): FakeBrowserWindow[] {
  return fakeElectron.windows.filter((window) => window.loadedUrl === INDICATOR_URL);
}

function statesSent(window: FakeBrowserWindow): StopIndicatorState[] {
  return window.webContents.sent.filter(([channel]) => channel === STOP_INDICATOR_STATE_CHANNEL).map(([, state]) => state as StopIndicatorState);
}

/** Starts a run that acts until the latch holds it in its second action, its first step stored. */
async function runHeldInSecondAction(run: AppApiHarness, latch: ActionLatch): Promise<{ sessionId: string; turnId: string }> {
  run.server.script(keepsClicking);
  const started = await run.call('startRun', { task: 'click everything' });
  await latch.reached;
  return started;
}

async function expectStoppedWithEarlierSteps(run: AppApiHarness, started: { sessionId: string; turnId: string }): Promise<void> {
  const ended = await run.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
  expect(ended.status).toBe('stopped');
  expect(run.storage.turns.get(started.turnId)?.status).toBe('stopped');
  const steps = await run.call('listSteps', { sessionId: started.sessionId });
  const clicks = steps.steps.flatMap((step) => (step.action?.action === 'click' ? [{ x: step.action.x, y: step.action.y }] : []));
  // The first step was stored before the stop; the action under way finished and was stored too; no other began.
  expect(clicks).toEqual([
    { x: 10, y: 10 },
    { x: 20, y: 20 },
  ]);
  expect(run.operators[0]?.executed).toHaveLength(2);
  await run.nextEvent('run-state', (event) => event.sessionId === started.sessionId && event.state === 'ended');
}

describe('the emergency stop in the app', () => {
  it('ends a running turn as stopped when the global shortcut is pressed, keeping the steps so far', async () => {
    const latch = new ActionLatch(2);
    const { run, stop } = await appWithEmergencyStop({ latch });
    expect(stop.shortcutProblem).toBeNull();
    expect(fakeElectron.globalShortcut.isRegistered('Control+Alt+Escape')).toBe(true);
    expect(stopItemEnabled()).toBe(false);

    const started = await runHeldInSecondAction(run, latch);
    // While the run acts: the tray offers Stop, and the indicator is up, on top, out of captures, without the focus.
    expect(stopItemEnabled()).toBe(true);
    const [indicator, ...others] = indicatorWindows();
    expect(others).toEqual([]);
    expect(indicator).toMatchObject({ contentProtection: true, alwaysOnTopLevel: 'screen-saver', visible: true, lastShownWith: 'showInactive' });
    expect(indicator?.options).toMatchObject({ alwaysOnTop: true, frame: false, skipTaskbar: true, show: false });
    expect(indicator?.options['webPreferences']).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(statesSent(indicator!).at(-1)).toEqual({ phase: 'acting', runs: 1, shortcut: 'Ctrl+Alt+Esc' });

    expect(fakeElectron.globalShortcut.press('Control+Alt+Escape')).toBe(true);
    expect(statesSent(indicator!).at(-1)).toEqual({ phase: 'stopping', runs: 1, shortcut: 'Ctrl+Alt+Esc' });
    latch.release();
    await expectStoppedWithEarlierSteps(run, started);
    // With no run left, the indicator is gone and Stop is disabled again.
    expect(indicator?.closed).toBe(true);
    expect(stopItemEnabled()).toBe(false);
  });

  it('stops from the tray item, and says in the tray why the shortcut is missing when another application holds it', async () => {
    fakeElectron.globalShortcut.taken.add('Control+Alt+Escape');
    const latch = new ActionLatch(2);
    const { run, stop } = await appWithEmergencyStop({ latch });
    expect(stop.shortcutProblem).toMatch(/Ctrl\+Alt\+Esc is already taken .*agent\.stopShortcut in config\.json/);
    expect(trayMenu().items.map((item) => item.label)).toContain(stop.shortcutProblem);

    const started = await runHeldInSecondAction(run, latch);
    trayMenu().click('Stop Sightline');
    latch.release();
    await expectStoppedWithEarlierSteps(run, started);
  });

  it('stops from the indicator, whose channel answers only its own page and takes no arguments', async () => {
    const latch = new ActionLatch(2);
    const { run } = await appWithEmergencyStop({ latch, platform: 'darwin' });
    expect(fakeElectron.globalShortcut.isRegistered('Command+Shift+Escape')).toBe(true);
    const started = await runHeldInSecondAction(run, latch);

    await expect(fakeElectron.ipcMain.invoke(STOP_INDICATOR_STOP_CHANNEL, MAIN_PAGE_URL)).rejects.toThrow(/not Sightline's stop indicator/);
    await expect(fakeElectron.ipcMain.invoke(STOP_INDICATOR_STOP_CHANNEL, null)).rejects.toThrow(/not Sightline's stop indicator/);
    await expect(fakeElectron.ipcMain.invoke(STOP_INDICATOR_STOP_CHANNEL, INDICATOR_URL, { sessionId: started.sessionId })).rejects.toThrow(/takes no arguments/);
    expect(run.storage.turns.get(started.turnId)?.status).toBe('running');

    expect(await fakeElectron.ipcMain.invoke(STOP_INDICATOR_STOP_CHANNEL, INDICATOR_URL)).toEqual({ stopped: 1 });
    latch.release();
    await expectStoppedWithEarlierSteps(run, started);
  });

  it('keeps the indicator out of the agent’s way: hidden around captures on Linux, click-through elsewhere', async () => {
    for (const [platform, concealed] of [
      ['linux', { visible: false, ignoresMouseEvents: false }],
      ['win32', { visible: true, ignoresMouseEvents: true }],
    ] as const) {
      resetFakeElectron();
      const latch = new ActionLatch(2);
      const { run, stop } = await appWithEmergencyStop({ latch, platform });
      const started = await runHeldInSecondAction(run, latch);
      const [indicator] = indicatorWindows();
      await stop.ownWindow.hide();
      expect(indicator, platform).toMatchObject(concealed);
      await stop.ownWindow.show();
      expect(indicator, platform).toMatchObject({ visible: true, ignoresMouseEvents: false });
      stop.stopEverything();
      latch.release();
      await expectStoppedWithEarlierSteps(run, started);
      stop.dispose();
      emergencyStop = undefined;
      await run.close();
      api = undefined;
    }
  });

  it('says so when Electron refuses the configured accelerator, and unregisters the shortcut when disposed', async () => {
    fakeElectron.globalShortcut.unparsable.add('Control+F13');
    const latch = new ActionLatch(0);
    const { stop } = await appWithEmergencyStop({ latch, shortcut: 'Control+F13' });
    expect(stop.shortcutProblem).toMatch(/Ctrl\+F13 was refused by Electron \(Failed to parse accelerator "Control\+F13"\)/);
    stop.dispose();
    emergencyStop = undefined;

    const { stop: second } = await appWithEmergencyStop({ latch });
    expect(fakeElectron.globalShortcut.isRegistered('Control+Alt+Escape')).toBe(true);
    second.dispose();
    emergencyStop = undefined;
    expect(fakeElectron.globalShortcut.isRegistered('Control+Alt+Escape')).toBe(false);
    expect(fakeElectron.trays.every((tray) => tray.destroyed)).toBe(true);
    expect(fakeElectron.ipcMain.handlers.has(STOP_INDICATOR_STOP_CHANNEL)).toBe(false);
  });
});

/** A global input hook the test presses keys on, with uiohook-napi's key codes for the keys it needs. */
class FakeKeyHook implements GlobalKeyHook {
  readonly keycodes = { Escape: 1, F12: 88, A: 30 };
  private readonly listeners: Array<(event: GlobalKeyDown) => void> = [];
  running = false;
  startError: Error | undefined;

  onKeyDown(listener: (event: GlobalKeyDown) => void): void {
    this.listeners.push(listener);
  }

  start(): void {
    if (this.startError) throw this.startError;
    this.running = true;
  }

  stop(): void {
    this.running = false;
    this.listeners.length = 0;
  }

  press(keycode: number, held: Partial<Omit<GlobalKeyDown, 'keycode'>>): void {
    const event = { keycode, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...held };
    for (const listener of [...this.listeners]) listener(event);
  }
}

describe('the emergency stop in sightline run', () => {
  let harness: AgentHarness | undefined;

  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('ends a running turn as stopped when the hook hears the shortcut, with the message of Ctrl+C, keeping the steps so far', async () => {
    const latch = new ActionLatch(2);
    harness = await startAgentHarness({ operator: { onExecute: latch.onExecute } });
    harness.server.script(keepsClicking);
    const stderr: string[] = [];
    const interrupts = watchInterrupts((text) => stderr.push(text));
    const hook = new FakeKeyHook();
    const stopWatching = await watchDesktopStopShortcut({
      loadHook: async () => hook,
      configured: undefined,
      platform: 'linux',
      onStop: interrupts.stop,
      notice: (line) => stderr.push(`${line}\n`),
    });
    expect(hook.running).toBe(true);
    expect(stderr).toEqual(['stop at any time with Ctrl+Alt+Esc (or Ctrl+C here)\n']);

    const turn = harness.agent.runTurn({ request: userText('click everything'), signal: interrupts.signal });
    await latch.reached;
    // Escape alone, or with other modifiers, is the person's to use.
    hook.press(hook.keycodes.Escape, {});
    hook.press(hook.keycodes.Escape, { ctrlKey: true, altKey: true, shiftKey: true });
    expect(interrupts.signal.aborted).toBe(false);
    hook.press(hook.keycodes.Escape, { ctrlKey: true, altKey: true });
    // A key held down repeats: the second press must not turn into Ctrl+C's forced quit.
    hook.press(hook.keycodes.Escape, { ctrlKey: true, altKey: true });
    expect(interrupts.signal.aborted).toBe(true);
    latch.release();
    const outcome = await turn;
    stopWatching();
    interrupts.dispose();

    expect(outcome.status).toBe('stopped');
    expect(harness.storage.turns.get(outcome.turnId)?.status).toBe('stopped');
    const clicks = harness.storage.steps.listByTurn(outcome.turnId).flatMap((step) => ('action' in step.action && step.action.action === 'click' ? [step.action.x] : []));
    expect(clicks).toEqual([10, 20]);
    expect(stderr.filter((line) => line.includes('stopping'))).toEqual(['\nstopping: the turn ends after the current action (Ctrl+C again to quit at once)\n']);
    expect(hook.running).toBe(false);
  });

  it('goes on with a one-line notice when the hook cannot start, and starts no hook without one to offer', async () => {
    const lines: string[] = [];
    const notice = (line: string) => lines.push(line);
    const stopNothing = () => undefined;
    const noDisplay = await watchDesktopStopShortcut({ loadHook: () => Promise.reject(new Error('DISPLAY is not set, so there is no X display to listen on')), configured: undefined, platform: 'linux', onStop: stopNothing, notice });
    const refused = new FakeKeyHook();
    refused.startError = new Error('Failed to enable access for assistive devices.');
    await watchDesktopStopShortcut({ loadHook: async () => refused, configured: undefined, platform: 'darwin', onStop: stopNothing, notice });
    const unknownKey = new FakeKeyHook();
    await watchDesktopStopShortcut({ loadHook: async () => unknownKey, configured: 'Control+Alt+Home', platform: 'linux', onStop: stopNothing, notice });
    await watchDesktopStopShortcut({ loadHook: undefined, configured: undefined, platform: 'linux', onStop: stopNothing, notice });
    noDisplay();

    expect(lines).toEqual([
      'sightline: the stop shortcut Ctrl+Alt+Esc is not available (DISPLAY is not set, so there is no X display to listen on); Ctrl+C still stops the run',
      'sightline: the stop shortcut Cmd+Shift+Esc is not available (Failed to enable access for assistive devices.); Ctrl+C still stops the run',
      'sightline: the stop shortcut Ctrl+Alt+Home is not available (the input hook cannot tell the Home key; choose another agent.stopShortcut); Ctrl+C still stops the run',
    ]);
    expect(refused.running).toBe(false);
    expect(unknownKey.running).toBe(false);
  });
});
