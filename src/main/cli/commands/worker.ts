/** `sightline worker --queue URL`: runs queued flows (docs/teams.md). The work is in ../queue/; this file declares the command. */
import { Option, type Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { WorkerOptionsSchema } from '../queue/worker-options.js';
import { TEAM_OPTION_HELP } from '../team/team-store-options.js';

export function registerWorkerCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('worker')
    .description('run flows others enqueue with sightline flow --queue, until stopped')
    .option('--queue <url>', 'the Redis that holds the queue: redis://HOST:PORT (default: SIGHTLINE_QUEUE_URL)')
    .option('--store <url>', `${TEAM_OPTION_HELP.store}: ship every run there as it goes`)
    .option('--blobs <url>', TEAM_OPTION_HELP.blobs)
    .option('--concurrency <n>', 'browser flows run side by side, each in its own browser; default 1')
    .addOption(new Option('--operator <kind>', 'desktop: this machine has a desktop, so it runs desktop flows too (one at a time); default browser').choices(['browser', 'desktop']))
    .action(async (rawOptions: unknown, command: Command) => {
      const options = WorkerOptionsSchema.parse(rawOptions);
      const { runWorker } = await import('../queue/run-worker.js');
      await runWorker(invocation, command, options);
    });
}
