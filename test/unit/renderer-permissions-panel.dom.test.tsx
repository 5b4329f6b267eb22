/**
 * The permissions panel rendered to markup (react-dom/server, no DOM): what it lists, which buttons it offers
 * and how it labels them, and that it stays out of the way when nothing is missing. A permissions event
 * leaves every session's timeline as it was.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { NewTaskForm } from '../../src/renderer/src/components/NewTaskForm.js';
import { PermissionsPanel } from '../../src/renderer/src/components/PermissionsPanel.js';
import type { Permissions } from '../../src/renderer/src/hooks/use-permissions.js';
import { initialTimelineState, timelineReducer } from '../../src/renderer/src/timeline/timeline-state.js';
import type { PermissionCheck, PermissionStatus } from '../../src/shared/permissions.js';

function permissionsOf(status: PermissionStatus | null): Permissions {
  return {
    state: status === null ? { status: 'loading' } : { status: 'ready', permissions: status },
    recheck: vi.fn(),
    openSettings: vi.fn(() => Promise.resolve()),
  };
}

function text(markup: string): string {
  return markup.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&gt;/g, '>').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
}

// As src/main/app/permissions reports them (this file compiles for the renderer, without Node's types).
const SCREEN_RECORDING: PermissionCheck = {
  permission: 'screen-recording',
  label: 'Screen Recording',
  state: 'denied',
  missing: true,
  consequence: 'without it every screenshot is black or shows only the wallpaper, and the agent works blind',
  remedy: 'open System Settings > Privacy & Security > Screen Recording and turn on Sightline, then quit and reopen Sightline',
  settings: 'screen-recording',
};
const ACCESSIBILITY: PermissionCheck = {
  permission: 'accessibility',
  label: 'Accessibility',
  state: 'denied',
  missing: true,
  consequence: 'without it the clicks and keys the agent sends are silently dropped',
  remedy: 'open System Settings > Privacy & Security > Accessibility and turn on Sightline',
  settings: 'accessibility',
};
const MAC_MISSING_BOTH: PermissionStatus = { checked: true, permissions: [SCREEN_RECORDING, ACCESSIBILITY] };
const WAYLAND: PermissionStatus = {
  checked: true,
  permissions: [
    {
      permission: 'x11-display',
      label: 'X11 display',
      state: 'unsupported',
      missing: true,
      consequence: 'DISPLAY is not set: this is a Wayland session without XWayland, and screen capture and input need X11',
      remedy: 'log in to an X11 session, or enable XWayland so that DISPLAY is set',
      settings: null,
    },
  ],
};
const GRANTED: PermissionStatus = {
  checked: true,
  permissions: [
    { ...SCREEN_RECORDING, state: 'granted', missing: false },
    { ...ACCESSIBILITY, state: 'granted', missing: false },
  ],
};
const WINDOWS: PermissionStatus = { checked: true, permissions: [], note: 'Windows asks for no permission to capture the screen or send input.' };

describe('PermissionsPanel', () => {
  it('lists each missing permission with what breaks, what to do, and a labelled button to its pane', () => {
    const markup = renderToStaticMarkup(<PermissionsPanel permissions={permissionsOf(MAC_MISSING_BOTH)} canOpenSettings />);
    expect(text(markup)).toContain('Sightline needs 2 more permissions');
    expect(text(markup)).toContain(
      'Screen Recording Without it every screenshot is black or shows only the wallpaper, and the agent works blind. ' +
        'To fix: open System Settings > Privacy & Security > Screen Recording and turn on Sightline, then quit and reopen Sightline.',
    );
    expect(markup).toMatch(/<section class="permissions-panel" aria-labelledby="permissions-panel-title"><div[^>]*><h2 id="permissions-panel-title"/);
    const buttons = [...markup.matchAll(/<button ([^>]*)>([^<]*)<\/button>/g)].map(([, attributes, label]) => [label, attributes]);
    expect(buttons.map(([label]) => label)).toEqual(['Check again', 'Open Screen Recording settings', 'Open Accessibility settings']);
    expect(buttons[1]?.[1]).toContain('aria-describedby="permission-screen-recording-remedy"');
    expect(markup).toContain('id="permission-screen-recording-remedy"');
    for (const [, attributes] of buttons) expect(attributes).toContain('type="button"');
  });

  it('offers no pane where none can be opened (a browser tab), only what to do', () => {
    const markup = renderToStaticMarkup(<PermissionsPanel permissions={permissionsOf(MAC_MISSING_BOTH)} canOpenSettings={false} />);
    expect(markup).not.toContain('settings</button>');
    expect(text(markup)).toContain('To fix: open System Settings > Privacy & Security > Accessibility and turn on Sightline.');
  });

  it('says that capture needs X11 under Wayland, with no pane to open', () => {
    const markup = renderToStaticMarkup(<PermissionsPanel permissions={permissionsOf(WAYLAND)} canOpenSettings />);
    expect(text(markup)).toMatch(/^Sightline needs one more permission Check again .* X11 display /);
    expect(text(markup)).toContain('screen capture and input need X11');
    expect(markup).not.toContain('settings</button>');
  });

  it('shows nothing while loading, or when nothing is missing', () => {
    for (const status of [null, GRANTED, WINDOWS]) {
      expect(renderToStaticMarkup(<PermissionsPanel permissions={permissionsOf(status)} canOpenSettings />)).toBe('');
    }
  });
});

describe('the task form in the timeline served to a browser (no banner there)', () => {
  const noop = () => undefined;
  const NO_DISPLAY: PermissionStatus = {
    checked: true,
    permissions: [{ ...WAYLAND.permissions[0]!, consequence: 'DISPLAY is not set: there is no X display to capture or send input to', remedy: 'run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99' }],
  };

  it('says once, under the operator, what the desktop lacks when a task would run there', () => {
    const markup = renderToStaticMarkup(<NewTaskForm onStarted={noop} onCancel={noop} desktopRequirements={permissionsOf({ ...NO_DISPLAY, desktopByDefault: true })} />);
    expect(text(markup)).toContain('Desktop tasks cannot run here: DISPLAY is not set: there is no X display to capture or send input to; to fix: run under a desktop session, or start Xvfb: Xvfb :99 & export DISPLAY=:99.');
    expect(markup).toContain('aria-describedby="operator-note"');
    expect(markup.match(/id="operator-note"/g)).toHaveLength(1);
    expect(text(markup)).not.toContain('permission');
  });

  it('says nothing when tasks run in the browser by default, nothing is missing, or the app shows its banner', () => {
    for (const requirements of [permissionsOf({ ...NO_DISPLAY, desktopByDefault: false }), permissionsOf({ ...GRANTED, desktopByDefault: true }), permissionsOf(null), undefined]) {
      expect(renderToStaticMarkup(<NewTaskForm onStarted={noop} onCancel={noop} desktopRequirements={requirements} />)).not.toContain('operator-note');
    }
  });
});

describe('a permissions event and the timeline', () => {
  it('leaves the session state untouched', () => {
    const state = initialTimelineState('ses_000000000001');
    expect(timelineReducer(state, { type: 'event', event: { type: 'permissions', at: 1, status: MAC_MISSING_BOTH } })).toBe(state);
  });
});
