/**
 * The browser operator's Chromium profile: a fresh folder for each launch, removed at close, whose only
 * setting is Chrome's "Preload pages" turned off (`net.network_prediction_options` = 2, never predict).
 *
 * Why: a page can ask Chromium to fetch or prerender a document it links to (speculation rules, `<script
 * type="speculationrules">` or a Speculation-Rules header). Chromium's prefetch service makes those requests
 * from the browser process, where neither Playwright's routes (the navigation guard) nor its request events see
 * them, and activating a prerendered page commits it without any request at all: a page in scope could have an
 * out-of-scope host asked for a document, and shown, past agent.allowedUrls and agent.blockedUrls.
 *
 * Why this preference and not a switch or DevTools (tried on Chromium 156, the e2e test holds it):
 * - `--disable-features=Prerender2` and `--disable-blink-features=SpeculationRules` change nothing: the
 *   prefetch and the prerender are made all the same. (Playwright passes a `--disable-features` list of its
 *   own, which a second one would override: Chromium keeps the last value of a repeated switch.)
 * - A PreloadingConfig holdback (`--enable-features=PreloadingConfig:preloading_config/…`) is taken, as
 *   DevTools' Preload domain reports, but the prefetch is made all the same; `Page.setPrerenderingAllowed`
 *   with false leaves the request made too.
 * - With the preference off, DevTools reports `disabledByPreference` and neither a prefetch nor a prerender
 *   starts. It is a profile preference, so the profile must exist before the browser starts: hence
 *   launchPersistentContext on a folder made here, rather than launch() on Playwright's own temporary one.
 * `<link rel=prefetch>` is not covered by the preference; it is a request the guard sees (browser-navigation-guard.ts).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Chrome's NetworkPredictionOptions: 0 always, 1 on Wi-Fi only (obsolete), 2 never.
const NETWORK_PREDICTION_NEVER = 2;

export interface BrowserProfile {
  /** The user data folder to launch Chromium with. */
  readonly folder: string;
  /** Deletes the folder; call once the browser has exited. */
  remove(): Promise<void>;
}

export async function createBrowserProfile(parent: string = tmpdir()): Promise<BrowserProfile> {
  // mkdtemp makes the folder 0700: the profile holds the session's cookies and cache.
  const folder = await mkdtemp(join(parent, 'sightline-browser-'));
  try {
    await mkdir(join(folder, 'Default'));
    await writeFile(join(folder, 'Default', 'Preferences'), JSON.stringify({ net: { network_prediction_options: NETWORK_PREDICTION_NEVER } }), { mode: 0o600 });
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return { folder, remove: () => rm(folder, { recursive: true, force: true, maxRetries: 3 }) };
}
