import { describe, expect, it } from 'vitest';
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

  it('says when everything passed', () => {
    expect(formatDoctorReport([{ name: 'home', status: 'ok', detail: 'fine' }])).toBe('ok  home  fine\n\nAll checks passed.\n');
  });
});
