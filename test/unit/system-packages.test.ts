/**
 * The one check of a system package a test needs (test/helpers/system-packages.ts): a developer without the
 * package gets a skip and one line naming it; CI, which installs every package, gets a failure instead.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasSystemPackage } from '../helpers/system-packages.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('hasSystemPackage', () => {
  it('says nothing when the package is there', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(hasSystemPackage('redis-server', true)).toBe(true);
    expect(warn).not.toHaveBeenCalled();
  });

  it('skips without CI, naming the package once however many tests ask', () => {
    vi.stubEnv('CI', '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(hasSystemPackage('fake-package-a', false)).toBe(false);
    expect(hasSystemPackage('fake-package-a', false)).toBe(false);
    expect(warn.mock.calls).toEqual([['skipped: needs the system package fake-package-a (not installed; see docs/development.md)']]);
  });

  it('fails under CI=true, naming the package and where CI installs it', () => {
    vi.stubEnv('CI', 'true');
    expect(() => hasSystemPackage('fake-package-b', false)).toThrow(/needs the system package fake-package-b, which is not installed; CI must install it \(\.ci\/run/);
  });
});
