/**
 * `--out FILE.json`: the whole run as JSON, every flow and step with its status, reason, evidence ids, extracted
 * value, duration, cost and session id. Versioned, so a script that reads it can tell a later shape.
 */
import type { FlowRunResult } from './flow-result.js';

export const FLOW_REPORT_VERSION = 1;

export function jsonReport(run: FlowRunResult, status: string): string {
  return `${JSON.stringify({ version: FLOW_REPORT_VERSION, status, ...run }, null, 2)}\n`;
}
