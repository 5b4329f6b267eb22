/**
 * The permissions through the app API, with a fake macOS behind them: a desktop run is refused while Screen
 * Recording or Accessibility is missing, with the message that names it and where to grant it, before any
 * session or operator exists; a browser run is not; once granted, the same task runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AppApiError } from '../../src/shared/app-api.js';
import { createDesktopPermissions, type PermissionProbe } from '../../src/main/app/permissions/index.js';
import { finishCall } from '../helpers/agent-harness.js';
import { startAppApiHarness, type AppApiHarness } from '../helpers/app-api-harness.js';

let api: AppApiHarness | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A Mac whose answers a test changes between calls. */
function fakeMac(): { answers: { screen: string; trusted: boolean }; probe: PermissionProbe } {
  const answers = { screen: 'denied', trusted: true };
  return {
    answers,
    probe: { platform: 'darwin', env: {}, screenRecordingStatus: () => answers.screen, isAccessibilityTrusted: () => answers.trusted },
  };
}

async function refusal(run: AppApiHarness, ...callArguments: Parameters<AppApiHarness['callRaw']>[1]): Promise<AppApiError> {
  const error: unknown = await run.callRaw('startRun', callArguments).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppApiError);
  return error as AppApiError;
}

describe('a desktop run and the OS permissions', () => {
  it('is refused while Screen Recording is missing, naming it and where to grant it, and nothing is created', async () => {
    const mac = fakeMac();
    const opened: string[] = [];
    api = await startAppApiHarness({
      permissions: createDesktopPermissions({ probe: mac.probe, openExternal: async (url) => void opened.push(url) }),
    });
    const error = await refusal(api, { task: 'open the calculator' });
    expect(error.code).toBe('refused');
    expect(error.message).toContain('Screen Recording is missing (without it every screenshot is black');
    expect(error.message).toContain('open System Settings > Privacy & Security > Screen Recording and turn on Sightline');
    expect(error.message).not.toContain('Accessibility');
    expect((await api.call('listSessions', {})).total).toBe(0);
    expect(api.operators).toEqual([]);

    // The panel's button opens the pane through the same API.
    await expect(api.call('openPermissionSettings', 'screen-recording')).resolves.toMatchObject({ opened: true });
    expect(opened).toEqual(['x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture']);

    mac.answers.screen = 'granted';
    mac.answers.trusted = false;
    const untrusted = await refusal(api, { task: 'open the calculator', operator: 'desktop' });
    expect(untrusted.message).toContain('Accessibility is missing (without it the clicks and keys the agent sends are silently dropped)');

    mac.answers.trusted = true;
    api.server.script([finishCall('Opened it.')]);
    const started = await api.call('startRun', { task: 'open the calculator' });
    await api.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    expect(api.operators).toHaveLength(1);
  });

  it('lets a browser run start: the browser needs neither permission', async () => {
    api = await startAppApiHarness({ permissions: createDesktopPermissions({ probe: fakeMac().probe }) });
    api.server.script([finishCall('Read it.')]);
    const started = await api.call('startRun', { task: 'read the page', operator: 'browser' });
    await api.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    expect(api.operators).toHaveLength(1);
  });

  it("goes by the configuration's operator when the task names none", async () => {
    api = await startAppApiHarness({ agent: { operator: 'browser' }, permissions: createDesktopPermissions({ probe: fakeMac().probe }) });
    api.server.script([finishCall('Read it.')]);
    const started = await api.call('startRun', { task: 'read the page' });
    await api.nextEvent('turn-ended', (event) => event.turnId === started.turnId);
    const desktop = await refusal(api, { task: 'open the calculator', operator: 'desktop' });
    expect(desktop.code).toBe('refused');
  });

  it('reports the status, and refuses to open a pane where there is none, saying so', async () => {
    api = await startAppApiHarness({ permissions: createDesktopPermissions({ probe: { platform: 'linux', env: { DISPLAY: ':0' } } }) });
    expect(await api.call('permissionStatus')).toMatchObject({ checked: true, permissions: [{ permission: 'x11-display', missing: false }] });
    const error: unknown = await api.call('openPermissionSettings', 'accessibility').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'refused', message: expect.stringContaining('only the Sightline app on macOS') });
  });

  it('checks nothing when the service has no way to (and says so)', async () => {
    api = await startAppApiHarness();
    expect(await api.call('permissionStatus')).toEqual({ checked: false, permissions: [], note: 'The desktop permissions are not checked here.', desktopByDefault: true });
  });

  it('says whether a task that names no operator runs on the desktop, from the configuration', async () => {
    api = await startAppApiHarness({ agent: { operator: 'browser' } });
    expect(await api.call('permissionStatus')).toMatchObject({ desktopByDefault: false });
  });
});
