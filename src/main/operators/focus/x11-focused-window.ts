/**
 * The X11 window that has the keyboard focus, by the OS's own tools: `xdotool getwindowfocus` (the focused
 * top-level window, which works without a window manager too) and `xprop` for its WM_CLASS and _NET_WM_PID.
 * Terminals such as xterm expose no accessible tree at all, so this is how a terminal is known on X11.
 */
import { describeFailure, type CommandRunner } from './command-runner.js';

export interface X11FocusedWindow {
  /** WM_CLASS's instance and class names ("xterm", "XTerm"). */
  classNames: string[];
  processId?: number | undefined;
}

const TOOL_TIMEOUT_MS = 1000;

export async function x11FocusedWindow(run: CommandRunner): Promise<X11FocusedWindow | undefined> {
  const focus = await run('xdotool', ['getwindowfocus'], TOOL_TIMEOUT_MS);
  if (focus.kind !== 'exited' || focus.exitCode !== 0) return undefined;
  const windowId = focus.stdout.trim();
  if (!/^\d+$/.test(windowId)) return undefined;
  const properties = await run('xprop', ['-id', windowId, 'WM_CLASS', '_NET_WM_PID'], TOOL_TIMEOUT_MS);
  if (properties.kind !== 'exited' || properties.exitCode !== 0) return undefined;
  return parseXpropOutput(properties.stdout);
}

/**
 * xprop's lines: `WM_CLASS(STRING) = "xterm", "XTerm"` and `_NET_WM_PID(CARDINAL) = 1234`; a property the
 * window lacks reads "not found." and is left out. Undefined when the window has no WM_CLASS.
 */
export function parseXpropOutput(output: string): X11FocusedWindow | undefined {
  const classLine = /^WM_CLASS\(STRING\) = (.*)$/m.exec(output);
  const classNames = classLine === null ? [] : [...(classLine[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1] ?? '');
  if (classNames.length === 0) return undefined;
  const pidLine = /^_NET_WM_PID\(CARDINAL\) = (\d+)$/m.exec(output);
  return pidLine === null ? { classNames } : { classNames, processId: Number(pidLine[1]) };
}

/** Whether the X11 tools answer at all here, for doctor. */
export async function x11ToolsProblem(run: CommandRunner): Promise<string | undefined> {
  const focus = await run('xdotool', ['getwindowfocus'], TOOL_TIMEOUT_MS);
  if (focus.kind === 'not-started') return describeFailure('xdotool', focus);
  const properties = await run('xprop', ['-version'], TOOL_TIMEOUT_MS);
  if (properties.kind === 'not-started') return describeFailure('xprop', properties);
  return undefined;
}
