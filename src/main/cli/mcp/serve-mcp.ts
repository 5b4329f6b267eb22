/**
 * `sightline mcp`: opens the runtime and the run's parts (the one run assembly, as `sightline run` does),
 * builds the tool host (screenshot, computer, get_history_image, crop_image, list_sessions, web_search when
 * Tavily is configured, and the tools of the MCP servers in config.json), and serves it over stdio until the
 * client goes away (stdin ends) or the process is told to stop. Then the open turn is ended, the operator
 * and the MCP servers released and the database closed. Every problem before serving is a UserError on
 * stderr with exit 2, as for `sightline run`; nothing but protocol is ever written to stdout. The served
 * tools need no model: without one, only web_search is left out, with a warning. A line from the client that
 * is not a message the server can take is answered with its JSON-RPC error (mcp-server/stdio-transport.ts).
 */
import type { Command } from 'commander';
import { assembleRun, type RunParts } from '../../app/run-assembly.js';
import type { ModelAdapter } from '../../llm/model-adapter.js';
import { McpToolHost } from '../../mcp-server/mcp-tool-host.js';
import { createSightlineMcpServer } from '../../mcp-server/mcp-server.js';
import { servedRequestParamsProblem } from '../../mcp-server/request-params.js';
import { StdioLineTransport } from '../../mcp-server/stdio-transport.js';
import { loadCliConfig } from '../cli-config.js';
import { openCliRuntime } from '../open-cli-runtime.js';
import type { CliInvocation } from '../io.js';
import { explainSetupErrors } from '../run-setup-errors.js';
import type { McpOptions } from './mcp-options.js';
import { allowFileUrlsFlag, checkUrl } from '../run/run-options.js';
import { secretRedactor } from '../../../shared/secret-redaction.js';
import { redactingWriter } from '../run/secrets.js';

const CONFIG_FLAG_NAMES = { 'agent.operator': '--operator', 'agent.confirm': '--confirm', 'agent.allowFileUrls': '--allow-file-urls' } as const;

export async function serveMcp(invocation: CliInvocation, command: Command, options: McpOptions): Promise<void> {
  const flags = { 'agent.operator': options.operator, 'agent.confirm': options.confirm, 'agent.allowFileUrls': allowFileUrlsFlag(options.allowFileUrls) };
  const loaded = loadCliConfig(command, invocation.io, flags, CONFIG_FLAG_NAMES);
  const { config } = loaded;
  const url = checkUrl(options.url, config);
  const stderr = redactingWriter(invocation.io.stderr, secretRedactor(config));
  const onWarning = (message: string) => stderr(`sightline mcp: ${message}\n`);
  const assembly = await explainSetupErrors(() => assembleRun({ config, env: invocation.io.env, onWarning, model: 'optional', home: loaded.home.root }));
  const runtime = await openCliRuntime(loaded);
  let parts: RunParts<ModelAdapter | undefined> | undefined;
  let host: McpToolHost | undefined;
  const leaving = watchForClientLeaving();
  try {
    parts = await explainSetupErrors(() => assembly.open(runtime.storage, { url }));
    const { operator } = parts;
    host = new McpToolHost({
      storage: runtime.storage,
      config,
      operator,
      approveRiskyActions: options.yes === true,
      extraTools: parts.tools,
      turnEndHooks: parts.turnEndHooks,
      onEvent: (event) => {
        if (event.type === 'warning') stderr(`sightline mcp: ${event.message}\n`);
      },
    });
    const server = createSightlineMcpServer(host);
    // What the protocol could not take and had no one to answer (a malformed notification, a stray response).
    server.onerror = (error) => stderr(`sightline mcp: ${error.message}\n`);
    await server.connect(new StdioLineTransport({ checkRequest: servedRequestParamsProblem }));
    const described = operator.describe();
    stderr(`sightline mcp: serving ${described.kind} operator on ${described.target} over stdio (home ${loaded.home.root})\n`);
    await leaving.left;
    await server.close();
    if (host.currentSessionId !== undefined) stderr(`sightline mcp: calls recorded in session ${host.currentSessionId}\n`);
  } finally {
    await host?.close();
    await parts?.close();
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
