/** The files `sightline flow` writes (--out, --junit): checked before anything runs, written whole or not at all. */
import { mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { FlowRunResult } from '../../flows/flow-result.js';
import { EXIT, UserError } from '../io.js';

/** A report's path, checked before anything runs: its folder must exist (it is not made) and it must not be a folder. */
export function outputFile(flag: string, file: string | undefined, cwd: string): string | undefined {
  if (file === undefined) return undefined;
  const path = resolve(cwd, file);
  const folder = dirname(path);
  if (!isFolder(folder)) throw new UserError(`${flag}: the folder ${folder} does not exist.`, EXIT.usage);
  if (isFolder(path)) throw new UserError(`${flag}: ${path} is a folder; give a file name.`, EXIT.usage);
  return path;
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Written whole or not at all: a temporary file beside it, then renamed over it. */
export function writeReport(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode: 0o600 });
  renameSync(temporary, path);
}

/** Extracted values and reasons come from pages and models: a secret that shows there is masked in the reports too. */
export function redactResult(result: FlowRunResult, redact: (text: string) => string): FlowRunResult {
  return JSON.parse(redact(JSON.stringify(result))) as FlowRunResult;
}
