/** The Sightline package this code belongs to: its folders (from here up) and its version. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Sightline's version, from the package.json this code belongs to. */
export function packageVersion(): string {
  for (const root of packageRoots()) {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    if (manifest.name === 'sightline' && typeof manifest.version === 'string') return manifest.version;
  }
  return '0.0.0';
}

/** Every folder with a package.json from this file up, nearest first. */
export function packageRoots(): string[] {
  const roots: string[] = [];
  let folder = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(folder, 'package.json'))) roots.push(folder);
    const parent = dirname(folder);
    if (parent === folder) return roots;
    folder = parent;
  }
}
