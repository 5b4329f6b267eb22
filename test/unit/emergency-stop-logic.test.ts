/**
 * The emergency stop's plain-Node logic: the shortcut's grammar per platform and its refusal in
 * config.json, registering it with a message that says what to do, which runs are under way, the tray
 * menu and the indicator in each state, the indicator's words, and the desktop operator refusing to press
 * the combination itself.
 */
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/shared/config.js';
import { defaultStopAccelerator, describeStopShortcut, parseStopShortcut, type StopShortcut } from '../../src/shared/stop-shortcut.js';
import { registerStopShortcut, type GlobalShortcutRegistry } from '../../src/main/app/stop-shortcut-registration.js';
import { chromiumFeaturesFor } from '../../src/main/app/chromium-features.js';
import { phaseOf, RunActivity } from '../../src/main/app/run-activity.js';
import { EventBus } from '../../src/main/app/event-bus.js';
import { stopMenuModel } from '../../src/main/app/stop-menu.js';
import { indicatorConcealment, StopIndicatorModel } from '../../src/main/app/stop-indicator-model.js';
import { indicatorText } from '../../src/renderer/src/stop-indicator/indicator-text.js';
import { stopCombinationChord, stopCombinationRefusal } from '../../src/main/operators/stop-combination-guard.js';
import { DesktopOperator } from '../../src/main/operators/desktop-operator.js';
import { DesktopFrameSource, type MonitorLike } from '../../src/main/operators/desktop-frame-source.js';
import type { InputDriver } from '../../src/main/operators/action-performer.js';
import type { ModelView } from '../../src/shared/model-view.js';
import { loadConfig } from '../../src/main/config/load.js';
import { createTemporaryHome } from '../helpers/seed.js';
import { uiohookLoader } from '../../src/main/operators/global-key-hook.js';
import { unusedDisplay } from '../helpers/xvfb.js';

function parsed(text: string, platform: NodeJS.Platform = 'linux'): StopShortcut {
  const result = parseStopShortcut(text, platform);
  if (!result.ok) throw new Error(result.error);
  return result.shortcut;
}

