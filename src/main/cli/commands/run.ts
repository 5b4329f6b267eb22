/**
 * `sightline run "<task>"`: the agent, headless. The work is in ../run/; this file declares the command.
 * The agent, the model client and the browser driver are loaded only when `run` runs, so other commands
 * (`sessions ls`, `doctor`) start without them.
 */
import { Option, type Command } from 'commander';
import { CONFIRMATION_POLICIES, OPERATOR_KINDS } from '../../../shared/config.js';
import { CONTEXT_POLICY_FORMS } from '../../../shared/context-policy.js';
import { DIALECT_NAMES } from '../../../shared/dialects.js';
import { EPHEMERAL_CONTEXT_TYPES } from '../../../shared/ephemeral.js';
import { MAX_PICTURE_BYTES, PICTURE_FORMAT_NAMES } from '../../../shared/pictures.js';
import type { CliInvocation } from '../io.js';
import { RunOptionsSchema } from '../run/run-options.js';
import { BASE_URL_HELP, jsonHelp, YES_HELP } from '../option-help.js';

export function registerRunCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('run')
    .description('carry out a task on the desktop or in a browser page, headless')
    .argument('<task>', 'what to do, in plain words (quote it)')
    .addOption(new Option('--operator <kind>', `what to act on: ${OPERATOR_KINDS.join(' or ')}`))
    .option('--url <url>', 'page the browser operator opens first (needs --operator browser)')
    .option('--cdp <url>', 'act in your own running Chrome (started with --remote-debugging-port), in a new tab, instead of launching a browser; e.g. http://127.0.0.1:9222')
    .option('--allow-remote-cdp', 'let --cdp reach a browser on another machine (whoever reaches the port controls that browser)')
    .option('--allow-file-urls', 'let the browser operator open file: URLs (files on this computer), off by default')
    .option('--model <name>', 'model name, as the endpoint knows it')
    .addOption(new Option('--dialect <name>', `how the model is asked to act: ${DIALECT_NAMES.join(', ')} (default: the model profile's)`))
    .option('--base-url <url>', BASE_URL_HELP)
    .option('--max-steps <count>', 'most steps the turn may take')
    .option('--max-cost <amount>', 'most the turn may spend: dollars (0.50, $0.50), or tokens ("200000 tokens")')
    .addOption(new Option('--confirm <policy>', `which actions need a person's approval: ${CONFIRMATION_POLICIES.join(', ')}`))
    .option('--context-policy <policy>', `how history is shown to the model: ${CONTEXT_POLICY_FORMS} (default sightline)`)
    .option('--yes', YES_HELP)
    .option('--session <id>', 'continue this session (its earlier turns are the model\'s memory)')
    .option('--image <file>', `a picture for the model with this request (${PICTURE_FORMAT_NAMES}, at most ${MAX_PICTURE_BYTES / 1024 / 1024} MB; repeat for more)`, collectImages)
    .option('--context-file <file>', 'text sent to the model with this run\'s requests only, never stored')
    .addOption(new Option('--context-type <type>', `what the context file is: ${EPHEMERAL_CONTEXT_TYPES.join(', ')} (default note)`))
    .option('--json', jsonHelp('each event as one line on stdout'))
    .option('--stream', 'with --json, include the model\'s streamed text')
    .action(async (task: string, rawOptions: unknown, command: Command) => {
      const options = RunOptionsSchema.parse(rawOptions);
      const { runTask } = await import('../run/run-task.js');
      await runTask(invocation, command, task, options);
    });
}

/** --image may be given several times: each adds a picture, in order. */
function collectImages(file: string, earlier: string[] | undefined): string[] {
  return [...(earlier ?? []), file];
}
