/**
 * The desktop's focus readers, parsing and failure paths, with fake command runners: what macOS's osascript,
 * Windows' PowerShell and X11's xdotool/xprop answer becomes a field kind and an application, and every
 * failure (tool missing, permission denied, timeout, garbage) becomes 'unknown', never a throw.
 */
import { describe, expect, it } from 'vitest';
import { fieldKindOfAccessible } from '../../src/main/operators/focus/atspi-roles.js';
import type { CommandOutcome, CommandRunner } from '../../src/main/operators/focus/command-runner.js';
import { combinedReading } from '../../src/main/operators/focus/linux-focus-reader.js';
import { MacosFocusReader, parseMacosFocus } from '../../src/main/operators/focus/macos-focus-reader.js';
import { createPlatformFocusReader } from '../../src/main/operators/focus/platform-focus-reader.js';
import { parseWindowsFocus, WindowsFocusReader } from '../../src/main/operators/focus/windows-focus-reader.js';
import { parseXpropOutput, x11FocusedWindow } from '../../src/main/operators/focus/x11-focused-window.js';

const exited = (stdout: string, exitCode = 0, stderr = ''): CommandOutcome => ({ kind: 'exited', exitCode, stdout, stderr });
const missing: CommandOutcome = { kind: 'not-started', reason: 'osascript: ENOENT' };
const timedOut: CommandOutcome = { kind: 'timed-out', timeoutMs: 2500 };

/** A runner that answers each command by its name, and writes down what it was asked. */
function fakeRunner(answers: Record<string, CommandOutcome>, calls: string[] = []): CommandRunner {
  return async (command, args) => {
    calls.push([command, ...args.slice(0, 2)].join(' '));
    return answers[command] ?? { kind: 'not-started', reason: `${command}: ENOENT` };
  };
}

describe('macOS: osascript and System Events', () => {
  it('reads a secure text field as a password field, in the frontmost application', () => {
    expect(parseMacosFocus(exited('com.apple.Safari\nSafari\nAXTextField\nAXSecureTextField\n'))).toEqual({
      reading: { fieldKind: 'password', application: { name: 'com.apple.Safari', isTerminal: false } },
    });
  });

  it('reads text fields as text, other elements as other, and knows terminals by bundle id', () => {
    expect(parseMacosFocus(exited('com.apple.TextEdit\nTextEdit\nAXTextArea\nmissing value\n')).reading.fieldKind).toBe('text');
    expect(parseMacosFocus(exited('com.apple.finder\nFinder\nAXList\n\n')).reading.fieldKind).toBe('other');
    // The terminal's text area stays 'unknown': a password prompt there looks like any other.
    expect(parseMacosFocus(exited('com.googlecode.iterm2\niTerm2\nAXTextArea\n\n')).reading).toEqual({
      fieldKind: 'unknown',
      application: { name: 'com.googlecode.iterm2', isTerminal: true },
    });
    expect(parseMacosFocus(exited('com.apple.Terminal\nTerminal\nerror:-1728\n\n')).reading).toEqual({
      fieldKind: 'unknown',
      application: { name: 'com.apple.Terminal', isTerminal: true },
    });
  });

  it('answers unknown, and says why, when osascript is missing, denied, slow or says nonsense', () => {
    expect(parseMacosFocus(missing)).toEqual({ reading: { fieldKind: 'unknown' }, problem: 'osascript could not be started (osascript: ENOENT)' });
    expect(parseMacosFocus(timedOut)).toEqual({ reading: { fieldKind: 'unknown' }, problem: 'osascript did not answer within 2500 ms' });
    const denied = exited('', 1, "execution error: System Events got an error: osascript is not allowed assistive access. (-25211)\n");
    expect(parseMacosFocus(denied)).toEqual({ reading: { fieldKind: 'unknown' }, problem: 'osascript is not allowed to read the focus (Accessibility permission)' });
    expect(parseMacosFocus(exited('com.apple.Safari\nSafari\nerror:-1719\n\n')).problem).toBe('osascript is not allowed to read the focus (Accessibility permission)');
    expect(parseMacosFocus(exited('<<garbage>>')).reading).toEqual({ fieldKind: 'unknown' });
    expect(parseMacosFocus(exited('\n\n\n\n')).reading).toEqual({ fieldKind: 'unknown' });
    expect(parseMacosFocus(exited('missing value\nSomeTool\nAXTextField\nmissing value\n')).reading).toEqual({
      fieldKind: 'text',
      application: { name: 'SomeTool', isTerminal: false },
    });
  });

  it('reports availability with the fix for the permission', async () => {
    const reader = new MacosFocusReader(fakeRunner({ osascript: exited('', 1, 'not allowed assistive access (-1719)') }));
    expect(await reader.focusedField()).toEqual({ fieldKind: 'unknown' });
    expect(await reader.availability()).toMatchObject({ available: false, fix: expect.stringContaining('Privacy & Security > Accessibility') });
  });
});

