/**
 * `sightline mcp` given lines no well-behaved client sends (issue 24, finding 7), over its real stdio: each
 * request gets the JSON-RPC 2.0 error it calls for, and the server answers the next valid request as usual.
 * Not JSON: -32700 with `"id": null`. JSON that is not one request object (a number, a batch array) or an
 * object off the JSON-RPC shape: -32600, with the request's id when it could be read. Params that are not
 * an object or do not fit the method (`"arguments": [1, 2]`): -32602 naming the field and what it expected,
 * not -32603 with zod's issues as JSON. An unknown method: -32601. A malformed notification gets no answer,
 * as JSON-RPC wants, and is reported on stderr. A message nested past the limit is -32600 (it overflowed
 * the call stack as an internal error), and a line past the size limit is discarded and answered -32600,
 * where the SDK's transport closed and left the server deaf.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxServer, type SandboxServer } from '../../demo/sandbox-server.js';
import { MAX_NESTING_DEPTH } from '../../src/main/mcp-server/incoming-line.js';
import { MAX_LINE_BYTES } from '../../src/main/mcp-server/stdio-transport.js';
import { createTemporaryHome, type TemporaryHome } from '../helpers/seed.js';
import { waitFor } from '../helpers/wait-for.js';
import { builtCli } from '../helpers/built-cli.js';


interface Reply {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

let sandbox: SandboxServer;
let home: TemporaryHome;
let server: ChildProcessWithoutNullStreams;
let exited: Promise<number | null>;
const replies: Reply[] = [];
let stdoutRest = '';
let stderr = '';
let consumed = 0;
let nextId = 1000;

beforeAll(async () => {
  sandbox = await startSandboxServer();
  home = createTemporaryHome('sightline-mcp-malformed');
  server = spawn(process.execPath, [builtCli(), '--home', home.root, 'mcp', '--operator', 'browser', '--url', sandbox.url], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  exited = new Promise((resolveExit) => server.once('close', resolveExit));
  server.stdout.on('data', (chunk: Buffer) => {
    const lines = (stdoutRest + chunk.toString('utf8')).split('\n');
    stdoutRest = lines.pop() ?? '';
    // Anything on stdout that is not one JSON message per line fails the JSON.parse, and the test with it.
    for (const line of lines) replies.push(JSON.parse(line) as Reply);
  });
  server.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const initialized = await exchange({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-lines', version: '1.0.0' } },
  });
  expect(initialized.result).toMatchObject({ serverInfo: { name: 'sightline' } });
  await expectNoAnswer({ jsonrpc: '2.0', method: 'notifications/initialized' });
}, 60_000);

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  await exited;
  await sandbox?.close();
  home?.remove();
});

/** Writes one line (a value is sent as its JSON) and resolves with the next message the server writes. */
async function exchange(line: unknown): Promise<Reply> {
  const text = typeof line === 'string' ? line : JSON.stringify(line);
  server.stdin.write(`${text}\n`);
  return nextReply(text);
}

async function nextReply(sent: string): Promise<Reply> {
  const description = `an answer to ${sent.length > 80 ? `${sent.slice(0, 80)}…` : sent} (server stderr: ${stderr})`;
  await waitFor(() => replies.length > consumed || server.exitCode !== null, { description, timeoutMs: 20_000 });
  if (replies.length <= consumed) throw new Error(`The server exited (${String(server.exitCode)}) without ${description}`);
  return replies[consumed++]!;
}

/** A ping right after the line is the next thing answered: the line itself got no answer. */
async function expectNoAnswer(line: unknown): Promise<void> {
  server.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
  await expectPingAnswered();
}

async function expectPingAnswered(): Promise<void> {
  const id = nextId++;
  expect(await exchange({ jsonrpc: '2.0', id, method: 'ping' })).toEqual({ jsonrpc: '2.0', id, result: {} });
}

