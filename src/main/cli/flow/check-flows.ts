/**
 * `sightline flow --check FILE…`: the files read and checked exactly as a run reads them before it starts (the same
 * loader, so the same `file:line:column` messages and exit 2), and nothing else: no configuration, no model, no
 * browser. With --queue (or SIGHTLINE_QUEUE_URL) they are checked as the queue client checks them, the environment's
 * values being a worker's.
 */
import { terminalLine } from '../../../shared/terminal-text.js';
import { EXIT, UserError, type CliInvocation } from '../io.js';
import { queueAddressOf } from '../queue/queue-address.js';
import { readFlows } from './flow-files.js';
import { parseVars, type FlowOptions } from './flow-options.js';

/** Flags that write or wait for a run's results: with --check nothing runs, so they would silently do nothing. */
const RUN_ONLY_FLAGS = [
  ['out', '--out'],
  ['junit', '--junit'],
  ['report', '--report'],
  ['wait', '--wait'],
  ['replay', '--replay'],
] as const;

export function checkFlows(invocation: CliInvocation, files: readonly string[], options: FlowOptions): void {
  const { io } = invocation;
  for (const [key, flag] of RUN_ONLY_FLAGS) {
    if (options[key] !== undefined && options[key] !== false) throw new UserError(`${flag} goes with a run; --check runs nothing. Drop one of them.`, EXIT.usage);
  }
  const vars = parseVars(options.var);
  const elsewhere = queueAddressOf(options.queue, io.env) !== undefined;
  const run = readFlows(files, vars, io.env, io.cwd, elsewhere);
  for (const note of run.notes) io.stderr(`note: ${terminalLine(note)}\n`);
  const flows = run.flows.length === 1 ? '1 flow' : `${run.flows.length} flows`;
  const named = files.length === 1 ? '1 file' : `${files.length} files`;
  io.stderr(`checked ${named}: ${flows}, no problems${elsewhere ? " (variables and secrets by name: a worker's environment gives them)" : ''}\n`);
  invocation.exitCode = EXIT.ok;
}
