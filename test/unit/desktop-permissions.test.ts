/**
 * The desktop operator's OS requirements, under plain Node: what each system answer means, the wording the
 * panel, the refusal and the doctor share, which pane opens, and when a re-check tells the renderer.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  checkDesktopPermissions,
  createDesktopPermissions,
  desktopRunRefusal,
  isWaylandWithoutXWayland,
  PermissionWatch,
  SettingsUnavailableError,
  TERMINAL_GRANTEE,
  type PermissionProbe,
} from '../../src/main/app/permissions/index.js';
import { missingPermissions, PermissionStatusSchema, type PermissionStatus } from '../../src/shared/permissions.js';
import { isBlankFrame } from '../../src/main/perception/blank-frame.js';

function mac(screen: string, trusted: boolean, extra: Partial<PermissionProbe> = {}): PermissionProbe {
  return { platform: 'darwin', env: {}, screenRecordingStatus: () => screen, isAccessibilityTrusted: () => trusted, ...extra };
}

function checkOf(status: PermissionStatus, permission: string) {
  const check = status.permissions.find((candidate) => candidate.permission === permission);
  if (check === undefined) throw new Error(`no ${permission} in ${JSON.stringify(status)}`);
  return check;
}

describe('macOS permissions', () => {
  it('needs nothing when Screen Recording is granted and the app is a trusted accessibility client', () => {
    const status = checkDesktopPermissions(mac('granted', true));
    expect(PermissionStatusSchema.parse(status)).toEqual(status);
    expect(status.checked).toBe(true);
    expect(status.permissions.map((check) => [check.permission, check.state, check.missing])).toEqual([
      ['screen-recording', 'granted', false],
      ['accessibility', 'granted', false],
    ]);
    expect(desktopRunRefusal(status)).toBeUndefined();
  });

  it.each([
    ['denied', 'open System Settings > Privacy & Security > Screen Recording and turn on Sightline, then quit and reopen Sightline'],
    ['not-determined', 'open System Settings > Privacy & Security > Screen Recording and turn on Sightline, then quit and reopen Sightline'],
    ['restricted', 'Screen Recording is restricted by a device management profile on this Mac: ask its administrator to allow it'],
  ])('counts Screen Recording %s as missing, with what to do', (answer, remedy) => {
    const check = checkOf(checkDesktopPermissions(mac(answer, true)), 'screen-recording');
    expect(check).toMatchObject({ state: answer, missing: true, remedy, settings: 'screen-recording', label: 'Screen Recording' });
  });

  it('counts an untrusted accessibility client as missing, with the Accessibility pane', () => {
    const status = checkDesktopPermissions(mac('granted', false));
    expect(missingPermissions(status).map((check) => check.permission)).toEqual(['accessibility']);
    expect(checkOf(status, 'accessibility')).toMatchObject({
      state: 'denied',
      settings: 'accessibility',
      remedy: 'open System Settings > Privacy & Security > Accessibility and turn on Sightline',
    });
  });

  it('does not refuse on an answer it cannot read, but says where to look', () => {
    const check = checkOf(checkDesktopPermissions(mac('something-new', true)), 'screen-recording');
    expect(check).toMatchObject({ state: 'unknown', missing: false, remedy: 'check that Sightline is on under System Settings > Privacy & Security > Screen Recording' });
  });

  it('says it could not ask when the process has no way to (the CLI), and names the terminal as the one to allow', () => {
    const status = checkDesktopPermissions({ platform: 'darwin', env: {}, grantee: TERMINAL_GRANTEE });
    expect(status.checked).toBe(false);
    expect(status.note).toMatch(/cannot ask macOS/);
    expect(missingPermissions(status)).toEqual([]);
    expect(checkOf(status, 'accessibility').remedy).toContain('your terminal app');
  });

  it('refuses a desktop run naming every missing permission, what it breaks and where to grant it', () => {
    const refusal = desktopRunRefusal(checkDesktopPermissions(mac('denied', false)));
    expect(refusal).toBe(
      'The desktop operator cannot run yet. ' +
        'Screen Recording is missing (without it every screenshot is black or shows only the wallpaper, and the agent works blind): ' +
        'open System Settings > Privacy & Security > Screen Recording and turn on Sightline, then quit and reopen Sightline. ' +
        'Accessibility is missing (without it the clicks and keys the agent sends are silently dropped): ' +
        'open System Settings > Privacy & Security > Accessibility and turn on Sightline.',
    );
  });
});

describe('Linux and Windows', () => {
  it.each([
    [{ XDG_SESSION_TYPE: 'wayland' }, true],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, true],
    [{ WAYLAND_DISPLAY: 'wayland-0', DISPLAY: ':0' }, false],
    [{ XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' }, false],
    [{}, false],
  ])('%j is Wayland without XWayland: %s', (env, expected) => {
    expect(isWaylandWithoutXWayland(env)).toBe(expected);
  });

  it('says that capture needs X11 under Wayland without XWayland, and how to get it', () => {
    const status = checkDesktopPermissions({ platform: 'linux', env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' } });
    expect(status.permissions).toEqual([
      {
        permission: 'x11-display',
        label: 'X11 display',
        state: 'unsupported',
        missing: true,
        consequence: 'DISPLAY is not set: this is a Wayland session without XWayland, and screen capture and input need X11',
        remedy: expect.stringMatching(/^log in to an X11 session .*or enable XWayland so that DISPLAY is set$/),
        settings: null,
      },
    ]);
    expect(desktopRunRefusal(status)).toContain('screen capture and input need X11');
  });

  it('needs only DISPLAY on an X11 session (XWayland included)', () => {
    for (const env of [{ DISPLAY: ':0' }, { DISPLAY: ':0', WAYLAND_DISPLAY: 'wayland-0', XDG_SESSION_TYPE: 'wayland' }]) {
      expect(desktopRunRefusal(checkDesktopPermissions({ platform: 'linux', env }))).toBeUndefined();
    }
    const bare = checkDesktopPermissions({ platform: 'linux', env: {} });
    expect(checkOf(bare, 'x11-display')).toMatchObject({ missing: true, remedy: 'run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99' });
  });

  it('asks nothing on Windows, and says so', () => {
    expect(checkDesktopPermissions({ platform: 'win32', env: {} })).toEqual({
      checked: true,
      permissions: [],
      note: 'Windows asks for no permission to capture the screen or send input.',
    });
  });
});

describe('opening System Settings', () => {
  it('opens the pane of each macOS permission, after making the app known to it', async () => {
    const calls: string[] = [];
    const permissions = createDesktopPermissions({
      probe: mac('not-determined', false),
      openExternal: async (url) => void calls.push(`open ${url}`),
      announce: async (permission) => void calls.push(`announce ${permission}`),
    });
    await expect(permissions.openSettings('screen-recording')).resolves.toEqual({
      opened: true,
      pane: 'x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
    });
    await permissions.openSettings('accessibility');
    expect(calls).toEqual([
      'announce screen-recording',
      'open x-apple.systempreferences:com.apple.preference.security?Privacy_ScreenCapture',
      'announce accessibility',
      'open x-apple.systempreferences:com.apple.preference.security?Privacy_Accessibility',
    ]);
  });

  it('has no pane to open off macOS, or without a way to open one', async () => {
    const openExternal = vi.fn(() => Promise.resolve());
    const linux = createDesktopPermissions({ probe: { platform: 'linux', env: { DISPLAY: ':0' } }, openExternal });
    await expect(linux.openSettings('accessibility')).rejects.toBeInstanceOf(SettingsUnavailableError);
    const cli = createDesktopPermissions({ probe: mac('denied', false) });
    await expect(cli.openSettings('screen-recording')).rejects.toThrow(/only the Sightline app on macOS/);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('checks afresh at every ask', () => {
    let screen = 'denied';
    const permissions = createDesktopPermissions({ probe: mac('', true, { screenRecordingStatus: () => screen }) });
    expect(missingPermissions(permissions.status())).toHaveLength(1);
    screen = 'granted';
    expect(missingPermissions(permissions.status())).toHaveLength(0);
  });
});

describe('re-checking', () => {
  it('publishes a re-check only when the answer changed since the last check', () => {
    let screen = 'denied';
    const published: PermissionStatus[] = [];
    const watch = new PermissionWatch(
      () => checkDesktopPermissions(mac('', true, { screenRecordingStatus: () => screen })),
      (status) => published.push(status),
    );
    expect(missingPermissions(watch.current())).toHaveLength(1);
    watch.recheck();
    expect(published).toEqual([]);
    screen = 'granted';
    expect(missingPermissions(watch.recheck())).toEqual([]);
    expect(published).toHaveLength(1);
    expect(missingPermissions(published[0]!)).toEqual([]);
    watch.recheck();
    expect(published).toHaveLength(1);
    screen = 'denied';
    watch.recheck();
    expect(published.map((status) => missingPermissions(status).length)).toEqual([0, 1]);
  });
});

describe('isBlankFrame', () => {
  const pixels = (...colours: number[][]) => Uint8Array.from(colours.flatMap((colour) => [...colour, 255]));

  it('is blank when every pixel has one colour, whatever the alpha', () => {
    expect(isBlankFrame(pixels([0, 0, 0], [0, 0, 0], [0, 0, 0]))).toBe(true);
    expect(isBlankFrame(Uint8Array.from([9, 9, 9, 0, 9, 9, 9, 255]))).toBe(true);
    expect(isBlankFrame(new Uint8Array(0))).toBe(true);
  });

  it('is not blank when one pixel differs in any channel', () => {
    expect(isBlankFrame(pixels([0, 0, 0], [0, 0, 0], [0, 0, 1]))).toBe(false);
    expect(isBlankFrame(pixels([0, 0, 0], [0, 1, 0]))).toBe(false);
  });

  it('looks only at the sampled pixels', () => {
    const frame = pixels([5, 5, 5], [200, 0, 0], [5, 5, 5], [0, 200, 0], [5, 5, 5]);
    expect(isBlankFrame(frame, 2)).toBe(true);
    expect(isBlankFrame(frame, 1)).toBe(false);
  });
});
