/**
 * The emergency stop, wired to Electron: the global shortcut, the tray (menu-bar) item and the indicator
 * window all stop every running turn through RunManager.stopAll, the path the timeline's Stop takes for
 * one run (the turn ends as stopped, its steps kept, the current action finishing or abandoned). What the
 * tray offers and when the indicator shows are decided in src/main/app (stop-menu.ts, run-activity.ts,
 * stop-indicator-model.ts); this file only turns them into Electron objects.
 */
import { globalShortcut, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron';
import type { AppService } from '../api/app-service.js';
import { RunActivity } from '../app/run-activity.js';
import { stopMenuModel, type StopMenuAction, type StopMenuModel } from '../app/stop-menu.js';
import { indicatorConcealment, StopIndicatorModel } from '../app/stop-indicator-model.js';
import { registerStopShortcut } from '../app/stop-shortcut-registration.js';
import type { OwnWindowHook } from '../operators/operator.js';
import { openStopIndicatorWindow, type StopIndicatorWindow } from './stop-indicator-window.js';
import { TRAY_ICON_DATA_URL } from './tray-icon.js';

export const EMERGENCY_STOP_REASON = 'Stopped with the emergency stop';

export interface EmergencyStopOptions {
  service: Pick<AppService, 'runs' | 'events'>;
  /** agent.stopShortcut; the platform's default when absent. */
  configuredShortcut: string | undefined;
  platform: NodeJS.Platform;
  indicator: { pageUrl: string; preloadPath: string };
  showMainWindow: () => void;
  quit: () => void;
}

export interface EmergencyStop {
  /** Why the global shortcut is not available, or null when it is registered. */
  shortcutProblem: string | null;
  /** Keeps the indicator out of the agent's captures and actions. */
  ownWindow: OwnWindowHook;
  /** Stops every run now (what each of the three triggers does); answers how many were asked to stop. */
  stopEverything(): number;
  dispose(): void;
}

export function installEmergencyStop(options: EmergencyStopOptions): EmergencyStop {
  const { service, platform } = options;
  const stopEverything = (): number => service.runs.stopAll(EMERGENCY_STOP_REASON);
  const registration = registerStopShortcut({ registry: globalShortcut, configured: options.configuredShortcut, platform, onStop: stopEverything });
  const shortcutLabel = registration.ok ? registration.label : null;
  const shortcutProblem = registration.ok ? null : registration.error;
  if (shortcutProblem !== null) console.error(`Sightline: ${shortcutProblem}`);

  const activity = new RunActivity(service.events);
  const model = new StopIndicatorModel(indicatorConcealment(platform), shortcutLabel);
  const indicator: StopIndicatorWindow = openStopIndicatorWindow({ model, ...options.indicator, onStop: stopEverything });

  const tray = new Tray(nativeImage.createFromDataURL(TRAY_ICON_DATA_URL));
  const menuActions: Record<StopMenuAction, () => void> = {
    stop: () => void stopEverything(),
    show: options.showMainWindow,
    quit: options.quit,
  };
  const showMenu = (menu: StopMenuModel): void => {
    tray.setToolTip(menu.tooltip);
    tray.setContextMenu(Menu.buildFromTemplate(menuTemplate(menu, menuActions)));
  };
  const follow = (snapshot = activity.snapshot()): void => {
    showMenu(stopMenuModel({ activity: snapshot, shortcut: shortcutLabel, shortcutProblem }));
    indicator.present(model.follow(snapshot));
  };
  follow();
  const stopFollowing = activity.onChange(follow);

  return {
    shortcutProblem,
    ownWindow: indicator.ownWindow,
    stopEverything,
    dispose() {
      stopFollowing();
      activity.dispose();
      if (registration.ok) registration.unregister();
      indicator.close();
      tray.destroy();
    },
  };
}

function menuTemplate(menu: StopMenuModel, actions: Record<StopMenuAction, () => void>): MenuItemConstructorOptions[] {
  return menu.items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'note':
        return { label: item.label, enabled: false };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: actions[item.action] };
    }
  });
}
