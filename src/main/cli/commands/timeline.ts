/**
 * `sightline timeline [--port N] [--open] [--store URL --blobs URL]`: the timeline UI in a browser, without the desktop
 * app; with --store, the team's sessions (read-only, kept current from the team store). Serves the
 * built renderer and the app API (HTTP + server-sent events) on 127.0.0.1, behind a random token that is
 * part of the printed URL. Runs until Ctrl+C. The work is in ../timeline/serve-timeline.ts, loaded only when
 * the command runs.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { z } from 'zod';
import type { CliInvocation } from '../io.js';
import { TEAM_OPTION_HELP } from '../team/team-store-options.js';

const TimelineOptionsSchema = z.object({
  port: z.number().int().min(0).max(65_535),
  open: z.boolean().optional(),
  store: z.string().optional(),
  blobs: z.string().optional(),
  publicOrigin: z.string().optional(),
});

export function registerTimelineCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('timeline')
    .description('open the timeline UI in a browser: sessions, steps, screenshots, live runs (127.0.0.1 only, with a token)')
    // The default is shown in words: commander would print the 0 it stands for after any text of ours.
    .addOption(new Option('--port <number>', 'port to listen on').argParser(parsePort).default(0, 'a free one'))
    .option('--open', 'open the URL in the default browser')
    .option('--store <url>', `${TEAM_OPTION_HELP.store}; shows the team's sessions, read-only`)
    .option('--blobs <url>', TEAM_OPTION_HELP.blobs)
    .option('--public-origin <origin>', 'also answer at this origin, where a reverse proxy serves it to a team (https://timeline.example.com); still 127.0.0.1 only, still the token')
    .action(async (rawOptions: unknown, command: Command) => {
      const options = TimelineOptionsSchema.parse(rawOptions);
      const { serveTimeline } = await import('../timeline/serve-timeline.js');
      await serveTimeline(invocation, command, options);
    });
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new InvalidArgumentError('expected a port number from 0 to 65535.');
  return port;
}
