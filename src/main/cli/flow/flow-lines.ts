/**
 * What `sightline flow` prints on stderr: a line per step, a line per flow, a summary of the run. Each text is
 * redacted before it is cut to its line (redactedCut): cut first, a key across the cut would keep most of itself.
 */
import { dollarText } from '../../../shared/cost.js';
import { redactedCut, type Redact } from '../../../shared/secret-redaction.js';
import type { FlowResult, FlowRunResult, StepResult } from '../../flows/flow-result.js';

const MARKS: Record<StepResult['status'], string> = { passed: '✓', failed: '✗', stopped: '■', skipped: '-' };

const keepText: Redact = (text) => text;

/** The step's line; `redact` is the run's redactor (the writer's, which also masks the whole line after). */
export function stepLine(step: StepResult, redact: Redact = keepText): string {
  const oneLine = shortLine(redact);
  const text = step.text === undefined ? '' : `: ${oneLine(step.text, 100)}`;
  const time = step.status === 'skipped' ? '' : ` (${seconds(step.durationMs)})`;
  const why = step.status === 'failed' && step.reason !== undefined ? `\n      ${oneLine(step.reason, 300)}${step.evidence.length > 0 ? ` [evidence: ${step.evidence.join(', ')}]` : ''}` : '';
  const value = step.kind === 'extract' && step.status === 'passed' && step.value !== undefined ? ` → ${oneLine(JSON.stringify(step.value) ?? '', 100)}` : '';
  // Allowed to fail (continue_on_error): said as such, so a reader does not take the flow's pass for a fluke.
  const mark = step.status === 'failed' && step.allowed === true ? '!' : MARKS[step.status];
  const allowed = step.status === 'failed' && step.allowed === true ? ' [failed, allowed by continue_on_error]' : '';
  return `  ${mark} ${step.path} ${step.label}${text}${value}${time}${allowed}${replayNote(step, oneLine)}${why}\n`;
}

/** "replayed, 2 model calls saved", "healed: before action 1 (…): …", "model". */
function replayNote(step: StepResult, oneLine: (text: string, most: number) => string): string {
  const replay = step.replay;
  if (replay === undefined || replay.mode === 'model') return '';
  const saved = replay.saved.modelCalls > 0 ? `, ${replay.saved.modelCalls} model call${replay.saved.modelCalls === 1 ? '' : 's'} saved` : '';
  const why = replay.why === undefined ? '' : `: ${oneLine(replay.why, 200)}`;
  return ` [${replay.mode}${replay.reusedAnswer === true ? ' verdict' : ''}${saved}${why}]`;
}

export function flowLine(flow: FlowResult, redact: Redact = keepText): string {
  const oneLine = shortLine(redact);
  const cost = flow.costDollars === undefined ? (flow.costUnknown === true ? ', cost unknown' : '') : `, ${dollarText(flow.costDollars)}${flow.costUnknown === true ? ' + cost unknown' : ''}`;
  // A stopped flow says why too: the run was interrupted, or (queued) its job was cancelled.
  const error = flow.status !== 'passed' && flow.error !== undefined ? `: ${oneLine(flow.error, 300)}` : '';
  const allowedCount = flow.steps.filter((step) => step.allowed === true && step.status === 'failed').length;
  const allowed = allowedCount === 0 ? '' : `, ${allowedCount} step${allowedCount === 1 ? '' : 's'} failed where allowed`;
  return `${flow.status === 'skipped' ? '-' : flow.status === 'passed' ? '✓' : flow.status === 'failed' ? '✗' : '■'} ${flow.name} ${flow.status} in ${seconds(flow.durationMs)}${cost}${allowed}${error}${flow.sessionId === undefined ? '' : ` (session ${flow.sessionId})`}\n`;
}

export function summaryLine(result: FlowRunResult): string {
  const count = (status: FlowResult['status']) => result.flows.filter((flow) => flow.status === status).length;
  const parts = [`${count('passed')} passed`, `${count('failed')} failed`, ...(count('stopped') > 0 ? [`${count('stopped')} stopped`] : []), ...(count('skipped') > 0 ? [`${count('skipped')} not started`] : [])];
  const flows = result.flows.length === 1 ? '1 flow' : `${result.flows.length} flows`;
  return `${flows}: ${parts.join(', ')} (${seconds(result.durationMs)}${result.shard === undefined ? '' : `, shard ${result.shard}`})\n`;
}

/** A text on one line, redacted, then cut to `most` characters. */
function shortLine(redact: Redact): (text: string, most: number) => string {
  return (text, most) => redactedCut(text.replace(/\s+/g, ' ').trim(), most, redact);
}

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(1)} s`;
}
