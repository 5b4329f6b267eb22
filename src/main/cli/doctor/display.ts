/**
 * Whether Sightline can see the screen: lists the displays node-screenshots finds, with size and scale
 * factor (HiDPI is where click positions go wrong), and captures the primary one once. On macOS that capture
 * is also the Screen Recording check: a command-line process cannot ask macOS (systemPreferences is the
 * app's), but a capture that comes back in one colour is what a missing permission looks like.
 */
import type * as NodeScreenshots from 'node-screenshots';
import { grantRemedy, TERMINAL_GRANTEE } from '../../app/permissions/index.js';
import { isBlankFrame } from '../../perception/blank-frame.js';
import { errorMessage, lacksLinuxDisplay, missingLinuxDisplay, type DoctorCheckResult, type DoctorEnvironment } from './check.js';

const NAME = 'display';

export async function checkDisplay(environment: DoctorEnvironment): Promise<DoctorCheckResult> {
  if (lacksLinuxDisplay(environment)) return missingLinuxDisplay(environment, NAME, 'capture');
  let screenshots: typeof NodeScreenshots;
  try {
    // Loaded here, not at the top: a native module that needs a display must not break `--help`.
    screenshots = await import('node-screenshots');
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `node-screenshots failed to load: ${errorMessage(error)}`, fix: 'reinstall Sightline (npm ci) for this platform' };
  }
  let monitors: NodeScreenshots.Monitor[];
  try {
    monitors = screenshots.Monitor.all();
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `cannot list displays: ${errorMessage(error)}`, fix: captureFix(environment) };
  }
  if (monitors.length === 0) {
    return { name: NAME, status: 'problem', detail: 'no displays found', fix: captureFix(environment) };
  }
  const listing = monitors.map(describeMonitor).join(', ');
  const primary = monitors.find((monitor) => monitor.isPrimary()) ?? monitors[0];
  try {
    const image = await primary!.captureImage();
    const count = monitors.length === 1 ? '1 display' : `${monitors.length} displays`;
    if (environment.platform === 'darwin' && isBlankFrame(await image.toRaw(), BLANK_SAMPLE_EVERY)) {
      return {
        name: NAME,
        status: 'problem',
        detail: `${count}: ${listing}; the test capture came back in one colour: Screen Recording looks missing`,
        fix: captureFix(environment),
      };
    }
    return { name: NAME, status: 'ok', detail: `${count}: ${listing}; captured ${image.width}x${image.height}` };
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `${listing}; capture failed: ${errorMessage(error)}`, fix: captureFix(environment) };
  }
}

/** Every 7th pixel is plenty to tell a blank frame from a desktop, at a fraction of a 5K screen's cost. */
const BLANK_SAMPLE_EVERY = 7;

function describeMonitor(monitor: NodeScreenshots.Monitor): string {
  const primary = monitor.isPrimary() ? ', primary' : '';
  return `#${monitor.id()} ${monitor.width()}x${monitor.height()} @${monitor.scaleFactor()}x${primary}`;
}

function captureFix(environment: DoctorEnvironment): string {
  switch (environment.platform) {
    case 'darwin':
      return grantRemedy('screen-recording', TERMINAL_GRANTEE);
    case 'linux':
      return `check that the X server at DISPLAY=${environment.env.DISPLAY ?? ''} accepts this user (XAUTHORITY, xhost)`;
    case 'win32':
      return 'run Sightline in an interactive desktop session (not a service or a locked session)';
    default:
      return 'run Sightline in a desktop session';
  }
}
