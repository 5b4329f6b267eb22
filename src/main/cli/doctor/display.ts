/**
 * Whether Sightline can see the screen: lists the displays node-screenshots finds, with size and scale
 * factor (HiDPI is where click positions go wrong), and captures the primary one once.
 */
import type * as NodeScreenshots from 'node-screenshots';
import { NO_DISPLAY_FIX, errorMessage, lacksLinuxDisplay, type DoctorCheckResult, type DoctorEnvironment } from './check.js';

const NAME = 'display';

export async function checkDisplay(environment: DoctorEnvironment): Promise<DoctorCheckResult> {
  if (lacksLinuxDisplay(environment)) {
    const wayland = environment.env.WAYLAND_DISPLAY ? ' (Wayland without XWayland is not supported)' : '';
    return { name: NAME, status: 'problem', detail: `DISPLAY is not set: no X display to capture${wayland}`, fix: NO_DISPLAY_FIX };
  }
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
    return { name: NAME, status: 'ok', detail: `${count}: ${listing}; captured ${image.width}x${image.height}` };
  } catch (error) {
    return { name: NAME, status: 'problem', detail: `${listing}; capture failed: ${errorMessage(error)}`, fix: captureFix(environment) };
  }
}

function describeMonitor(monitor: NodeScreenshots.Monitor): string {
  const primary = monitor.isPrimary() ? ', primary' : '';
  return `#${monitor.id()} ${monitor.width()}x${monitor.height()} @${monitor.scaleFactor()}x${primary}`;
}

function captureFix(environment: DoctorEnvironment): string {
  switch (environment.platform) {
    case 'darwin':
      return 'allow your terminal under System Settings > Privacy & Security > Screen Recording, then restart it';
    case 'linux':
      return `check that the X server at DISPLAY=${environment.env.DISPLAY ?? ''} accepts this user (XAUTHORITY, xhost)`;
    case 'win32':
      return 'run Sightline in an interactive desktop session (not a service or a locked session)';
    default:
      return 'run Sightline in a desktop session';
  }
}
