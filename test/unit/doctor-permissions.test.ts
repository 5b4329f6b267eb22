/**
 * The doctor's share of the permissions: under Wayland without XWayland the display and input checks say that
 * capture and input need X11 and how to get it, in the app's words; without any display they keep the Xvfb fix.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/shared/config.js';
import { homeAt } from '../../src/main/config/home.js';
import type { DoctorEnvironment } from '../../src/main/cli/doctor/check.js';
import { checkDisplay } from '../../src/main/cli/doctor/display.js';
import { checkInput } from '../../src/main/cli/doctor/input.js';
import { checkDesktopPermissions } from '../../src/main/app/permissions/index.js';

function linux(env: Record<string, string>): DoctorEnvironment {
  return { home: homeAt('/h'), config: DEFAULT_CONFIG, sources: {}, env, platform: 'linux' };
}

const WAYLAND = { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0' };

describe('doctor under Wayland without XWayland', () => {
  it('says that capture needs X11, with how to log in to an X11 session', async () => {
    const display = await checkDisplay(linux(WAYLAND));
    expect(display).toEqual({
      name: 'display',
      status: 'problem',
      detail: 'DISPLAY is not set: this is a Wayland session without XWayland, and screen capture and input need X11',
      fix: expect.stringMatching(/^log in to an X11 session \(on the login screen pick "GNOME on Xorg".*\), or enable XWayland so that DISPLAY is set$/),
    });
    expect(await checkInput(linux(WAYLAND))).toEqual({ ...display, name: 'input' });
  });

  it('uses the words of the app\'s panel', async () => {
    const [x11] = checkDesktopPermissions({ platform: 'linux', env: WAYLAND }).permissions;
    const display = await checkDisplay(linux({ XDG_SESSION_TYPE: 'wayland' }));
    expect([display.detail, display.fix]).toEqual([x11?.consequence, x11?.remedy]);
  });

  it('keeps the Xvfb fix when there is simply no display', async () => {
    expect(await checkDisplay(linux({}))).toEqual({
      name: 'display',
      status: 'problem',
      detail: 'DISPLAY is not set: no X display to capture',
      fix: 'run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99',
    });
    expect(await checkInput(linux({}))).toMatchObject({ detail: 'DISPLAY is not set: no X display to send input to' });
  });
});
