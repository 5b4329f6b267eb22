/**
 * The page takes the timeline's token from the URL `sightline timeline` printed once (issue 33, finding 13): kept in
 * the tab's sessionStorage, taken out of the address bar so it is not left in history or a copied address, and read
 * back on a reload. API calls send it as `Authorization: Bearer`, never in their URL.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addressWithoutToken, connectOverHttp, type TokenKeeper } from '../../src/renderer/src/api/token-exchange.js';

const TOKEN = 'A'.repeat(20) + '_-0123456789abcdefghijk';

function keeper(options: { refuse?: boolean } = {}): TokenKeeper & { kept: string | null; addresses: string[] } {
  const state = {
    kept: null as string | null,
    addresses: [] as string[],
    recall: () => state.kept,
    keep: (token: string) => {
      if (options.refuse === true) return false;
      state.kept = token;
      return true;
    },
    replaceAddress: (url: string) => state.addresses.push(url),
  };
  return state;
}

const fetched: Array<{ url: string; headers: Record<string, string> }> = [];

beforeEach(() => {
  vi.stubGlobal('fetch', async (url: string, init: { headers: Record<string, string> }) => {
    fetched.push({ url, headers: init.headers });
    return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetched.splice(0);
});

describe('the token exchange', () => {
  it('moves the token from the fragment to the tab, strips it from the address, and sends it as a header', async () => {
    const kept = keeper();
    const client = connectOverHttp({ origin: 'http://127.0.0.1:4123', pathname: '/', search: '', hash: `#token=${TOKEN}` }, kept);
    expect(client).not.toBeNull();
    expect(kept.kept).toBe(TOKEN);
    expect(kept.addresses).toEqual(['/']);
    await client!.listSessions({ limit: 5 });
    expect(fetched).toEqual([{ url: 'http://127.0.0.1:4123/api/listSessions', headers: expect.objectContaining({ Authorization: `Bearer ${TOKEN}` }) }]);
    expect(fetched[0]!.url).not.toContain(TOKEN);
  });

  it('finds the kept token on a reload, when the address no longer holds it', () => {
    const kept = keeper();
    kept.kept = TOKEN;
    expect(connectOverHttp({ origin: 'http://127.0.0.1:4123', pathname: '/', search: '', hash: '' }, kept)).not.toBeNull();
    expect(kept.addresses).toEqual([]);
  });

  it('leaves the address alone when the tab cannot keep the token, so a reload still works', () => {
    const kept = keeper({ refuse: true });
    expect(connectOverHttp({ origin: 'http://127.0.0.1:4123', pathname: '/', search: '', hash: `#token=${TOKEN}` }, kept)).not.toBeNull();
    expect(kept.addresses).toEqual([]);
  });

  it('takes the token out of a query or fragment and keeps everything else', () => {
    expect(addressWithoutToken({ pathname: '/', search: `?token=${TOKEN}&session=ses_1`, hash: '' })).toBe('/?session=ses_1');
    expect(addressWithoutToken({ pathname: '/x', search: '', hash: `#token=${TOKEN}&step=3` })).toBe('/x#step=3');
    expect(addressWithoutToken({ pathname: '/', search: '', hash: `#token=${TOKEN}` })).toBe('/');
  });

  it('is a plain preview without any token', () => {
    expect(connectOverHttp({ origin: 'http://127.0.0.1:4123', pathname: '/', search: '', hash: '#token=short' }, keeper())).toBeNull();
  });
});