describe('Windows: PowerShell and UI Automation', () => {
  const answer = (value: unknown): CommandOutcome => exited(`${JSON.stringify(value)}\r\n`);

  it('reads IsPassword, edit controls, and terminals by process name', () => {
    expect(parseWindowsFocus(answer({ isPassword: true, controlType: 'ControlType.Edit', processName: 'msedge' }))).toEqual({
      reading: { fieldKind: 'password', application: { name: 'msedge', isTerminal: false } },
    });
    expect(parseWindowsFocus(answer({ isPassword: false, controlType: 'ControlType.Document', processName: 'notepad' })).reading.fieldKind).toBe('text');
    expect(parseWindowsFocus(answer({ isPassword: false, controlType: 'ControlType.Button', processName: 'explorer' })).reading.fieldKind).toBe('other');
    expect(parseWindowsFocus(answer({ isPassword: false, controlType: 'ControlType.Edit', processName: 'WindowsTerminal' })).reading).toEqual({
      fieldKind: 'unknown',
      application: { name: 'WindowsTerminal', isTerminal: true },
    });
    expect(parseWindowsFocus(answer({ isPassword: false, controlType: 'ControlType.Pane', processName: '' })).reading).toEqual({ fieldKind: 'other' });
  });

  it('answers unknown on a missing PowerShell, a denial, a timeout, or output of another shape', () => {
    expect(parseWindowsFocus({ kind: 'not-started', reason: 'powershell.exe: ENOENT' }).reading).toEqual({ fieldKind: 'unknown' });
    expect(parseWindowsFocus(exited('', 1, 'Access is denied.')).problem).toBe('UI Automation was denied access to the focused element');
    expect(parseWindowsFocus(timedOut).problem).toBe('powershell.exe did not answer within 2500 ms');
    expect(parseWindowsFocus(exited('Exception calling "FocusedElement"')).problem).toBe('PowerShell answered something that is not JSON');
    expect(parseWindowsFocus(answer({ isPassword: 'yes' })).problem).toBe('PowerShell answered JSON of an unexpected shape');
  });

  it('asks powershell.exe without a profile, each time', async () => {
    const calls: string[] = [];
    const reader = new WindowsFocusReader(fakeRunner({ 'powershell.exe': answer({ isPassword: true, controlType: 'ControlType.Edit', processName: 'chrome' }) }, calls));
    expect((await reader.focusedField()).fieldKind).toBe('password');
    expect(calls).toEqual(['powershell.exe -NoProfile -NonInteractive']);
  });
});

