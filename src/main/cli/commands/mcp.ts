/**
 * `sightline mcp`: serves Sightline's tools to another agent (an MCP host such as Claude Desktop) over
 * stdio. The work is in ../mcp/; this file declares the command. stdout carries the protocol and nothing
 * else; everything for a person goes to stderr.
 */
import { Option, type Command } from 'commander';
import { CONFIRMATION_POLICIES, OPERATOR_KINDS } from '../../../shared/config.js';
import type { CliInvocation } from '../io.js';
import { McpOptionsSchema } from '../mcp/mcp-options.js';
import { YES_HELP } from '../option-help.js';

export function registerMcpCommand(program: Command, invocation: CliInvocation): void {
  program
    .command('mcp')
    .description('serve Sightline\'s tools (screenshot, computer, recall, sessions) to another agent over MCP on stdio')
    .addOption(new Option('--operator <kind>', `what to act on: ${OPERATOR_KINDS.join(' or ')}`))
    .option('--url <url>', 'page the browser operator opens first (needs --operator browser)')
    .option('--allow-file-urls', 'let the browser operator open file: URLs (files on this computer), off by default')
    .addOption(new Option('--confirm <policy>', `which actions need approval: ${CONFIRMATION_POLICIES.join(', ')} (over MCP nobody can approve: they are refused without --yes)`))
    .option('--yes', YES_HELP)
    .action(async (rawOptions: unknown, command: Command) => {
      const options = McpOptionsSchema.parse(rawOptions);
      const { serveMcp } = await import('../mcp/serve-mcp.js');
      await serveMcp(invocation, command, options);
    });
}
