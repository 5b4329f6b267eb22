/** Whether Sightline can drive the mouse and keyboard: loads nut-js and asks where the mouse is. */
import { NO_DISPLAY_FIX, errorMessage, lacksLinuxDisplay, type DoctorCheckResult, type DoctorEnvironment } from './check.js';

const NAME = 'input';

export async function checkInput(environment: DoctorEnvironment): Promise<DoctorCheckResult> {
  if (lacksLinuxDisplay(environment)) {
    // nut-js connects to X when it loads, so it is not even loaded without a display.
    return { name: NAME, status: 'problem', detail: 'DISPLAY is not set: no X display to send input to', fix: NO_DISPLAY_FIX };
  }
  if (environment.platform === 'linux') {
    // libnut does not fail when the X server is gone: it kills the process (SIGSEGV). So reach the display
    // first through node-screenshots, which fails cleanly, and only then load nut-js.
    const unreachable = await xDisplayUnreachable();
    if (unreachable !== undefined) {
      return {
        name: NAME,
        status: 'problem',
        detail: `cannot connect to the X display ${environment.env.DISPLAY ?? ''}: ${unreachable}`,
        fix: 'start the X server (or Xvfb) named by DISPLAY, or set DISPLAY to a running one',
      };
    }
  }
  try {
    const { mouse } = await import('@nut-tree-fork/nut-js');
    const position = await mouse.getPosition();
    return { name: NAME, status: 'ok', detail: `nut-js ready; mouse at (${position.x}, ${position.y})` };
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `nut-js cannot reach the input devices: ${errorMessage(error)}`, fix: inputFix(environment) };
  }
}

function inputFix(environment: DoctorEnvironment): string {
  switch (environment.platform) {
    case 'darwin':
      return 'allow your terminal under System Settings > Privacy & Security > Accessibility, then restart it';
    case 'linux':
      return 'install the X test extension library (apt-get install libxtst6) and check DISPLAY';
    default:
      return 'reinstall Sightline (npm ci) for this platform, and run it in a desktop session';
  }
}

async function xDisplayUnreachable(): Promise<string | undefined> {
  try {
    const { Monitor } = await import('node-screenshots');
    Monitor.all();
    return undefined;
  } catch (error) {
    return errorMessage(error);
  }
}
