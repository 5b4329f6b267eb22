/**
 * The browser a person would open the timeline in, for the timeline's browser tests: headless Chromium with
 * no background traffic. Not the browser operator's (src/main/operators/browser-launch-arguments.ts): this
 * one shows Sightline's own pages, it does not act on other sites.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.SIGHTLINE_CHROMIUM ?? '/usr/bin/chromium';

export function launchTimelineBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set SIGHTLINE_CHROMIUM)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
