/**
 * One configured MCP server, connected with the SDK's Client: a stdio command (StdioClientTransport) or
 * a streamable HTTP URL (StreamableHTTPClientTransport). The start (spawn, initialize, list tools) has a
 * deadline, so a server that hangs is reported like one that exits. A stdio server's stderr is read into
 * a short tail: it is what explains a server that died ("ModuleNotFoundError …"), and reading it keeps a
 * chatty server from blocking on a full pipe.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from '../../../shared/config.js';

const CLIENT_INFO = { name: 'sightline', version: '0.1.0' };
const STDERR_TAIL_LINES = 5;
const STDERR_TAIL_CHARACTERS = 600;

export interface McpConnection {
  serverName: string;
  client: Client;
  tools: Tool[];
  /** Whether the server has gone away (its process exited or the connection closed) since it started. */
  readonly closed: boolean;
  /** The last lines the server wrote to stderr (stdio servers), for error messages. */
  stderrTail(): string;
  close(): Promise<void>;
}

/** The server could not be started or did not answer; the message says why, for the person running. */
export class McpStartError extends Error {
  override name = 'McpStartError';
}

export async function connectMcpServer(serverName: string, server: McpServerConfig, startTimeoutMs: number): Promise<McpConnection> {
  const stderr = new StderrTail();
  const transport = createTransport(server, stderr);
  const client = new Client(CLIENT_INFO);
  let closed = false;
  client.onclose = () => {
    closed = true;
  };
  // Without a handler the SDK logs transport errors to the console; they surface through calls instead.
  client.onerror = () => {};
  const deadline = AbortSignal.timeout(startTimeoutMs);
  try {
    await client.connect(transport, { timeout: startTimeoutMs, signal: deadline });
    const tools = await listAllTools(client, startTimeoutMs, deadline);
    return {
      serverName,
      client,
      tools,
      get closed() {
        return closed;
      },
      stderrTail: () => stderr.text(),
      close: () => client.close().catch(() => {}),
    };
  } catch (error) {
    await client.close().catch(() => {});
    throw new McpStartError(startFailure(server, error, deadline.aborted, startTimeoutMs, stderr.text()));
  }
}

function createTransport(server: McpServerConfig, stderr: StderrTail): Transport {
  if ('url' in server) {
    return new StreamableHTTPClientTransport(new URL(server.url), {
      ...(server.headers === undefined ? {} : { requestInit: { headers: server.headers } }),
    });
  }
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args,
    ...(server.env === undefined ? {} : { env: server.env }),
    ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk.toString('utf8')));
  return transport;
}

async function listAllTools(client: Client, timeout: number, signal: AbortSignal): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout, signal });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function startFailure(server: McpServerConfig, error: unknown, timedOut: boolean, startTimeoutMs: number, stderr: string): string {
  const where = 'url' in server ? server.url : [server.command, ...server.args].join(' ');
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  let reason: string;
  if (timedOut) reason = `it did not answer within ${startTimeoutMs} ms (mcp.startTimeoutMs)`;
  else if (code === 'ENOENT') reason = `the command "${'url' in server ? server.url : server.command}" was not found`;
  else if (code === 'EACCES') reason = `the command "${'url' in server ? server.url : server.command}" cannot be run (permission denied)`;
  else if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) reason = 'it exited before answering';
  else reason = errorText(error);
  const lastWords = stderr === '' ? '' : `; it said: ${stderr}`;
  return `${reason} (${where})${lastWords}`;
}

export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  // fetch says only "fetch failed"; why (ECONNREFUSED, a bad certificate …) is in its cause.
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  // The SDK prefixes its errors with "MCP error <code>: "; the code means nothing to a reader.
  return `${text}${cause}`.replace(/^MCP error -?\d+: /, '');
}

/** The last few lines of a stream, bounded in size. */
class StderrTail {
  private buffer = '';

  append(text: string): void {
    this.buffer = (this.buffer + text).slice(-STDERR_TAIL_CHARACTERS * 2);
  }

  text(): string {
    const lines = this.buffer.split('\n').map((line) => line.trim()).filter((line) => line !== '');
    return lines.slice(-STDERR_TAIL_LINES).join(' | ').slice(-STDERR_TAIL_CHARACTERS);
  }
}
