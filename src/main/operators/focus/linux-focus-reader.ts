/**
 * Linux: the focused element from AT-SPI (the helper), the focused application from X11 (WM_CLASS). The two
 * are checked against each other by process id: AT-SPI remembers the last element that had the focus in an
 * accessible application, so when X11 says another application's window (an xterm, which has no accessible
 * tree) has the focus, that element is not what keys go to, and the field is 'unknown'.
 */
import type { FocusedApplication } from '../operator.js';
import { ATSPI_PACKAGES_FIX, type AtspiFocusClient } from './atspi-focus-client.js';
import { fieldKindOfAccessible, isTerminalRole, type AccessibleFocus } from './atspi-roles.js';
import type { CommandRunner } from './command-runner.js';
import { focusReading, UNKNOWN_FOCUS, type DesktopFocusReader, type FocusAvailability, type FocusReading } from './focus-reading.js';
import { isListedTerminal, X11_TERMINAL_CLASSES } from './terminal-applications.js';
import { x11FocusedWindow, x11ToolsProblem, type X11FocusedWindow } from './x11-focused-window.js';

export interface LinuxFocusReaderOptions {
  accessibility: AtspiFocusClient;
  run: CommandRunner;
  /** The X display; without one there is no X11 window to ask about (Wayland-only sessions, a console). */
  display: string | undefined;
}

export class LinuxFocusReader implements DesktopFocusReader {
  constructor(private readonly options: LinuxFocusReaderOptions) {}

  async focusedField(): Promise<FocusReading> {
    try {
      const [element, window] = await Promise.all([this.options.accessibility.focusedElement(), this.focusedWindow()]);
      return combinedReading(element, window);
    } catch {
      return UNKNOWN_FOCUS;
    }
  }

  async availability(): Promise<FocusAvailability> {
    const readiness = await this.options.accessibility.readiness();
    if (!readiness.ready) {
      return { available: false, reason: `focus detection is unavailable: ${readiness.reason}`, fix: ATSPI_PACKAGES_FIX };
    }
    if (!this.hasDisplay()) return { available: true, detail: 'AT-SPI answers; no X display, so terminals are known only by their accessible role' };
    const problem = await x11ToolsProblem(this.options.run);
    if (problem !== undefined) {
      return { available: false, reason: `terminals cannot be told: ${problem}`, fix: 'install xdotool and x11-utils (Debian/Ubuntu: sudo apt-get install xdotool x11-utils)' };
    }
    return { available: true, detail: 'AT-SPI for the focused field, WM_CLASS for the focused application' };
  }

  close(): Promise<void> {
    return this.options.accessibility.close();
  }

  private hasDisplay(): boolean {
    return (this.options.display ?? '').trim() !== '';
  }

  private focusedWindow(): Promise<X11FocusedWindow | undefined> {
    return this.hasDisplay() ? x11FocusedWindow(this.options.run) : Promise.resolve(undefined);
  }
}

export function combinedReading(element: AccessibleFocus | undefined, window: X11FocusedWindow | undefined): FocusReading {
  const elementIsElsewhere =
    element !== undefined && window?.processId !== undefined && element.processId !== undefined && element.processId !== window.processId;
  const trusted = elementIsElsewhere ? undefined : element;
  const fieldKind = trusted === undefined ? 'unknown' : fieldKindOfAccessible(trusted);
  return focusReading(fieldKind, focusedApplication(trusted, window));
}

function focusedApplication(element: AccessibleFocus | undefined, window: X11FocusedWindow | undefined): FocusedApplication | undefined {
  const terminalRole = element !== undefined && isTerminalRole(element.role);
  if (window !== undefined) {
    const name = window.classNames.at(-1) ?? '';
    return { name, isTerminal: terminalRole || window.classNames.some((className) => isListedTerminal(X11_TERMINAL_CLASSES, className)) };
  }
  if (element?.application === undefined) return undefined;
  return { name: element.application, isTerminal: terminalRole };
}
