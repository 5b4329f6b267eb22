import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type OperatorKind } from '../../src/shared/config.js';
import { homeAt } from '../../src/main/config/home.js';
import { checkBrowser } from '../../src/main/cli/doctor/browser.js';
import type { DoctorEnvironment } from '../../src/main/cli/doctor/check.js';
import { judgeFreeSpace } from '../../src/main/cli/doctor/disk-space.js';
import { formatDoctorReport } from '../../src/main/cli/doctor/report.js';

const MEBIBYTE = 1024 ** 2;

describe('judgeFreeSpace', () => {
  it.each([
    [100 * MEBIBYTE, 'problem'],
    [199 * MEBIBYTE, 'problem'],
    [200 * MEBIBYTE, 'warning'],
    [1023 * MEBIBYTE, 'warning'],
    [1024 * MEBIBYTE, 'ok'],
    [50 * 1024 * MEBIBYTE, 'ok'],
  ])('%d bytes free is %s', (bytes, status) => {
    expect(judgeFreeSpace(bytes, '/data').status).toBe(status);
  });

  it('says how much is free, and where, with a fix when short', () => {
    expect(judgeFreeSpace(150 * MEBIBYTE, '/data')).toEqual({
      name: 'disk',
      status: 'problem',
      detail: '150 MiB free at /data',
      fix: 'free some space on the disk holding /data, or choose a home on another disk with --home',
    });
    expect(judgeFreeSpace(2.5 * 1024 * MEBIBYTE, '/data').detail).toBe('2.5 GiB free at /data');
  });
});

describe('formatDoctorReport', () => {
  it('aligns status, name and detail, and puts fixes under the checks that need them', () => {
    const text = formatDoctorReport([
      { name: 'home', status: 'ok', detail: '/h is writable' },
      { name: 'display', status: 'problem', detail: 'DISPLAY is not set', fix: 'start Xvfb' },
      { name: 'tavily key', status: 'warning', detail: 'web_search disabled; set TAVILY_API_KEY' },
    ]);
    expect(text).toBe(
      [
        'ok       home        /h is writable',
        'problem  display     DISPLAY is not set',
        '         fix: start Xvfb',
        'warning  tavily key  web_search disabled; set TAVILY_API_KEY',
        '',
        '1 problem, 1 warning.',
        '',
      ].join('\n'),
    );
  });

  it('puts what the run would be set up with between the checks and the summary', () => {
    expect(formatDoctorReport([{ name: 'home', status: 'ok', detail: 'fine' }], ['dialect: ui-tars (why)', '  coordinates:   pixels'])).toBe(
      'ok  home  fine\n\ndialect: ui-tars (why)\n  coordinates:   pixels\n\nAll checks passed.\n',
    );
  });

  it('says when everything passed', () => {
    expect(formatDoctorReport([{ name: 'home', status: 'ok', detail: 'fine' }])).toBe('ok  home  fine\n\nAll checks passed.\n');
  });
});

describe('checkBrowser', () => {
  function environment(env: Record<string, string>, operator: OperatorKind = 'desktop'): DoctorEnvironment {
    const config = { ...DEFAULT_CONFIG, agent: { ...DEFAULT_CONFIG.agent, operator } };
    return { home: homeAt('/h'), config, sources: {}, env, platform: 'linux' };
  }
  const onlyAt = (present: string) => (path: string) => path === present;

  it('names the browser it finds in the usual places', () => {
    expect(checkBrowser(environment({}), onlyAt('/usr/bin/google-chrome'))).toEqual({
      name: 'browser',
      status: 'ok',
      detail: '/usr/bin/google-chrome, for --operator browser',
    });
  });

  it('takes SIGHTLINE_BROWSER_PATH first, and says so', () => {
    expect(checkBrowser(environment({ SIGHTLINE_BROWSER_PATH: '/opt/chrome' }), onlyAt('/opt/chrome'))).toMatchObject({
      status: 'ok',
      detail: '/opt/chrome (from SIGHTLINE_BROWSER_PATH)',
    });
  });

  it('warns when none is found and the desktop operator is the default, with how to get one', () => {
    const result = checkBrowser(environment({}), () => false);
    expect(result.status).toBe('warning');
    expect(result.detail).toMatch(/^no Chromium or Chrome found \(looked for \/usr\/bin\/chromium, .*\); --operator browser cannot run$/);
    expect(result.fix).toBe('install one (e.g. apt-get install chromium) or set SIGHTLINE_BROWSER_PATH to its executable');
  });

  it('is a problem when agent.operator is browser', () => {
    const result = checkBrowser(environment({ SIGHTLINE_BROWSER_PATH: '/nope/chrome' }, 'browser'), () => false);
    expect(result).toEqual({
      name: 'browser',
      status: 'problem',
      detail: 'no browser at /nope/chrome (SIGHTLINE_BROWSER_PATH); agent.operator is browser, so runs cannot start',
      fix: 'point SIGHTLINE_BROWSER_PATH at a Chromium or Chrome executable',
    });
  });
});