describe('Linux: AT-SPI roles and X11 WM_CLASS', () => {
  it('classifies the accessible roles libatspi names', () => {
    expect(fieldKindOfAccessible({ role: 'password text', states: ['focused'] })).toBe('password');
    expect(fieldKindOfAccessible({ role: 'entry', states: ['focused', 'editable'] })).toBe('text');
    expect(fieldKindOfAccessible({ role: 'text', states: ['focused'] })).toBe('text');
    expect(fieldKindOfAccessible({ role: 'document web', states: ['focused', 'editable'] })).toBe('text');
    expect(fieldKindOfAccessible({ role: 'push button', states: ['focused'] })).toBe('other');
    expect(fieldKindOfAccessible({ role: 'terminal', states: ['focused', 'editable'] })).toBe('unknown');
  });

  it('parses xprop, with or without a pid, and nothing without WM_CLASS', () => {
    expect(parseXpropOutput('WM_CLASS(STRING) = "xterm", "XTerm"\n_NET_WM_PID(CARDINAL) = 8533\n')).toEqual({ classNames: ['xterm', 'XTerm'], processId: 8533 });
    expect(parseXpropOutput('WM_CLASS(STRING) = "gnome-terminal-server", "Gnome-terminal"\n_NET_WM_PID:  not found.\n')).toEqual({
      classNames: ['gnome-terminal-server', 'Gnome-terminal'],
    });
    expect(parseXpropOutput('WM_CLASS:  not found.\n')).toBeUndefined();
    expect(parseXpropOutput('garbage')).toBeUndefined();
  });

  it('asks xdotool for the focused window and xprop for its class; a failure of either is no window', async () => {
    const calls: string[] = [];
    const xprop = exited('WM_CLASS(STRING) = "kitty", "kitty"\n_NET_WM_PID(CARDINAL) = 77\n');
    expect(await x11FocusedWindow(fakeRunner({ xdotool: exited('2097164\n'), xprop }, calls))).toEqual({ classNames: ['kitty', 'kitty'], processId: 77 });
    expect(calls).toEqual(['xdotool getwindowfocus', 'xprop -id 2097164']);
    expect(await x11FocusedWindow(fakeRunner({ xdotool: exited('', 1, 'XGetInputFocus returned the focused window of 1'), xprop }))).toBeUndefined();
    expect(await x11FocusedWindow(fakeRunner({ xdotool: exited('not a window\n'), xprop }))).toBeUndefined();
    expect(await x11FocusedWindow(fakeRunner({ xdotool: exited('42\n') }))).toBeUndefined();
    expect(await x11FocusedWindow(fakeRunner({ xdotool: { kind: 'timed-out', timeoutMs: 1000 }, xprop }))).toBeUndefined();
  });

  it('combines the two: the element only counts when it belongs to the focused window\'s process', () => {
    const passwordInChromium = { role: 'password text', states: ['focused'], application: 'Chromium', processId: 100 };
    const chromiumWindow = { classNames: ['chromium', 'Chromium'], processId: 100 };
    const xtermWindow = { classNames: ['xterm', 'XTerm'], processId: 200 };
    expect(combinedReading(passwordInChromium, chromiumWindow)).toEqual({ fieldKind: 'password', application: { name: 'Chromium', isTerminal: false } });
    // Chromium's field kept its focus state when the xterm took the keyboard: the keys go to the xterm.
    expect(combinedReading(passwordInChromium, xtermWindow)).toEqual({ fieldKind: 'unknown', application: { name: 'XTerm', isTerminal: true } });
    expect(combinedReading(undefined, xtermWindow)).toEqual({ fieldKind: 'unknown', application: { name: 'XTerm', isTerminal: true } });
    expect(combinedReading(passwordInChromium, undefined)).toEqual({ fieldKind: 'password', application: { name: 'Chromium', isTerminal: false } });
    expect(combinedReading({ role: 'terminal', states: [], application: 'tilix-like' }, undefined)).toEqual({
      fieldKind: 'unknown',
      application: { name: 'tilix-like', isTerminal: true },
    });
    expect(combinedReading(undefined, undefined)).toEqual({ fieldKind: 'unknown' });
  });
});

describe('the reader for the platform', () => {
  it('is the one for each OS, and answers unknown elsewhere', async () => {
    const calls: string[] = [];
    const run = fakeRunner({}, calls);
    expect(await createPlatformFocusReader({ platform: 'darwin', run }).focusedField()).toEqual({ fieldKind: 'unknown' });
    expect(await createPlatformFocusReader({ platform: 'win32', run }).focusedField()).toEqual({ fieldKind: 'unknown' });
    expect(calls.map((call) => call.split(' ')[0])).toEqual(['osascript', 'powershell.exe']);
    const other = createPlatformFocusReader({ platform: 'freebsd', run });
    expect(await other.focusedField()).toEqual({ fieldKind: 'unknown' });
    expect(await other.availability()).toMatchObject({ available: false });
  });
});
