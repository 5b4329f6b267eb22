/** Path helpers for checks that must look at a home folder that may not exist yet. */
import { statSync } from 'node:fs';
import { dirname } from 'node:path';

/** The path itself if it exists, else its closest existing ancestor; whether that is a folder. */
export function nearestExistingFolder(path: string): { path: string; isFolder: boolean } | undefined {
  let current = path;
  for (;;) {
    try {
      return { path: current, isFolder: statSync(current).isDirectory() };
    } catch {
      const parent = dirname(current);
      if (parent === current) return undefined;
      current = parent;
    }
  }
}
