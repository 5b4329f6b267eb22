import { describe, expect, it } from 'vitest';
import { findBrowserExecutable } from '../../src/main/operators/browser-executable.js';

function existing(...paths: string[]): (path: string) => boolean {
  return (path) => paths.includes(path);
}

describe('findBrowserExecutable', () => {
  it('prefers SIGHTLINE_BROWSER_PATH, and an explicit path over it', () => {
    const exists = existing('/opt/chrome/chrome', '/usr/bin/chromium', '/custom/chromium');
    const env = { SIGHTLINE_BROWSER_PATH: '/opt/chrome/chrome' };
    expect(findBrowserExecutable({ env, platform: 'linux', exists })).toBe('/opt/chrome/chrome');
    expect(findBrowserExecutable({ env, platform: 'linux', exists }, '/custom/chromium')).toBe('/custom/chromium');
  });

  it('says so when the configured browser is missing, rather than taking another', () => {
    const exists = existing('/usr/bin/chromium');
    expect(() => findBrowserExecutable({ env: { SIGHTLINE_BROWSER_PATH: '/nope/chrome' }, platform: 'linux', exists })).toThrow(
      'no browser at /nope/chrome (SIGHTLINE_BROWSER_PATH): point it at a Chromium or Chrome executable',
    );
  });

  it('looks in the usual places of each system, in order', () => {
    expect(findBrowserExecutable({ env: {}, platform: 'linux', exists: existing('/usr/bin/google-chrome', '/usr/bin/chromium-browser') })).toBe(
      '/usr/bin/chromium-browser',
    );
    expect(
      findBrowserExecutable({ env: {}, platform: 'darwin', exists: existing('/Applications/Chromium.app/Contents/MacOS/Chromium') }),
    ).toBe('/Applications/Chromium.app/Contents/MacOS/Chromium');
    const windowsChrome = 'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe';
    expect(findBrowserExecutable({ env: { PROGRAMFILES: 'C:\\Program Files' }, platform: 'win32', exists: existing(windowsChrome) })).toBe(windowsChrome);
  });

  it('names what it looked for and how to fix it when there is no browser', () => {
    expect(() => findBrowserExecutable({ env: {}, platform: 'linux', exists: existing() })).toThrow(
      /^no Chromium or Chrome found \(looked for \/usr\/bin\/chromium, .*\)\. Install one .* or set SIGHTLINE_BROWSER_PATH/,
    );
  });
});
