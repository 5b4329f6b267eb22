/** Every CLI command, registered in the order `--help` lists them. Each lives in a file of its own. */
import type { Command } from 'commander';
import type { CliInvocation } from '../io.js';
import { registerConfigCommand } from './config.js';
import { registerDoctorCommand } from './doctor.js';
import { registerFlowCommand } from './flow.js';
import { registerFramesCommand } from './frames.js';
import { registerMcpCommand } from './mcp.js';
import { registerModelsCommand } from './models.js';
import { registerQueueCommand } from './queue.js';
import { registerReportCommand } from './report.js';
import { registerReplayCommand } from './replay.js';
import { registerRunCommand } from './run.js';
import { registerSessionsCommand } from './sessions.js';
import { registerTimelineCommand } from './timeline.js';
import { registerWorkerCommand } from './worker.js';

export function registerCommands(program: Command, invocation: CliInvocation): void {
  registerRunCommand(program, invocation);
  registerFlowCommand(program, invocation);
  registerWorkerCommand(program, invocation);
  registerQueueCommand(program, invocation);
  registerReplayCommand(program, invocation);
  registerSessionsCommand(program, invocation);
  registerReportCommand(program, invocation);
  registerTimelineCommand(program, invocation);
  registerMcpCommand(program, invocation);
  registerDoctorCommand(program, invocation);
  registerConfigCommand(program, invocation);
  registerModelsCommand(program, invocation);
  registerFramesCommand(program, invocation);
}
