/**
 * `sightline report SESSION --html FILE [--gif FILE] [--max-size SIZE]`: a session as a file to share (docs/
 * reports.md). The work is in ../report/; this file declares the command.
 */
import type { Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { ReportOptionsSchema } from '../report/report-options.js';
import { TEAM_OPTION_HELP } from '../team/team-store-options.js';

export function registerReportCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('report')
    .description('write a session as one self-contained HTML file (frames inline, opens with no server), or as an animated GIF')
    .argument('<session>', 'session id, with or without its ses_ prefix')
    .option('--html <file>', 'write the report as one HTML file: turns, steps, frames with click marks, answers and their evidence')
    .option('--gif <file>', 'write the settled frames as an animation with click marks and step captions (.gif or .webp)')
    .option('--max-size <size>', 'largest file to write, e.g. 20MB (default), 5MB, 800KB: frames are reduced to fit')
    .option('--store <url>', TEAM_OPTION_HELP.store)
    .option('--blobs <url>', TEAM_OPTION_HELP.blobs)
    .action(async (session: string, rawOptions: unknown, command: Command) => {
      const options = ReportOptionsSchema.parse(rawOptions);
      const { writeSessionReport } = await import('../report/write-session-report.js');
      await writeSessionReport(invocation, command, session, options);
    });
}
