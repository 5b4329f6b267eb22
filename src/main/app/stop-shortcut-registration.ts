/**
 * Registering the emergency stop's global shortcut, with a message a person can act on when it fails.
 * Electron's globalShortcut.register answers false when another application already holds the combination
 * (or the system keeps it, as some desktops do with Ctrl+Alt+Esc), and throws for an accelerator it cannot
 * parse; both end here as one sentence naming the shortcut and the setting that changes it. The registry
 * is typed by shape, so this runs under Node with a fake.
 */
import { describeStopShortcut, stopShortcutInEffect, type StopShortcut } from '../../shared/stop-shortcut.js';

export interface GlobalShortcutRegistry {
  register(accelerator: string, callback: () => void): boolean;
  unregister(accelerator: string): void;
}

export type StopShortcutRegistration =
  | { ok: true; shortcut: StopShortcut; label: string; unregister: () => void }
  | { ok: false; error: string };

export function registerStopShortcut(options: {
  registry: GlobalShortcutRegistry;
  /** agent.stopShortcut from the configuration; the platform's default when absent. */
  configured: string | undefined;
  platform: NodeJS.Platform;
  onStop: () => void;
}): StopShortcutRegistration {
  const parsed = stopShortcutInEffect(options.configured, options.platform);
  if (!parsed.ok) return { ok: false, error: `${parsed.error} (agent.stopShortcut in config.json).` };
  const { shortcut } = parsed;
  const label = describeStopShortcut(shortcut, options.platform);
  let registered: boolean;
  try {
    registered = options.registry.register(shortcut.accelerator, options.onStop);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The stop shortcut ${label} was refused by Electron (${reason}); set agent.stopShortcut in config.json to another combination.` };
  }
  if (!registered) {
    return {
      ok: false,
      error: `The stop shortcut ${label} is already taken by another application or the system; set agent.stopShortcut in config.json to another combination (the tray's Stop Sightline still works).`,
    };
  }
  return { ok: true, shortcut, label, unregister: () => options.registry.unregister(shortcut.accelerator) };
}
