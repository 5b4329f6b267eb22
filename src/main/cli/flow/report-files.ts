/** What `sightline flow` writes about a whole run besides --out and --junit (../output-files.ts): the HTML report, and the redaction every report goes through. */
import { relative } from 'node:path';
import type { SightlineHome } from '../../config/home.js';
import type { FlowResult, FlowRunResult } from '../../flows/flow-result.js';
import { buildFlowRunReport, ReportTooLargeError } from '../../report/index.js';
import { openStorage, type Storage } from '../../storage/index.js';
import { UserError } from '../io.js';
import { writeOutputFile } from '../output-files.js';
import { packageVersion } from '../package-info.js';

/** Extracted values and reasons come from pages and models: a secret that shows there is masked in the reports too. */
export function redactResult(result: FlowRunResult, redact: (text: string) => string): FlowRunResult {
  return JSON.parse(redact(JSON.stringify(result))) as FlowRunResult;
}

/** The HTML report of the whole run, read from the sessions the flows stored; a report that cannot be made is said, not fatal (false). */
export async function writeFlowRunReport(
  file: string,
  result: FlowRunResult,
  status: FlowResult['status'],
  from: { home: SightlineHome } | { storage: Storage },
  redact: (text: string) => string,
  stderr: (text: string) => void,
): Promise<boolean> {
  // A queued run's sessions are read from the team store's mirror, which the caller opened and closes.
  const storage = 'storage' in from ? from.storage : openStorage(from.home);
  try {
    const report = await buildFlowRunReport(result, status, { storage, redact, sightlineVersion: packageVersion() });
    writeOutputFile('--report', file, report.html);
    stderr(`report: ${relativeOrAbsolute(file)} (${Math.max(1, Math.round(report.bytes / 1024))} KB)\n`);
    return true;
  } catch (error) {
    if (error instanceof ReportTooLargeError || error instanceof UserError) {
      stderr(`sightline: --report: ${error.message}\n`);
      return false;
    }
    throw error;
  } finally {
    if (!('storage' in from)) storage.close();
  }
}

function relativeOrAbsolute(file: string): string {
  const path = relative(process.cwd(), file);
  return path === '' || path.startsWith('..') ? file : path;
}
