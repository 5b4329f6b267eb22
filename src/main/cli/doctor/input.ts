/**
 * Whether Sightline can drive the mouse and keyboard: loads nut-js and asks where the mouse is. On macOS that
 * proves nothing about Accessibility (reading the mouse needs no permission, and macOS drops the events of an
 * untrusted process silently); AXIsProcessTrusted is not reachable from Node without a native module, so the
 * check says where the person should look instead.
 */
import { grantRemedy, settingsPath, PERMISSION_CONSEQUENCES, TERMINAL_GRANTEE } from '../../app/permissions/index.js';
import { errorMessage, lacksLinuxDisplay, missingLinuxDisplay, type DoctorCheckResult, type DoctorEnvironment } from './check.js';

const NAME = 'input';

export async function checkInput(environment: DoctorEnvironment): Promise<DoctorCheckResult> {
  // nut-js connects to X when it loads, so it is not even loaded without a display.
  if (lacksLinuxDisplay(environment)) return missingLinuxDisplay(environment, NAME, 'send input to');
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
    const ready = `nut-js ready; mouse at (${position.x}, ${position.y})`;
    if (environment.platform === 'darwin') {
      return {
        name: NAME,
        status: 'warning',
        detail: `${ready}; Accessibility cannot be checked from the command line`,
        fix: `check that ${TERMINAL_GRANTEE} is on under ${settingsPath('accessibility')}: ${PERMISSION_CONSEQUENCES.accessibility}`,
      };
    }
    return { name: NAME, status: 'ok', detail: ready };
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `nut-js cannot reach the input devices: ${errorMessage(error)}`, fix: inputFix(environment) };
  }
}

function inputFix(environment: DoctorEnvironment): string {
  switch (environment.platform) {
    case 'darwin':
      return grantRemedy('accessibility', TERMINAL_GRANTEE);
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
