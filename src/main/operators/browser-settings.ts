/**
 * The settings of a browser Sightline launches, as plain data: the viewport, the pixel ratio and the context's own
 * settings (a Midscene script's web target). A leaf module, so that the SDK's declarations can name them without
 * reaching the operator, the run assembly or storage.
 */

export interface Viewport {
  width: number;
  height: number;
}

export interface BrowserContextSettings {
  userAgent?: string | undefined;
  /** Accept a certificate the browser would refuse (a local test server's own). */
  acceptInsecureCerts?: boolean | undefined;
  extraHTTPHeaders?: Record<string, string> | undefined;
  /** Set before the first page loads. */
  cookies?: BrowserCookie[] | undefined;
  /** Where the page's downloads are saved; without it, downloads are refused as before. */
  downloadPath?: string | undefined;
}

export interface BrowserCookie {
  name: string;
  value: string;
  domain?: string | undefined;
  path?: string | undefined;
  url?: string | undefined;
  expires?: number | undefined;
  httpOnly?: boolean | undefined;
  secure?: boolean | undefined;
  sameSite?: 'Strict' | 'Lax' | 'None' | undefined;
}

/** What `Sightline.launch({ browser })` and a flow's web target set: the viewport and pixel ratio, and the context's settings. */
export interface BrowserSettings extends BrowserContextSettings {
  viewport?: Viewport | undefined;
  deviceScaleFactor?: number | undefined;
}
