/**
 * A `sightline flow` run refused before anything started (exit 2: a bad flow file, a bad flag or setting found
 * once the files were named) still writes the --junit, --out and --report the person asked for, so that CI shows
 * a failure where it would otherwise find no results: one flow per refused file, failed with no steps and no
 * session, carrying its `file:line:column` problems; a refusal that is no file's (a flag) is every file's.
 */
import { resolve } from 'node:path';
import type { SightlineHome } from '../../config/home.js';
import type { FlowResult, FlowRunResult } from '../../flows/flow-result.js';
import { jsonReport } from '../../flows/json-report.js';
import { workingPath } from '../../flows/junit-report.js';
import { UserError } from '../io.js';
import { writeOutputFile } from '../output-files.js';
import { FlowFilesRefused } from './flow-files.js';
import { writeJunitFile } from './junit-files.js';
import { redactResult, writeFlowRunReport } from './report-files.js';

export interface AskedOutputs {
  out: string | undefined;
  junit: string | undefined;
  report: string | undefined;
}

export function refusedRun(files: readonly string[], cwd: string, error: UserError, started: number): FlowRunResult {
  const startedAt = new Date(started).toISOString();
  const refused = (file: string, problems: string[], error: string): FlowResult => ({
    name: workingPath(cwd, file),
    file,
    status: 'failed',
    sessionId: undefined,
    attempts: 0,
    earlierSessions: [],
    startedAt,
    durationMs: 0,
    costDollars: undefined,
    error,
    steps: [],
    refused: problems,
  });
  const flows: FlowResult[] = [];
  if (error instanceof FlowFilesRefused) {
    const byFile = new Map<string, string[]>();
    for (const problem of error.problems) {
      const lines = byFile.get(problem.file) ?? [];
      lines.push(`${workingPath(cwd, problem.file)}:${problem.line}:${problem.column}: ${problem.message}`);
      byFile.set(problem.file, lines);
    }
    for (const [file, problems] of byFile) {
      flows.push(refused(file, problems, `the flow file has ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}; nothing was run`));
    }
  } else {
    for (const file of files) flows.push(refused(resolve(cwd, file), [error.message], `refused before anything ran: ${error.message}`));
  }
  return { startedAt, durationMs: Date.now() - started, shard: undefined, flows };
}

/** Writes what was asked for; a file that cannot be written is said on stderr, and the refusal stands. */
export async function writeRefusedOutputs(
  outputs: AskedOutputs,
  result: FlowRunResult,
  options: { cwd: string; home: SightlineHome; redact: (text: string) => string; stderr: (text: string) => void },
): Promise<void> {
  const said = (error: unknown): void => options.stderr(`sightline: ${error instanceof Error ? error.message : String(error)}\n`);
  const redacted = redactResult(result, options.redact);
  try {
    if (outputs.out !== undefined) writeOutputFile('--out', outputs.out, jsonReport(redacted, 'refused'));
    const reported = outputs.report !== undefined && (await writeFlowRunReport(outputs.report, redacted, 'failed', { home: options.home }, options.redact, options.stderr));
    if (outputs.junit !== undefined) await writeJunitFile(outputs.junit, redacted, { cwd: options.cwd, ...(reported && outputs.report !== undefined ? { reportFile: outputs.report } : {}), stderr: options.stderr });
  } catch (error) {
    if (error instanceof UserError) said(error);
    else throw error;
  }
}
