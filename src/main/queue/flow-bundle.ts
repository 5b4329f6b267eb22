/**
 * A flow file and its sub-flows as text, for a machine that cannot read the client's files, and back into files
 * on that machine. Paths are relative to the folder that holds them all, so `use: ../shared/login.flow.yaml`
 * resolves on the worker as it did on the client.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Flow } from '../flows/flow-model.js';
import { flowsUsed } from '../flows/flow-runner.js';
import type { FlowJob } from './flow-job.js';

export interface FlowBundle {
  entry: string;
  files: { path: string; text: string }[];
}

export function bundleFlow(flow: Flow): FlowBundle {
  const files = flowsUsed(flow).map((used) => used.file);
  const base = commonFolder(files.map((file) => dirname(file)));
  const relativeTo = (file: string) => relative(base, file).split(sep).join('/');
  return {
    entry: relativeTo(flow.file),
    files: files.map((file) => ({ path: relativeTo(file), text: readFileSync(file, 'utf8') })),
  };
}

/** Writes the job's files under `folder` (which must be private to this run) and returns the entry's path there. */
export function writeFlowBundle(job: Pick<FlowJob, 'entry' | 'files'>, folder: string): string {
  const root = resolve(folder);
  for (const file of job.files) {
    const path = resolve(root, ...file.path.split('/'));
    // The schema refuses `..` and absolute paths; this is the check that matters should it ever change.
    const inside = relative(root, path);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) throw new Error(`the job's file ${JSON.stringify(file.path)} would be written outside its folder`);
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, file.text, { mode: 0o600 });
  }
  return join(root, ...job.entry.split('/'));
}

function commonFolder(folders: readonly string[]): string {
  const [first, ...rest] = folders.map((folder) => resolve(folder).split(sep));
  if (first === undefined) return resolve('.');
  let length = first.length;
  for (const parts of rest) {
    let same = 0;
    while (same < Math.min(length, parts.length) && parts[same] === first[same]) same += 1;
    length = same;
  }
  return first.slice(0, length).join(sep) || sep;
}
