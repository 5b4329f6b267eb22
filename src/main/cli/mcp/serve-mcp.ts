/**
 * `sightline mcp`: opens the runtime and the operator, builds the tool host (screenshot, computer,
 * get_history_image, crop_image, list_sessions, and web_search when Tavily is configured), and serves it
 * over stdio until the client goes away (stdin ends) or the process is told to stop. Then the open turn is
 * ended, the operator released and the database closed. Every problem before serving is a UserError on
 * stderr with exit 2, as for `sightline run`; nothing but protocol is ever written to stdout.
 */
import type { Command } from 'commander';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../../../shared/config.js';
import { openOperator, RunSetupError } from '../../app/run-parts.js';
import type { ToolDefinition } from '../../agent/index.js';
import { McpToolHost } from '../../mcp-server/mcp-tool-host.js';
import { createSightlineMcpServer } from '../../mcp-server/mcp-server.js';
import { createSearchTools } from '../../agent/search/create-search-tools.js';
import { CompactionQueue, createCompactionHook } from '../../context/index.js';
import { createModelAdapter } from '../../llm/create-model-adapter.js';
import { ModelConfigurationError } from '../../llm/model-errors.js';
import type { Operator } from '../../operators/operator.js';
import { loadCliConfig } from '../context-config.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import { EXIT, UserError, type CliContext } from '../io.js';
import type { McpOptions } from './mcp-options.js';
import { checkUrl } from '../run/run-options.js';
import { redactingWriter, secretsOf } from '../run/secrets.js';

const CONFIG_FLAG_NAMES = { 'agent.operator': '--operator', 'agent.confirm': '--confirm' } as const;

export async function serveMcp(context: CliContext, command: Command, options: McpOptions): Promise<void> {
  const flags = { 'agent.operator': options.operator, 'agent.confirm': options.confirm };
  const loaded = loadCliConfig(command, context.io, flags, CONFIG_FLAG_NAMES);
  const { config } = loaded;
  const url = checkUrl(options.url, config);
  const stderr = redactingWriter(context.io.stderr, secretsOf(config));
  const runtime = await openCliRuntime(loaded);
  let operator: Operator | undefined;
  let host: McpToolHost | undefined;
  const leaving = watchForClientLeaving();
  try {
    operator = await openOperatorOrExplain(config, url, context.io.env);
    host = new McpToolHost({
      storage: runtime.storage,
      config,
      operator,
      approveRiskyActions: options.yes === true,
      extraTools: searchTools(config, stderr),
      turnEndHooks: [createCompactionHook(new CompactionQueue({ storage: runtime.storage }))],
      onEvent: (event) => {
        if (event.type === 'warning') stderr(`sightline mcp: ${event.message}\n`);
      },
    });
    const server = createSightlineMcpServer(host);
    await server.connect(new StdioServerTransport());
    const described = operator.describe();
    stderr(`sightline mcp: serving ${described.kind} operator on ${described.target} over stdio (home ${loaded.home.root})\n`);
    await leaving.left;
    await server.close();
    if (host.currentSessionId !== undefined) stderr(`sightline mcp: calls recorded in session ${host.currentSessionId}\n`);
  } finally {
    await host?.close();
    await operator?.close();
    runtime.close();
    leaving.dispose();
  }
}

/**
 * Resolves when the client closes our stdin (it has gone) or the process is asked to stop. The signal
 * handlers stay until `dispose`, so a host's SIGTERM that follows the closed stdin does not cut the
 * cleanup short (the open turn ended, the browser closed, the database closed).
 */
function watchForClientLeaving(): { left: Promise<void>; dispose(): void } {
  let leave = () => {};
  const left = new Promise<void>((resolve) => {
    leave = () => resolve();
  });
  process.stdin.on('end', leave);
  process.stdin.on('close', leave);
  process.on('SIGINT', leave);
  process.on('SIGTERM', leave);
  return {
    left,
    dispose: () => {
      process.stdin.off('end', leave);
      process.stdin.off('close', leave);
      process.off('SIGINT', leave);
      process.off('SIGTERM', leave);
    },
  };
}

/** web_search when a Tavily key is configured; its research sub-agent needs the configured model too. */
function searchTools(config: Config, stderr: (text: string) => void): ToolDefinition[] {
  if (config.search.tavilyApiKey === undefined) return [];
  try {
    return createSearchTools(config, { model: createModelAdapter(config.model) });
  } catch (error) {
    if (!(error instanceof ModelConfigurationError)) throw error;
    stderr(`sightline mcp: web_search is left out: its research helper needs a model (${error.message})\n`);
    return [];
  }
}

/** The operator the served tools act on; a missing display or browser is the user's to fix (exit 2). */
async function openOperatorOrExplain(config: Config, url: string | undefined, env: Record<string, string | undefined>): Promise<Operator> {
  try {
    return await openOperator({ config, env }, { url });
  } catch (error) {
    if (error instanceof RunSetupError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}
