/**
 * `sightline flow FILE…`: runs flow files (docs/flows.md). The work is in ../flow/; this file declares the command.
 */
import { Option, type Command } from 'commander';
import { CONFIRMATION_POLICIES } from '../../../shared/config.js';
import { CONTEXT_POLICY_FORMS } from '../../../shared/context-policy.js';
import { DIALECT_NAMES } from '../../../shared/dialects.js';
import type { CliInvocation } from '../io.js';
import { TEAM_OPTION_HELP } from '../team/team-store-options.js';
import { FlowOptionsSchema } from '../flow/flow-options.js';
import { BASE_URL_HELP, jsonHelp, YES_HELP } from '../option-help.js';

export function registerFlowCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('flow')
    .description('run flow files (YAML: steps to do, assert, extract, wait for), or Midscene scripts')
    .argument('<files...>', 'flow files to run, each as one session')
    .option('--check', 'read and check the files (flows, Midscene scripts, batch indexes, their use: sub-flows) without a browser or a model; exit 0 when they would run, 2 with each problem\'s file:line:column')
    .option('--var <name=value>', 'give a variable or parameter of the flows a value (repeat for more)', collect)
    .option('--out <file>', 'write every flow and step, with status, reason, evidence, values, time, cost and session, as JSON')
    .option('--junit <file>', 'write a JUnit XML report: a testsuite per flow, a testcase per step')
    .option('--report <file>', 'write one self-contained HTML report of the whole run, failures first, with each step\'s frames (20 MB at most)')
    .option('--json', jsonHelp('each event as one line on stdout'))
    .option('--concurrency <n>', 'browser flows run side by side, each in its own browser (desktop flows one at a time); default 1')
    .option('--shard <i/n>', "run the i-th of n equal parts of the flows (Playwright's convention, for a CI matrix)")
    .option('--retry <n>', 'run a failed flow again, up to n more times (default 0)')
    .option('--continue-on-error', 'go on after a failed step, as if every step said continue_on_error')
    .option('--replay', "replay each do step from its latest passing run without the model, checking the screen before and after each action; a step whose screen changed is healed by the model")
    .option('--no-heal', 'with --replay: stop at the first step whose screen changed, exit 1, naming the step and the region')
    .option('--model <name>', 'model name, as the endpoint knows it')
    .addOption(new Option('--dialect <name>', `how the model is asked to act: ${DIALECT_NAMES.join(', ')} (default: the model profile's)`))
    .option('--base-url <url>', BASE_URL_HELP)
    .option('--max-steps <count>', 'most steps one flow step may take')
    .option('--max-cost <amount>', 'most each flow may spend: dollars (0.50, $0.50), or tokens ("200000 tokens")')
    .addOption(new Option('--confirm <policy>', `which actions need a person's approval: ${CONFIRMATION_POLICIES.join(', ')}`))
    .option('--context-policy <policy>', `how history is shown to the model: ${CONTEXT_POLICY_FORMS} (default sightline)`)
    .option('--allow-file-urls', 'let the browser open file: URLs (files on this computer), off by default')
    .option('--cdp <url>', "run browser flows in your own running Chrome (started with --remote-debugging-port), each in a new tab; overrides target.cdpEndpoint")
    .option('--allow-remote-cdp', 'let --cdp or target.cdpEndpoint reach a browser on another machine (whoever reaches the port controls that browser)')
    .option('--yes', YES_HELP)
    .option('--queue <url>', 'enqueue the flows on this Redis (redis://HOST:PORT) for sightline worker to run, instead of running them here (default: SIGHTLINE_QUEUE_URL)')
    .option('--wait', 'with --queue: print each flow\'s result as it ends, write --out/--junit/--report, and exit as a local run would')
    .option('--store <url>', `with --queue --report: ${TEAM_OPTION_HELP.store}, where the workers ship the sessions`)
    .option('--blobs <url>', `with --queue --report: ${TEAM_OPTION_HELP.blobs}`)
    .action(async (files: string[], rawOptions: unknown, command: Command) => {
      const options = FlowOptionsSchema.parse(rawOptions);
      const { runFlows } = await import('../flow/run-flows.js');
      await runFlows(invocation, command, files, options);
    });
}

function collect(value: string, earlier: string[] | undefined): string[] {
  return [...(earlier ?? []), value];
}
