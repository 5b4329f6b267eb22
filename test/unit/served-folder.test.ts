/**
 * Midscene's `serve:` (issue 35): the folder is served read-only on loopback, and nothing outside it can be read,
 * whatever the request path says: `..` raw or encoded, a backslash, a doubled slash, an absolute path, a symbolic
 * link inside that points out, a method that would write.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveFolder, type ServedFolder } from '../../src/main/flows/served-folder.js';

let root: string;
let served: ServedFolder;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'sightline-served-'));
  const site = join(root, 'site');
  mkdirSync(join(site, 'pages'), { recursive: true });
  writeFileSync(join(site, 'index.html'), '<h1>home</h1>');
  writeFileSync(join(site, 'pages', 'cart.html'), '<h1>cart</h1>');
  writeFileSync(join(root, 'secret.txt'), 'TOP-SECRET');
  symlinkSync(join(root, 'secret.txt'), join(site, 'link.txt'));
  symlinkSync(root, join(site, 'up'));
  served = await serveFolder(site);
});

afterEach(async () => {
  await served.close();
  rmSync(root, { recursive: true, force: true });
});

/** A request with the path exactly as written (fetch would normalise `..` away before sending). */
function raw(path: string, method = 'GET'): Promise<{ status: number; body: string }> {
  const { port } = new URL(served.origin);
  return new Promise((resolve, reject) => {
    const call = request({ host: '127.0.0.1', port: Number(port), path, method }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end();
  });
}

describe('serveFolder', () => {
  it('serves the files of the folder on loopback, / as index.html', async () => {
    expect(served.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await raw('/')).toEqual({ status: 200, body: '<h1>home</h1>' });
    expect(await raw('/pages/cart.html?x=1')).toEqual({ status: 200, body: '<h1>cart</h1>' });
    expect(served.urlOf('pages/cart.html')).toBe(`${served.origin}/pages/cart.html`);
    expect(served.urlOf('//evil.example/x')).toBe(`${served.origin}/evil.example/x`);
  });

  it('reads nothing outside the folder', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/pages/..%2f..%2fsecret.txt',
      '/..\\secret.txt',
      '/%2e%2e%5csecret.txt',
      `/${join(root, 'secret.txt')}`,
      `//${join(root, 'secret.txt')}`,
      '/link.txt',
      '/up/secret.txt',
      '/%00index.html',
      '/pages',
    ];
    for (const path of attempts) {
      const answer = await raw(path);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).not.toContain('TOP-SECRET');
    }
  });

  it('is read-only, and gone once closed', async () => {
    for (const method of ['PUT', 'POST', 'DELETE']) expect((await raw('/index.html', method)).status, method).toBe(405);
    await served.close();
    await expect(raw('/')).rejects.toThrow();
    served = await serveFolder(join(root, 'site'));
  });
});
