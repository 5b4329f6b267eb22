/**
 * The tray (menu-bar) menu as plain data, so what it offers in each state is decided and tested under
 * Node; src/main/electron/ turns it into Electron's Menu. Stop is the first item, where a hurried hand goes.
 */
import type { RunActivitySnapshot } from './run-activity.js';

export type StopMenuAction = 'stop' | 'show' | 'quit';

export type StopMenuItem =
  | { kind: 'action'; action: StopMenuAction; label: string; enabled: boolean }
  | { kind: 'note'; label: string }
  | { kind: 'separator' };

export interface StopMenuModel {
  tooltip: string;
  items: StopMenuItem[];
}

export interface StopMenuContext {
  activity: RunActivitySnapshot;
  /** The stop shortcut as a person reads it, or null when it could not be registered. */
  shortcut: string | null;
  /** Why the shortcut is missing, shown in the menu so the person learns it where they look for Stop. */
  shortcutProblem: string | null;
}

export function stopMenuModel({ activity, shortcut, shortcutProblem }: StopMenuContext): StopMenuModel {
  const items: StopMenuItem[] = [{ kind: 'action', action: 'stop', label: 'Stop Sightline', enabled: activity.runs > 0 }];
  if (shortcut !== null) items.push({ kind: 'note', label: `Stop shortcut: ${shortcut}` });
  if (shortcutProblem !== null) items.push({ kind: 'note', label: shortcutProblem });
  items.push({ kind: 'separator' }, { kind: 'action', action: 'show', label: 'Show Sightline', enabled: true }, { kind: 'action', action: 'quit', label: 'Quit Sightline', enabled: true });
  return { tooltip: tooltipOf(activity), items };
}

function tooltipOf(activity: RunActivitySnapshot): string {
  switch (activity.phase) {
    case 'idle':
      return 'Sightline';
    case 'acting':
      return 'Sightline is acting';
    case 'paused':
      return 'Sightline is paused';
    case 'stopping':
      return 'Sightline is stopping';
  }
}