describe('the stop shortcut', () => {
  it('is Ctrl+Alt+Esc on Windows and Linux and Cmd+Shift+Esc on macOS', () => {
    expect(defaultStopAccelerator('linux')).toBe('Control+Alt+Escape');
    expect(defaultStopAccelerator('win32')).toBe('Control+Alt+Escape');
    expect(defaultStopAccelerator('darwin')).toBe('Command+Shift+Escape');
    expect(describeStopShortcut(parsed('Control+Alt+Escape'), 'linux')).toBe('Ctrl+Alt+Esc');
    expect(describeStopShortcut(parsed('Command+Shift+Escape', 'darwin'), 'darwin')).toBe('Cmd+Shift+Esc');
  });

  it('reads Electron accelerators in any case, CommandOrControl per platform', () => {
    expect(parsed('ctrl+alt+esc')).toMatchObject({ accelerator: 'ctrl+alt+esc', key: 'Escape', modifiers: new Set(['control', 'alt']) });
    expect(parsed('CmdOrCtrl+Shift+F12', 'darwin').modifiers).toEqual(new Set(['super', 'shift']));
    expect(parsed('CmdOrCtrl+Shift+F12', 'win32').modifiers).toEqual(new Set(['control', 'shift']));
    expect(parsed('Super+Plus').key).toBe('Plus');
    expect(parsed('Alt+q').key).toBe('Q');
  });

  it('refuses what Electron would refuse, and a combination that would take a key from every application', () => {
    const error = (text: string) => {
      const result = parseStopShortcut(text, 'linux');
      return result.ok ? undefined : result.error;
    };
    expect(error('Control+Foo')).toContain('"Foo" is not a key or modifier Electron knows');
    expect(error('Control+A+B')).toContain('it names two keys (A and B)');
    expect(error('Control+Alt')).toContain('it names only modifiers');
    expect(error('Control++')).toContain('write Plus for the + key');
    expect(error('Escape')).toContain('needs Control, Alt or Command');
    expect(error('Shift+Escape')).toContain('needs Control, Alt or Command');
    // Names of Object.prototype's members are no keys.
    expect(error('Control+constructor')).toContain('"constructor" is not a key or modifier Electron knows');
    expect(error('Control+toString')).toContain('"toString" is not a key or modifier Electron knows');
  });

  it('is refused in config.json by its path, with the reason', () => {
    const result = ConfigSchema.safeParse({ agent: { stopShortcut: 'Control+Foo' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['agent', 'stopShortcut'], message: expect.stringContaining('"Foo" is not a key') });
    expect(ConfigSchema.parse({}).agent.stopShortcut).toBeUndefined();
  });

  it('comes from SIGHTLINE_AGENT_STOP_SHORTCUT as from config.json', () => {
    const home = createTemporaryHome('sightline-stop-shortcut');
    try {
      const loaded = loadConfig({ home, env: { SIGHTLINE_AGENT_STOP_SHORTCUT: 'Control+Alt+F12' } });
      expect(loaded.config.agent.stopShortcut).toBe('Control+Alt+F12');
      expect(() => loadConfig({ home, env: { SIGHTLINE_AGENT_STOP_SHORTCUT: 'F12' } })).toThrow(/agent\.stopShortcut.*needs Control, Alt or Command/s);
    } finally {
      home.remove();
    }
  });
});

describe('registering the stop shortcut', () => {
  const registry = (answer: () => boolean): GlobalShortcutRegistry & { registered: string[] } => {
    const registered: string[] = [];
    return {
      registered,
      register(accelerator) {
        const ok = answer();
        if (ok) registered.push(accelerator);
        return ok;
      },
      unregister(accelerator) {
        registered.splice(registered.indexOf(accelerator), 1);
      },
    };
  };

  it('registers the platform default and unregisters it', () => {
    const held = registry(() => true);
    const result = registerStopShortcut({ registry: held, configured: undefined, platform: 'darwin', onStop: () => undefined });
    expect(result).toMatchObject({ ok: true, label: 'Cmd+Shift+Esc' });
    expect(held.registered).toEqual(['Command+Shift+Escape']);
    if (result.ok) result.unregister();
    expect(held.registered).toEqual([]);
  });

  it('says what to do when the combination is taken or refused', () => {
    const taken = registerStopShortcut({ registry: registry(() => false), configured: 'Control+Alt+F9', platform: 'linux', onStop: () => undefined });
    expect(taken).toEqual({
      ok: false,
      error: 'The stop shortcut Ctrl+Alt+F9 is already taken by another application or the system; set agent.stopShortcut in config.json to another combination (the tray\'s Stop Sightline still works).',
    });
    const thrown = registerStopShortcut({
      registry: registry(() => {
        throw new Error('bad accelerator');
      }),
      configured: undefined,
      platform: 'linux',
      onStop: () => undefined,
    });
    expect(thrown).toMatchObject({ ok: false, error: expect.stringContaining('Ctrl+Alt+Esc was refused by Electron (bad accelerator)') });
  });
});

describe('the stop shortcut under Wayland', () => {
  it('asks Chromium for the desktop portal in a Wayland session on Linux, and nowhere else', () => {
    const portal = ['GlobalShortcutsPortal'];
    expect(chromiumFeaturesFor('linux', { XDG_SESSION_TYPE: 'wayland', DISPLAY: ':0' })).toEqual(portal);
    expect(chromiumFeaturesFor('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual(portal);
    expect(chromiumFeaturesFor('linux', { XDG_SESSION_TYPE: 'x11', DISPLAY: ':0' })).toEqual([]);
    expect(chromiumFeaturesFor('linux', {})).toEqual([]);
    expect(chromiumFeaturesFor('darwin', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual([]);
    expect(chromiumFeaturesFor('win32', { XDG_SESSION_TYPE: 'wayland' })).toEqual([]);
  });
});

describe('which runs are under way', () => {
  it('acts while any run acts, pauses when all left are paused, stops when all are stopping', () => {
    expect(phaseOf([])).toBe('idle');
    expect(phaseOf(['paused', 'running', 'stopping'])).toBe('acting');
    expect(phaseOf(['paused', 'stopping'])).toBe('paused');
    expect(phaseOf(['stopping', 'stopping'])).toBe('stopping');
  });

  it('follows the run manager’s run-state events and reports each change once', () => {
    const events = new EventBus();
    const activity = new RunActivity(events);
    const seen: unknown[] = [];
    activity.onChange((snapshot) => seen.push(snapshot));
    const state = (sessionId: string, value: 'running' | 'paused' | 'stopping' | 'ended') => events.publish({ type: 'run-state', sessionId, at: 1, state: value });
    state('ses_000000000001', 'running');
    state('ses_000000000001', 'running');
    state('ses_000000000002', 'paused');
    state('ses_000000000001', 'ended');
    state('ses_000000000002', 'stopping');
    state('ses_000000000002', 'ended');
    expect(seen).toEqual([
      { phase: 'acting', runs: 1 },
      { phase: 'acting', runs: 2 },
      { phase: 'paused', runs: 1 },
      { phase: 'stopping', runs: 1 },
      { phase: 'idle', runs: 0 },
    ]);
    activity.dispose();
    expect(events.subscriberCount).toBe(0);
  });
});

describe('the tray menu', () => {
  it('offers Stop first, enabled while a run exists, with the shortcut or why it is missing', () => {
    const idle = stopMenuModel({ activity: { phase: 'idle', runs: 0 }, shortcut: 'Ctrl+Alt+Esc', shortcutProblem: null });
    expect(idle.tooltip).toBe('Sightline');
    expect(idle.items).toEqual([
      { kind: 'action', action: 'stop', label: 'Stop Sightline', enabled: false },
      { kind: 'note', label: 'Stop shortcut: Ctrl+Alt+Esc' },
      { kind: 'separator' },
      { kind: 'action', action: 'show', label: 'Show Sightline', enabled: true },
      { kind: 'action', action: 'quit', label: 'Quit Sightline', enabled: true },
    ]);
    const acting = stopMenuModel({ activity: { phase: 'acting', runs: 2 }, shortcut: null, shortcutProblem: 'The stop shortcut is taken.' });
    expect(acting.tooltip).toBe('Sightline is acting');
    expect(acting.items.slice(0, 2)).toEqual([
      { kind: 'action', action: 'stop', label: 'Stop Sightline', enabled: true },
      { kind: 'note', label: 'The stop shortcut is taken.' },
    ]);
  });
});

describe('the indicator', () => {
  it('hides for the agent where content protection does not exist, and lets clicks through where it does', () => {
    expect(indicatorConcealment('linux')).toBe('hide');
    expect(indicatorConcealment('darwin')).toBe('click-through');
    expect(indicatorConcealment('win32')).toBe('click-through');
  });

  it('is on screen while a run exists, and stays hidden after an action when the runs ended meanwhile', () => {
    const model = new StopIndicatorModel('hide', 'Ctrl+Alt+Esc');
    expect(model.presentation()).toEqual({ state: { phase: 'idle', runs: 0, shortcut: 'Ctrl+Alt+Esc' }, visible: false, clickThrough: false });
    expect(model.follow({ phase: 'acting', runs: 1 })).toMatchObject({ visible: true, clickThrough: false });
    expect(model.conceal()).toMatchObject({ visible: false, clickThrough: false });
    expect(model.follow({ phase: 'idle', runs: 0 })).toMatchObject({ visible: false });
    expect(model.reveal()).toMatchObject({ visible: false });

    const protectedModel = new StopIndicatorModel('click-through', null);
    protectedModel.follow({ phase: 'acting', runs: 1 });
    expect(protectedModel.conceal()).toMatchObject({ visible: true, clickThrough: true });
    expect(protectedModel.reveal()).toMatchObject({ visible: true, clickThrough: false });
  });

  it('says what the agent is doing and offers Stop until it is stopping', () => {
    expect(indicatorText({ phase: 'acting', runs: 1, shortcut: 'Ctrl+Alt+Esc' })).toEqual({ status: 'Sightline is acting', shortcut: 'or press Ctrl+Alt+Esc', button: 'Stop', buttonEnabled: true });
    expect(indicatorText({ phase: 'paused', runs: 2, shortcut: null })).toEqual({ status: 'Sightline is paused (2 tasks)', shortcut: '', button: 'Stop', buttonEnabled: true });
    expect(indicatorText({ phase: 'stopping', runs: 1, shortcut: 'Ctrl+Alt+Esc' })).toMatchObject({ status: 'Stopping…', buttonEnabled: false });
  });
});

describe('the agent and the stop combination', () => {
  const stop = parsed('Control+Alt+Escape');
  const chord = stopCombinationChord(stop);

  it('refuses a key action that presses it, in any spelling or order, and nothing else', () => {
    expect(chord?.map((key) => key.nut)).toEqual(['LeftControl', 'LeftAlt', 'Escape']);
    const refusal = (keys: string, action: 'key' | 'hold_key' = 'key') =>
      stopCombinationRefusal(action === 'key' ? { action, keys } : { action, keys, seconds: 1 }, chord, 'Ctrl+Alt+Esc');
    expect(refusal('ctrl+alt+Escape')).toContain('Ctrl+Alt+Esc is the emergency stop');
    expect(refusal('alt+control+esc')).toBeDefined();
    expect(refusal('Return ctrl+alt+Escape')).toBeDefined();
    expect(refusal('ctrl+alt+Escape', 'hold_key')).toBeDefined();
    expect(refusal('Escape')).toBeUndefined();
    expect(refusal('ctrl+alt+shift+Escape')).toBeUndefined();
    expect(refusal('ctrl+alt+Delete')).toBeUndefined();
    expect(stopCombinationRefusal({ action: 'type', text: 'ctrl+alt+Escape' }, chord, 'Ctrl+Alt+Esc')).toBeUndefined();
  });

  it('is never pressed by the desktop operator: nothing reaches the input', async () => {
    const pressed: string[] = [];
    const input = {
      pressChord: async (keys: { nut: string }[]) => void pressed.push(keys.map((key) => key.nut).join('+')),
      holdChord: async (keys: { nut: string }[], during: () => Promise<unknown>) => {
        pressed.push(`hold ${keys.map((key) => key.nut).join('+')}`);
        return during();
      },
      releaseHeldButtons: async () => undefined,
    } as unknown as InputDriver;
    const monitor = {
      id: () => 1,
      name: () => 'primary',
      x: () => 0,
      y: () => 0,
      width: () => 64,
      height: () => 40,
      scaleFactor: () => 1,
      isPrimary: () => true,
      captureImage: async () => ({ width: 64, height: 40, toRaw: async () => Buffer.alloc(64 * 40 * 4) }),
    } as unknown as MonitorLike;
    const operator = new DesktopOperator({
      frameSource: new DesktopFrameSource({ listMonitors: () => [monitor] }),
      input,
      sleep: async () => undefined,
      stopShortcut: stop,
    });
    const view: ModelView = { frameWidth: 64, frameHeight: 40, imageWidth: 64, imageHeight: 40, coordinateSpace: 'pixels' };
    await operator.capture();
    const refused = await operator.execute({ action: 'key', keys: 'ctrl+alt+Escape' }, view);
    expect(refused.ok).toBe(false);
    expect(refused).toMatchObject({ error: expect.stringMatching(/emergency stop .*Nothing was done\.$/) });
    expect(await operator.execute({ action: 'hold_key', keys: 'ctrl+alt+Escape', seconds: 1 }, view)).toMatchObject({ ok: false });
    expect(await operator.execute({ action: 'key', keys: 'ctrl+alt+t' }, view)).toMatchObject({ ok: true });
    expect(pressed).toEqual(['LeftControl+LeftAlt+T']);
  });
});

describe('the CLI’s global input hook', () => {
  // libuiohook aborts the process when it cannot open the display: the loader must refuse before loading it.
  it('refuses a missing or dead X display on Linux with a reason, before the hook is loaded', async () => {
    await expect(uiohookLoader({ platform: 'linux', display: undefined })()).rejects.toThrow('DISPLAY is not set, so there is no X display to listen on');
    await expect(uiohookLoader({ platform: 'linux', display: 'not a display' })()).rejects.toThrow('DISPLAY="not a display" is not a display name the hook can use');
    const dead = unusedDisplay();
    await expect(uiohookLoader({ platform: 'linux', display: dead })()).rejects.toThrow(`nothing answers on DISPLAY=${dead}`);
  });
});
