/**
 * `sightline replay SESSION`: replays a recorded session's turns on the present screen (docs/flows.md, "Replay").
 * The work is in ../replay/; this file declares the command.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import type { CliInvocation } from '../io.js';
import { BASE_URL_HELP, YES_HELP } from '../option-help.js';

const ReplayOptionsSchema = z.object({
  heal: z.boolean().optional(),
  url: z.string().optional(),
  model: z.string().optional(),
  baseUrl: z.string().optional(),
  yes: z.boolean().optional(),
});

export function registerReplayCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('replay')
    .description("replay a recorded session's turns on the present screen without the model, checking the screen before and after each action; a turn whose screen changed is healed by the model")
    .argument('<session>', 'the recorded session, with or without its ses_ prefix')
    .option('--url <url>', 'the page to replay a browser session on')
    .option('--no-heal', 'stop at the first turn whose screen changed, exit 1, naming the turn and the region')
    .option('--model <name>', 'the model that heals, as the endpoint knows it')
    .option('--base-url <url>', BASE_URL_HELP)
    .option('--yes', YES_HELP)
    .action(async (session: string, rawOptions: unknown, command: Command) => {
      const options = ReplayOptionsSchema.parse(rawOptions);
      const { replaySession } = await import('../replay/replay-session.js');
      await replaySession(invocation, command, session, options);
    });
}
