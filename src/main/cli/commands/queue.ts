/** `sightline queue ls|status|cancel`: the jobs of the flow queue (docs/teams.md). The work is in ../queue/. */
import type { Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { QueueCommandOptionsSchema } from '../queue/queue-options.js';
import { jsonHelp, limitHelp } from '../option-help.js';

export function registerQueueCommand(program: Command, invocation: CliInvocation): void {
  const queue = program.command('queue').description("the flow queue's jobs: ls, status, cancel");
  const queueFlag = ['--queue <url>', 'the Redis that holds the queue: redis://HOST:PORT (default: SIGHTLINE_QUEUE_URL)'] as const;
  const run = async (action: 'ls' | 'status' | 'cancel', id: string | undefined, rawOptions: unknown, command: Command) => {
    const options = QueueCommandOptionsSchema.parse(rawOptions);
    const { queueCommand } = await import('../queue/queue-commands.js');
    await queueCommand(invocation, command, action, id, options);
  };
  queue
    .command('ls')
    .description('lists jobs, newest first: state, flow, attempts and where the last ran')
    .option(...queueFlag)
    .option('--limit <count>', limitHelp('jobs of each state', 50))
    .option('--json', jsonHelp('the jobs, as an array'))
    .action((options: unknown, command: Command) => run('ls', undefined, options, command));
  queue
    .command('status')
    .description("a job, or every job of a run: its state, each attempt's worker and session, the result")
    .argument('<id>', 'a run id (run_…) or a job id (run_….N)')
    .option(...queueFlag)
    .option('--json', jsonHelp('the job or the run, with its attempts'))
    .action((id: string, options: unknown, command: Command) => run('status', id, options, command));
  queue
    .command('cancel')
    .description("cancels a job or a run's jobs: a waiting job is removed, a running one's worker stops its flow")
    .argument('<id>', 'a run id (run_…) or a job id (run_….N)')
    .option(...queueFlag)
    .option('--json', jsonHelp('what was cancelled'))
    .action((id: string, options: unknown, command: Command) => run('cancel', id, options, command));
}
