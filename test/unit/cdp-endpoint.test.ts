/**
 * The one check of a CDP endpoint (src/main/operators/cdp-endpoint.ts): loopback by default, a remote endpoint
 * only when the run allows it, and no message that holds the endpoint's path, query or credentials.
 */
import { describe, expect, it } from 'vitest';
import { checkCdpEndpoint, withoutEndpoint } from '../../src/main/operators/cdp-endpoint.js';

describe('checkCdpEndpoint', () => {
  it.each([
    'http://127.0.0.1:9222',
    'http://localhost:9222',
    'ws://127.0.0.1:9222/devtools/browser/4f7c',
    'http://[::1]:9222',
    'http://127.1.2.3:9222',
    'https://localhost:9222/',
  ])('takes %s as on this machine', (text) => {
    const checked = checkCdpEndpoint(text);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.endpoint.loopback).toBe(true);
  });

  it.each(['http://192.168.1.20:9222', 'ws://browsers.example.net/devtools/browser/1', 'http://0.0.0.0:9222', 'http://[::ffff:c0a8:114]:9222', 'http://127.0.0.1.example.net:9222'])(
    'refuses %s as remote, saying why and how to allow it',
    (text) => {
      const checked = checkCdpEndpoint(text);
      expect(checked.ok).toBe(false);
      if (!checked.ok) {
        expect(checked.problem).toContain('is not on this machine');
        expect(checked.problem).toContain('controls');
        expect(checked.problem).toContain('--allow-remote-cdp');
      }
      expect(checkCdpEndpoint(text, { allowRemote: true }).ok).toBe(true);
    },
  );

  it.each([
    ['', 'empty'],
    ['127.0.0.1:9222', 'expected an http://'],
    ['ftp://127.0.0.1:9222', 'expected an http://'],
    ['chrome', 'expected an http://'],
    [42, 'expected string'],
  ])('refuses %j', (text, problem) => {
    const checked = checkCdpEndpoint(text);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.problem).toContain(problem);
  });

  it('never shows the path, query or credentials of an endpoint', () => {
    const remote = checkCdpEndpoint('wss://user:pass@browsers.example.net/devtools/browser/abc?token=s3cr3t');
    expect(remote.ok).toBe(false);
    if (!remote.ok) {
      expect(remote.problem).toContain('wss://browsers.example.net/…');
      expect(remote.problem).not.toMatch(/s3cr3t|user:pass|browser\/abc/);
    }
    const local = checkCdpEndpoint('ws://127.0.0.1:9222/devtools/browser/0b5e-id?token=s3cr3t');
    expect(local.ok).toBe(true);
    if (!local.ok) return;
    expect(local.endpoint.shown).toBe('ws://127.0.0.1:9222/…');
    const message = withoutEndpoint(`connect failed for ${local.endpoint.url}; retrying ws://127.0.0.1:9222/devtools/page/77?token=other`, local.endpoint);
    expect(message).not.toMatch(/s3cr3t|0b5e|other|\/77/);
    expect(message).toContain('ws://127.0.0.1:9222/…');
  });
});
