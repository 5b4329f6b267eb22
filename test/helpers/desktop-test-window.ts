/**
 * A real window on a private Xvfb for desktop tests: Chromium in app mode (no window manager, no frame) at
 * the display's origin, showing a page with a red button and a blue text field whose state is mirrored in
 * the window's title, so the X server's own record (xdotool getwindowname) shows what happened.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';
import type { RawImage } from '../../src/main/perception/frame.js';
import type { Xvfb } from './xvfb.js';
import { commandExists, hasSystemPackage } from './system-packages.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The system Chromium, or undefined when there is none. */
export const desktopTestBrowser: string | undefined = (() => {
  try {
    return findBrowserExecutable({ env: process.env, platform: process.platform });
  } catch {
    return undefined;
  }
})();

/** Whether this machine can run the desktop tests: Linux with Chromium, Xvfb and xdotool. */
export const canOpenDesktopTestWindow =
  process.platform === 'linux' &&
  hasSystemPackage('chromium', desktopTestBrowser !== undefined) &&
  hasSystemPackage('xvfb', commandExists('Xvfb')) &&
  hasSystemPackage('xdotool', commandExists('xdotool'));

export interface DesktopTestWindow {
  /** The title reads `<prefix> clicks=<n> name=<field text>`. */
  title(): string;
  close(): Promise<void>;
}

export interface DesktopTestWindowOptions {
  xvfb: Xvfb;
  screen: { width: number; height: number };
  titlePrefix: string;
  /** Where the blue field's top edge is, in CSS pixels (the red button is at 600,250, 240×90). */
  fieldTop: number;
  /** A page of the caller's own instead of the button and the field (title() then reads its title). */
  html?: string;
  /** More Chromium switches (`--force-renderer-accessibility` for the AT-SPI tests). */
  extraArguments?: readonly string[];
}

export function openDesktopTestWindow(options: DesktopTestWindowOptions): DesktopTestWindow {
  const { xvfb, screen, titlePrefix } = options;
  const folder = mkdtempSync(join(tmpdir(), 'sightline-desktop-window-'));
  const page = join(folder, 'page.html');
  writeFileSync(page, options.html ?? pageHtml(titlePrefix, options.fieldTop));
  const chromium: ChildProcess = spawn(
    desktopTestBrowser!,
    [
      `--app=${pathToFileURL(page).href}`,
      `--user-data-dir=${join(folder, 'profile')}`,
      '--window-position=0,0',
      `--window-size=${screen.width},${screen.height}`,
      '--force-device-scale-factor=1',
      '--disable-gpu',
      '--no-first-run',
      '--no-default-browser-check',
      '--password-store=basic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
      ...(options.extraArguments ?? []),
    ],
    { env: xvfb.env, stdio: 'ignore' },
  );
  return {
    title: () => {
      const found = spawnSync('xdotool', ['search', '--name', `^${titlePrefix}`], { env: xvfb.env, encoding: 'utf8' });
      const windowId = found.stdout.trim().split('\n')[0];
      if (!windowId) return '';
      return spawnSync('xdotool', ['getwindowname', windowId], { env: xvfb.env, encoding: 'utf8' }).stdout.trim();
    },
    close: async () => {
      await stopChromium(chromium);
      // Chromium's helper processes may still be writing to the profile for a moment after the browser
      // process exits (ENOTEMPTY once failed a whole test file), so the removal retries.
      await rm(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/** How long Chromium gets to shut down on SIGTERM before it is killed. */
const CHROMIUM_SHUTDOWN_MS = 5000;

/** Ends Chromium and resolves once its process has exited (its 'exit' event), not merely been signalled. */
async function stopChromium(chromium: ChildProcess): Promise<void> {
  if (chromium.pid === undefined || chromium.exitCode !== null || chromium.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => chromium.once('exit', () => resolve()));
  chromium.kill('SIGTERM');
  const forceKill = setTimeout(() => chromium.kill('SIGKILL'), CHROMIUM_SHUTDOWN_MS);
  try {
    await exited;
  } finally {
    clearTimeout(forceKill);
  }
}

function pageHtml(titlePrefix: string, fieldTop: number): string {
  return `<!doctype html>
<html><head><title>${titlePrefix} clicks=0 name=</title><style>
  body { margin: 0; background: #fff; }
  button { position: absolute; left: 600px; top: 250px; width: 240px; height: 90px; background: #ff0000; border: 0; }
  input { position: absolute; left: 300px; top: ${fieldTop}px; width: 400px; height: 60px; background: #0000ff; color: #fff;
          border: 0; outline: none; font-size: 24px; }
</style></head><body>
  <button id="press"></button>
  <input id="name" type="text">
<script>
  let clicks = 0;
  const show = () => { document.title = '${titlePrefix} clicks=' + clicks + ' name=' + document.getElementById('name').value; };
  document.getElementById('press').addEventListener('click', () => { clicks += 1; show(); });
  document.getElementById('name').addEventListener('input', show);
</script></body></html>`;
}

/** The bounding box of the pixels of one exact colour (the test page's button is pure red, its field pure blue). */
export function boxOfColour(frame: RawImage, [red, green, blue]: [number, number, number]): Box | undefined {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const index = (y * frame.width + x) * 4;
      if (frame.rgba[index] === red && frame.rgba[index + 1] === green && frame.rgba[index + 2] === blue) {
        minX = Math.min(minX, x);
        minY = Math.min(minY, y);
        maxX = Math.max(maxX, x);
        maxY = Math.max(maxY, y);
      }
    }
  }
  return maxX < 0 ? undefined : { x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1 };
}