describe('sightline mcp given malformed lines', () => {
  it('answers a line that is not JSON with a parse error whose id is null, and serves the next request', async () => {
    const notJson = await exchange('this is not json');
    expect(notJson).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32700,
        message: `Parse error: the line is not JSON (Unexpected token 'h', "this is not json" is not valid JSON). Send one JSON-RPC message per line.`,
      },
    });
    const cutShort = await exchange('{"jsonrpc":"2.0","id":2,"method":"tools/list"');
    expect(cutShort).toMatchObject({ id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: the line is not JSON \(.+\)\./) } });
    await expectPingAnswered();
  });

  it('answers JSON that is not one request object, a batch among it, with invalid-request and a null id', async () => {
    expect(await exchange('42')).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: expected a JSON-RPC request object, got the number 42.' },
    });
    expect(await exchange('"ping"')).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('got the string "ping"') } });
    expect(await exchange('null')).toMatchObject({ id: null, error: { code: -32600, message: expect.stringContaining('got null') } });
    const batch = await exchange([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
    expect(batch).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: batches (JSON arrays) are not supported; send each request as one JSON object on its own line.' },
    });
    expect(await exchange('[]')).toMatchObject({ id: null, error: { code: -32600 } });
    await expectPingAnswered();
  });

  it('answers an object off the JSON-RPC shape with invalid-request, with its id when it has a readable one', async () => {
    expect(await exchange({ jsonrpc: '1.0', id: 11, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 11,
      error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0", got the string "1.0".' },
    });
    expect(await exchange({ id: 'no-version', method: 'ping' })).toMatchObject({ id: 'no-version', error: { code: -32600 } });
    expect(await exchange({ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: "id" must be a string or an integer, got an object.' },
    });
    expect(await exchange({ jsonrpc: '2.0', id: 1.5, method: 'ping' })).toMatchObject({ id: null, error: { code: -32600 } });
    expect(await exchange({ jsonrpc: '2.0', id: 12 })).toMatchObject({ id: 12, error: { code: -32600, message: expect.stringContaining('"method" must be a string') } });
    expect(await exchange({ jsonrpc: '2.0', id: 13, method: 'ping', extra: true })).toEqual({
      jsonrpc: '2.0',
      id: 13,
      error: { code: -32600, message: 'Invalid Request: unexpected member "extra"; a request has only "jsonrpc", "id", "method" and "params".' },
    });
    await expectPingAnswered();
  });

  it('answers params of the wrong shape with invalid-params naming the field and what it expected', async () => {
    const arrayArguments = await exchange({ jsonrpc: '2.0', id: 21, method: 'tools/call', params: { name: 'screenshot', arguments: [1, 2] } });
    expect(arrayArguments).toEqual({
      jsonrpc: '2.0',
      id: 21,
      error: { code: -32602, message: 'Invalid params for tools/call: params.arguments: expected an object, got an array.' },
    });
    const numberName = await exchange({ jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 5 } });
    expect(numberName).toMatchObject({ id: 22, error: { code: -32602, message: 'Invalid params for tools/call: params.name: expected a string, got the number 5.' } });
    const noParams = await exchange({ jsonrpc: '2.0', id: 23, method: 'tools/call' });
    expect(noParams).toMatchObject({ id: 23, error: { code: -32602, message: 'Invalid params for tools/call: params: expected an object, got nothing.' } });
    const positional = await exchange({ jsonrpc: '2.0', id: 24, method: 'tools/list', params: [] });
    expect(positional).toMatchObject({
      id: 24,
      error: { code: -32602, message: 'Invalid params for tools/list: params must be an object of named parameters, got an array.' },
    });
    const badInitialize = await exchange({ jsonrpc: '2.0', id: 25, method: 'initialize', params: { protocolVersion: 2025 } });
    expect(badInitialize.error?.code).toBe(-32602);
    expect(badInitialize.error?.message).toContain('params.protocolVersion: expected a string, got the number 2025');
    for (const reply of [arrayArguments, numberName, noParams, positional, badInitialize]) expect(reply.error?.message).not.toMatch(/invalid_type|"path"/);
    await expectPingAnswered();
  });

  it('answers an unknown method with method-not-found, and a malformed notification not at all', async () => {
    expect(await exchange({ jsonrpc: '2.0', id: 31, method: 'no/such/method' })).toEqual({ jsonrpc: '2.0', id: 31, error: { code: -32601, message: 'Method not found' } });
    await expectNoAnswer({ jsonrpc: '2.0', method: 'notifications/cancelled', params: [31] });
    await expectNoAnswer('');
  });

  it('refuses a message nested past the limit before anything walks it, where the call stack overflowed', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deepCall = await exchange(`{"jsonrpc":"2.0","id":35,"method":"tools/call","params":{"name":"get_history_image","arguments":{"image_id":${deep}}}}`);
    expect(deepCall).toEqual({
      jsonrpc: '2.0',
      id: 35,
      error: { code: -32600, message: `Invalid Request: the message nests objects and arrays more than ${MAX_NESTING_DEPTH} levels deep.` },
    });
    await expectNoAnswer(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":${deep}}}`);
    // The request, params and _meta are the first three levels; the arrays in _meta.a the rest.
    const pingNested = (id: number, depth: number) => `{"jsonrpc":"2.0","id":${id},"method":"ping","params":{"_meta":{"a":${'['.repeat(depth - 3)}${']'.repeat(depth - 3)}}}}`;
    expect(await exchange(pingNested(36, MAX_NESTING_DEPTH))).toEqual({ jsonrpc: '2.0', id: 36, result: {} });
    expect(await exchange(pingNested(37, MAX_NESTING_DEPTH + 1))).toMatchObject({ id: 37, error: { code: -32600 } });
  });

  it('discards a line past the size limit as it comes, answers it, and reads the next line as usual', async () => {
    const padding = 'x'.repeat(MAX_LINE_BYTES);
    const huge = await exchange({ jsonrpc: '2.0', id: 41, method: 'ping', params: { _meta: { padding } } });
    expect(huge).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message longer than 10 MiB was discarded unread.' } });
    await expectPingAnswered();
    const large = await exchange({ jsonrpc: '2.0', id: 42, method: 'ping', params: { _meta: { padding: padding.slice(0, 1024 * 1024) } } });
    expect(large).toEqual({ jsonrpc: '2.0', id: 42, result: {} });
  });

  it('still serves its tools after all of it, reports the dropped notification on stderr, and exits cleanly when stdin ends', async () => {
    const listed = await exchange({ jsonrpc: '2.0', id: 51, method: 'tools/list' });
    expect((listed.result?.tools as Array<{ name: string }>).map((tool) => tool.name)).toContain('screenshot');
    server.stdin.end();
    expect(await exited).toBe(0);
    expect(stderr).toContain('sightline mcp: a malformed notification was dropped: {"jsonrpc":"2.0","method":"notifications/cancelled","params":[31]}');
    expect(stderr).not.toContain('unexpected error');
    expect(replies).toHaveLength(consumed);
  });
});
