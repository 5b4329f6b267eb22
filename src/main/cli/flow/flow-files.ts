/** The flow files of a `sightline flow` command line: read, checked, and put in one order on every machine. */
import { relative, resolve } from 'node:path';
import { FlowFileError, loadFlowRun, type FlowFileProblem, type FlowRun } from '../../flows/flow-file.js';
import type { Flow } from '../../flows/flow-model.js';
import { parseShard, shardOf } from '../../flows/shards.js';
import { flowUrlScopeProblems } from '../../flows/flow-url-scope.js';
import type { BrowserUrlScopeSettings } from '../../operators/browser-url-scope.js';
import { EXIT, UserError } from '../io.js';

/** Every file read and checked (a batch index's scripts in its place); all their problems in one usage error. */
export function readFlows(
  files: readonly string[],
  vars: Record<string, string>,
  env: Record<string, string | undefined>,
  cwd: string,
  environmentElsewhere = false,
): FlowRun {
  try {
    return loadFlowRun(
      files.map((file) => resolve(cwd, file)),
      // A plain copy: the process's environment is an exotic object that a record schema does not take.
      { vars, env: { ...env }, environmentElsewhere },
    );
  } catch (error) {
    if (error instanceof FlowFileError) throw new FlowFilesRefused(error.problems, `the flow files have problems; nothing was run:\n${error.message}`);
    throw error;
  }
}

/** A literal URL outside the browser's scope, refused as a problem of its file (this machine's configuration's scope). */
export function refuseOutOfScopeUrls(flows: readonly Flow[], scope: BrowserUrlScopeSettings): void {
  const problems = flowUrlScopeProblems(flows, scope);
  if (problems.length === 0) return;
  throw new FlowFilesRefused(problems, `the flow files have problems; nothing was run:\n${new FlowFileError(problems).message}`);
}

/** The flow files were refused (exit 2); the problems are kept, so that the reports can name each one. */
export class FlowFilesRefused extends UserError {
  constructor(
    readonly problems: readonly FlowFileProblem[],
    message: string,
  ) {
    super(message, EXIT.usage);
  }
}

/**
 * One order on every machine (paths from the working folder), then this machine's shard of it. A batch index's
 * order is kept: Midscene runs its scripts in the order `files:` gives, which is the same on every machine.
 */
export function orderedFlows(run: FlowRun, cwd: string, shard: string | undefined): Flow[] {
  const { flows } = run;
  const ordered = run.batch !== undefined ? [...flows] : [...flows].sort((first, second) => compare(relative(cwd, first.file), relative(cwd, second.file)));
  const parsed = shard === undefined ? undefined : parseShard(shard);
  return parsed === undefined ? ordered : shardOf(ordered, parsed);
}

function compare(first: string, second: string): number {
  return first < second ? -1 : first > second ? 1 : 0;
}
