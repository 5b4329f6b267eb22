/**
 * Frames of a desktop display, through node-screenshots (X11 on Linux, CoreGraphics on macOS, DXGI/GDI on
 * Windows). The Electron app may serve the same FrameSource through desktopCapturer instead.
 *
 * On Linux, node-screenshots opens its X connection on the first call and keeps it (or the failure) for
 * the life of the process: DISPLAY is read then, not when the module loads, and changing it later has no
 * effect. A process that must capture another X server has to be a new process.
 */
import { Monitor } from 'node-screenshots';
import type { Frame, ScreenBounds } from '../perception/frame.js';
import type { FrameSource } from '../perception/frame-source.js';
import { DisplayUnavailableError, UnknownDisplayError } from './display-errors.js';

export interface DisplayInfo {
  id: number;
  name: string;
  /** In screen coordinates (logical units). */
  bounds: ScreenBounds;
  scaleFactor: number;
  primary: boolean;
}

/** The part of node-screenshots' Monitor we use; tests may pass their own. */
export type MonitorLike = Pick<
  Monitor,
  'id' | 'name' | 'x' | 'y' | 'width' | 'height' | 'scaleFactor' | 'isPrimary' | 'captureImage'
>;

export interface DesktopFrameSourceOptions {
  /** The display to capture (config: perception.displayId); the primary display when absent. */
  displayId?: number | undefined;
  /** Where the monitors come from; node-screenshots by default. */
  listMonitors?: () => MonitorLike[];
  /** The clock for `capturedAt`. */
  now?: () => number;
}

export class DesktopFrameSource implements FrameSource {
  private readonly displayId: number | undefined;
  private readonly listMonitors: () => MonitorLike[];
  private readonly now: () => number;

  constructor(options: DesktopFrameSourceOptions = {}) {
    this.displayId = options.displayId;
    this.listMonitors = options.listMonitors ?? (() => Monitor.all());
    this.now = options.now ?? Date.now;
  }

  /** Every display, as node-screenshots sees it. Throws DisplayUnavailableError when there is none. */
  listDisplays(): DisplayInfo[] {
    return this.monitors().map(describeMonitor);
  }

  /** The display `capture()` reads: the configured one, else the primary. Throws like `capture()`. */
  chosenDisplay(): DisplayInfo {
    return describeMonitor(this.chosenMonitor());
  }

  async capture(): Promise<Frame> {
    const monitor = this.chosenMonitor();
    const display = describeMonitor(monitor);
    const image = await monitor.captureImage();
    const rgba = await image.toRaw();
    return {
      rgba,
      width: image.width,
      height: image.height,
      scaleFactor: display.scaleFactor,
      displayId: display.id,
      bounds: display.bounds,
      capturedAt: this.now(),
    };
  }

  /**
   * The configured display, else the primary one. An X server without RandR primary output (Xvfb, some
   * minimal setups) reports no primary: then the display at the screen origin, else the first, stands in.
   */
  private chosenMonitor(): MonitorLike {
    const monitors = this.monitors();
    if (this.displayId !== undefined) {
      const chosen = monitors.find((monitor) => monitor.id() === this.displayId);
      if (!chosen) throw new UnknownDisplayError(this.displayId, monitors.map(describeForError).join(', '));
      return chosen;
    }
    return (
      monitors.find((monitor) => monitor.isPrimary()) ??
      monitors.find((monitor) => monitor.x() === 0 && monitor.y() === 0) ??
      monitors[0]!
    );
  }

  private monitors(): MonitorLike[] {
    let monitors: MonitorLike[];
    try {
      monitors = this.listMonitors();
    } catch (error) {
      throw new DisplayUnavailableError(error instanceof Error ? error.message : String(error));
    }
    if (monitors.length === 0) throw new DisplayUnavailableError('the system reports no displays');
    return monitors;
  }
}

function describeMonitor(monitor: MonitorLike): DisplayInfo {
  return {
    id: monitor.id(),
    name: monitor.name(),
    bounds: { x: monitor.x(), y: monitor.y(), width: monitor.width(), height: monitor.height() },
    scaleFactor: monitor.scaleFactor(),
    primary: monitor.isPrimary(),
  };
}

function describeForError(monitor: MonitorLike): string {
  const primary = monitor.isPrimary() ? ', primary' : '';
  return `${monitor.id()} (${monitor.name()}, ${monitor.width()}x${monitor.height()}${primary})`;
}
