/**
 * The one place that turns configuration into an operator: the desktop (agent.operator = desktop, the
 * default) or a browser page (`--url`, agent.operator = browser).
 */
import type { OperatorKind } from '../../shared/config.js';
import type { StopShortcut } from '../../shared/stop-shortcut.js';
import { BrowserOperator, type BrowserContextSettings, type ConnectTab, type Viewport } from './browser-operator.js';
import type { BrowserUrlScopeSettings } from './browser-url-scope.js';
import { DesktopOperator } from './desktop-operator.js';
import type { Operator, OwnWindowHook } from './operator.js';

export interface CreateOperatorOptions {
  kind: OperatorKind;
  /** Desktop: the display to act on (perception.displayId); the primary one when absent. */
  displayId?: number | undefined;
  /** Desktop: hides the Electron app's window around captures and actions. */
  ownWindow?: OwnWindowHook | undefined;
  /** Desktop: the emergency stop's combination, which the agent's key actions may not press. */
  stopShortcut?: StopShortcut | undefined;
  /** Browser: the page to open first. */
  url?: string | undefined;
  /** Browser: without a window (default true). */
  headless?: boolean | undefined;
  /** Browser: viewport in CSS pixels (default 1280x800). */
  viewport?: Viewport | undefined;
  /** Browser: the page's devicePixelRatio (default 1). */
  deviceScaleFactor?: number | undefined;
  /** Browser: the person's running Chrome to act in over CDP (a new tab of it), instead of launching one. */
  cdp?: CdpTarget | undefined;
  /** Browser: the context's own settings (user agent, certificates, headers, cookies, downloads). */
  browserContext?: BrowserContextSettings | undefined;
  /** Browser: the Chromium or Chrome to drive; else SIGHTLINE_BROWSER_PATH, else the usual places. */
  browserPath?: string | undefined;
  /** Browser: the URLs it may open (agent.allowedUrls, agent.blockedUrls, agent.allowFileUrls). */
  scope?: BrowserUrlScopeSettings | undefined;
  /** Browser: where SIGHTLINE_BROWSER_PATH and the Windows install folders are read (default process.env). */
  env?: Record<string, string | undefined>;
}

/** `--cdp URL`, a flow's target.cdpEndpoint, the SDK's Sightline.connect. */
export interface CdpTarget {
  endpoint: string;
  /** `--allow-remote-cdp`: an endpoint on another machine (cdp-endpoint.ts says why it needs saying). */
  allowRemote?: boolean | undefined;
  tab?: ConnectTab | undefined;
}

export async function createOperator(options: CreateOperatorOptions): Promise<Operator> {
  switch (options.kind) {
    case 'desktop':
      return new DesktopOperator({ displayId: options.displayId, ownWindow: options.ownWindow, stopShortcut: options.stopShortcut });
    case 'browser':
      if (options.cdp !== undefined) {
        return BrowserOperator.connect({ ...options.cdp, url: options.url, scope: options.scope });
      }
      return BrowserOperator.launch({
        url: options.url,
        headless: options.headless,
        viewport: options.viewport,
        deviceScaleFactor: options.deviceScaleFactor,
        executablePath: options.browserPath,
        context: options.browserContext,
        scope: options.scope,
        ...(options.env ? { env: options.env } : {}),
      });
  }
}
