/**
 * Serves a folder read-only (the built renderer, out/renderer; a Midscene script's `serve:` folder): a file under
 * that folder or nothing. Paths are resolved and checked to stay inside it, so `..` and encoded variants cannot
 * reach other files, and so is the file's real path, so a symbolic link inside cannot lead out of it.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  bytes: Buffer;
  contentType: string;
  isHtml: boolean;
}

/** The file for a URL path ('/' is index.html), or undefined when there is none inside `root`. */
export async function readStaticFile(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const rootPath = resolve(root);
  const relative = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^\/+/, '');
  const path = resolve(join(rootPath, relative));
  if (path !== rootPath && !path.startsWith(rootPath + sep)) return undefined;
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isFile()) return undefined;
  const [realRoot, realPath] = await Promise.all([realpath(rootPath).catch(() => undefined), realpath(path).catch(() => undefined)]);
  if (realRoot === undefined || realPath === undefined || !realPath.startsWith(realRoot + sep)) return undefined;
  const extension = extname(path).toLowerCase();
  return {
    bytes: await readFile(path),
    contentType: CONTENT_TYPES[extension] ?? 'application/octet-stream',
    isHtml: extension === '.html',
  };
}
