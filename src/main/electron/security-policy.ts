/**
 * The security policy of Sightline's windows, as plain data and pure functions. It imports only types from
 * electron, so it runs (and is tested) under plain Node; window.ts and session.ts apply it.
 *
 * The renderer shows screenshots of the user's desktop and, through the preload bridge, can ask the main
 * process for anything the app API offers. A page that is not ours must never get that bridge, so the
 * window may only ever show the app's own entry page: no navigation elsewhere, no new windows, no webviews,
 * no permissions beyond an explicit allowlist, and a CSP that loads scripts from the app alone.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/** Where the renderer comes from: the built page on disk, or electron-vite's dev server while developing. */
export interface RendererLocation {
  /** The URL the window loads, and the only page allowed to use the app API. */
  entryUrl: string;
  /** Set only under `electron-vite dev`: its origin and HMR websocket join the CSP. */
  devServerUrl: string | null;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Resolves the renderer's location. The dev server URL (ELECTRON_RENDERER_URL, set by `electron-vite dev`)
 * is honoured only in an unpackaged app and only on this machine: an environment variable must not be able
 * to point an installed app, bridge and all, at a remote page.
 */
export function resolveRendererLocation(options: {
  appPath: string;
  isPackaged: boolean;
  devServerUrl: string | undefined;
}): RendererLocation {
  if (!options.isPackaged && options.devServerUrl) {
    const devServer = parseUrl(options.devServerUrl);
    if (!devServer || devServer.protocol !== 'http:' || !LOOPBACK_HOSTS.has(devServer.hostname)) {
      throw new Error(`ELECTRON_RENDERER_URL must be an http:// URL on this machine, got "${options.devServerUrl}".`);
    }
    return { entryUrl: devServer.href, devServerUrl: devServer.href };
  }
  const indexHtml = join(options.appPath, 'out', 'renderer', 'index.html');
  return { entryUrl: pathToFileURL(indexHtml).href, devServerUrl: null };
}

/** The preload script, built as CommonJS because a sandboxed preload cannot be an ES module. */
export function preloadScriptPath(appPath: string): string {
  return join(appPath, 'out', 'preload', 'index.cjs');
}

export function hardenedWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    enableWebSQL: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** Matches --sl-background in the renderer's CSS, so the window never flashes white before it paints. */
export const WINDOW_BACKGROUND_COLOR = '#0f1115';

export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    title: 'Sightline',
    width: 1280,
    height: 820,
    minWidth: 880,
    minHeight: 560,
    // Shown on ready-to-show, once the first paint is done.
    show: false,
    backgroundColor: WINDOW_BACKGROUND_COLOR,
    webPreferences: hardenedWebPreferences(preloadPath),
  };
}

/**
 * The Content-Security-Policy of the renderer. `header` is sent with every response of the app's session;
 * `meta` goes into index.html for the file:// page, where no response headers may exist, and leaves out
 * frame-ancestors, which browsers ignore (with a warning) in a meta tag.
 *
 * Under the dev server, Vite injects React's refresh preamble as an inline script and loads CSS by inserting
 * <style> elements, so the dev policy allows inline scripts and styles; the built app allows neither.
 * No policy ever allows 'unsafe-eval'.
 */
export function contentSecurityPolicy(options: { delivery: 'header' | 'meta'; devServerUrl: string | null }): string {
  const devServer = options.devServerUrl ? parseUrl(options.devServerUrl) : null;
  const devSources = devServer ? [devServer.origin] : [];
  const devInline = devServer ? ["'unsafe-inline'"] : [];
  const devWebSocket = devServer ? [`ws://${devServer.host}`] : [];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...devSources, ...devInline]],
    ['style-src', ["'self'", ...devInline]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    // Audio a model generated plays from a data: URL, like images show from one.
    ['media-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...devSources, ...devWebSocket]],
    ['worker-src', ["'self'"]],
    ['frame-src', ["'none'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  if (options.delivery === 'header') directives.push(['frame-ancestors', ["'none'"]]);
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * Whether a URL is the app's own page. Over http (the dev server) that means the same origin. A file:// page
 * has an opaque origin shared with every other file on disk, so there it means the entry file itself.
 */
export function isAppUrl(candidateUrl: string, entryUrl: string): boolean {
  const candidate = parseUrl(candidateUrl);
  const entry = parseUrl(entryUrl);
  if (!candidate || !entry) return false;
  if (entry.protocol === 'file:') return candidate.protocol === 'file:' && candidate.host === entry.host && candidate.pathname === entry.pathname;
  return candidate.origin === entry.origin;
}

/** The window may navigate only within the app: anything else is refused (links open in the browser instead). */
export function isNavigationAllowed(targetUrl: string, entryUrl: string): boolean {
  return isAppUrl(targetUrl, entryUrl);
}

/** A link the OS browser may open: http and https only, never file:, javascript: or custom schemes. */
export function externalLinkTarget(url: string): string | null {
  const parsed = parseUrl(url);
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return null;
  return parsed.href;
}

/** window.open and target=_blank never create a window; a web link goes to the OS browser instead. */
export function decideWindowOpen(url: string): { action: 'deny'; openExternally: string | null } {
  return { action: 'deny', openExternally: externalLinkTarget(url) };
}

/**
 * Permissions the renderer may be granted. Empty: the timeline needs no camera, microphone, notifications,
 * clipboard reads or anything else a site may ask for. Add one here with the reason it is needed.
 */
export const PERMISSION_ALLOWLIST: ReadonlySet<string> = new Set<string>();

/** A permission is granted only if it is on the allowlist and the app's own page asks for it. */
export function isPermissionGranted(
  permission: string,
  requestingUrl: string | undefined,
  entryUrl: string,
  allowlist: ReadonlySet<string> = PERMISSION_ALLOWLIST,
): boolean {
  return allowlist.has(permission) && requestingUrl !== undefined && isAppUrl(requestingUrl, entryUrl);
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}
