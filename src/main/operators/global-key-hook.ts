/**
 * A system-wide keyboard hook for the CLI's emergency stop, through uiohook-napi (libuiohook: XRecord on
 * Linux, a low-level hook on Windows, an event tap on macOS). The CLI has no window and so no Electron
 * globalShortcut: this is how a desktop run hears the stop shortcut while another application has focus.
 *
 * libuiohook aborts the whole process (not an exception) when it cannot open the X display, so on Linux the
 * display is probed first and a missing or dead one is an ordinary error. On macOS, without the
 * Accessibility permission start() throws, which is an ordinary error too.
 */
import { createConnection } from 'node:net';

export interface GlobalKeyDown {
  keycode: number;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

export interface GlobalKeyHook {
  /** The hook's key codes by key name (uiohook-napi's UiohookKey: Escape, F12, A, ArrowUp …). */
  keycodes: Readonly<Record<string, number>>;
  onKeyDown(listener: (event: GlobalKeyDown) => void): void;
  /** Throws when the system refuses the hook. */
  start(): void;
  /** Stops the hook and removes the listeners, so nothing keeps the process alive. */
  stop(): void;
}

/** Opens the hook (without starting it); rejects when it cannot work here, with a reason fit for a one-line notice. */
export type GlobalKeyHookLoader = () => Promise<GlobalKeyHook>;

interface UiohookModule {
  uIOhook: {
    on(event: 'keydown', listener: (event: GlobalKeyDown) => void): unknown;
    off(event: 'keydown', listener: (event: GlobalKeyDown) => void): unknown;
    start(): void;
    stop(): void;
  };
  UiohookKey: Readonly<Record<string, number>>;
}

export function uiohookLoader(environment: { platform: NodeJS.Platform; display: string | undefined }): GlobalKeyHookLoader {
  return async () => {
    if (environment.platform === 'linux') await assertXDisplayReachable(environment.display);
    const imported = (await import('uiohook-napi')) as unknown as UiohookModule & { default?: UiohookModule };
    const { uIOhook, UiohookKey } = imported.default ?? imported;
    const listeners: Array<(event: GlobalKeyDown) => void> = [];
    let started = false;
    return {
      keycodes: UiohookKey,
      onKeyDown(listener) {
        listeners.push(listener);
        uIOhook.on('keydown', listener);
      },
      start() {
        uIOhook.start();
        started = true;
      },
      stop() {
        for (const listener of listeners.splice(0)) uIOhook.off('keydown', listener);
        if (started) uIOhook.stop();
        started = false;
      },
    };
  };
}

/** Connects to the X server DISPLAY names (its unix socket, or TCP port 6000+n) and hangs up at once. */
async function assertXDisplayReachable(display: string | undefined): Promise<void> {
  const text = (display ?? '').trim();
  if (text === '') throw new Error('DISPLAY is not set, so there is no X display to listen on');
  const match = /^([^:]*):(\d+)(\.\d+)?$/.exec(text);
  if (match === null) throw new Error(`DISPLAY="${text}" is not a display name the hook can use`);
  const host = match[1] ?? '';
  const number = Number(match[2]);
  const endpoint = host === '' || host === 'unix' ? { path: `/tmp/.X11-unix/X${number}` } : { host, port: 6000 + number };
  await new Promise<void>((resolve, reject) => {
    const socket = createConnection(endpoint);
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', () => reject(new Error(`nothing answers on DISPLAY=${text}`)));
  });
}
