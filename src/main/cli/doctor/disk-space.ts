/** Free space on the disk that holds the home: screenshots accumulate, and SQLite fails badly when full. */
import { statfsSync } from 'node:fs';
import type { DoctorCheckResult, DoctorEnvironment } from './check.js';
import { nearestExistingFolder } from './paths.js';

const MEBIBYTE = 1024 ** 2;
const GIBIBYTE = 1024 ** 3;
export const LOW_DISK_WARNING_BYTES = GIBIBYTE;
export const LOW_DISK_PROBLEM_BYTES = 200 * MEBIBYTE;

export function checkDiskSpace(environment: DoctorEnvironment): DoctorCheckResult {
  const folder = nearestExistingFolder(environment.home.root)?.path;
  if (folder === undefined) {
    return { name: 'disk', status: 'problem', detail: `cannot find a disk for ${environment.home.root}`, fix: 'choose another folder with --home' };
  }
  const stats = statfsSync(folder);
  return judgeFreeSpace(stats.bavail * stats.bsize, folder);
}

/** The thresholds, apart from the file system so that they can be tested. */
export function judgeFreeSpace(freeBytes: number, folder: string): DoctorCheckResult {
  const detail = `${formatBytes(freeBytes)} free at ${folder}`;
  const fix = `free some space on the disk holding ${folder}, or choose a home on another disk with --home`;
  if (freeBytes < LOW_DISK_PROBLEM_BYTES) return { name: 'disk', status: 'problem', detail, fix };
  if (freeBytes < LOW_DISK_WARNING_BYTES) return { name: 'disk', status: 'warning', detail: `${detail} (less than 1 GiB)`, fix };
  return { name: 'disk', status: 'ok', detail };
}

export function formatBytes(bytes: number): string {
  if (bytes >= GIBIBYTE) return `${(bytes / GIBIBYTE).toFixed(1)} GiB`;
  return `${Math.floor(bytes / MEBIBYTE)} MiB`;
}
