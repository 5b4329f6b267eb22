/**
 * Where Sightline keeps its data. One folder holds everything, so that backing it up, moving it or
 * pointing a test at a temporary one is a single setting: `--home`, else `SIGHTLINE_HOME`, else
 * `~/.sightline`.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

export interface SightlineHome {
  root: string;
  databaseFile: string;
  blobsDirectory: string;
  coldStorageDirectory: string;
  configFile: string;
}

export interface HomeSources {
  /** The `--home` flag, if given. */
  flag?: string | undefined;
  env: Record<string, string | undefined>;
  /** Relative paths are taken from here. */
  cwd: string;
}

export function resolveHome(sources: HomeSources): SightlineHome {
  const chosen = sources.flag ?? nonEmpty(sources.env.SIGHTLINE_HOME) ?? join(homedir(), '.sightline');
  const root = isAbsolute(chosen) ? chosen : resolve(sources.cwd, chosen);
  return homeAt(root);
}

export function homeAt(root: string): SightlineHome {
  return {
    root,
    databaseFile: join(root, 'sightline.db'),
    blobsDirectory: join(root, 'blobs'),
    coldStorageDirectory: join(root, 'cold-storage'),
    configFile: join(root, 'config.json'),
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
