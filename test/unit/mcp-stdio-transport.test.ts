/**
 * The framing of `sightline mcp`'s stdio transport, on streams the test controls chunk by chunk: a message
 * split across chunks or several in one chunk are each read whole, CRLF line ends are taken, a line up to
 * the limit is read, and a longer one is answered at once and discarded up to its newline without ending
 * the lines after it. A handler that throws, or a check that does, costs its own message only.
 */
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { StdioLineTransport } from '../../src/main/mcp-server/stdio-transport.js';

/** stdin fed chunk by chunk through its 'data' event and stdout collected as it is written, both at once. */
function openTransport(maxLineBytes?: number, checkRequest: (request: JSONRPCRequest) => string | undefined = () => undefined) {
  const stdin = new PassThrough();
  const written: unknown[] = [];
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter((text) => text !== '')) written.push(JSON.parse(line));
      done();
    },
  });
  const received: JSONRPCMessage[] = [];
  const errors: string[] = [];
  const transport = new StdioLineTransport({ stdin, stdout, checkRequest, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) });
  transport.onmessage = (message) => received.push(message);
  transport.onerror = (error) => errors.push(error.message);
  const feed = (text: string) => stdin.emit('data', Buffer.from(text, 'utf8'));
  return { feed, transport, written, received, errors };
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

describe('the stdio transport of sightline mcp', () => {
  it('reads a message split across chunks, several in one chunk, and CRLF line ends', async () => {
    const { feed, transport, received, written } = openTransport();
    await transport.start();
    const first = ping(1);
    feed(first.slice(0, 10));
    feed(first.slice(10));
    feed(`\n${ping(2)}\r\n${ping(3)}\n`);
    expect(received).toEqual([1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' })));
    expect(written).toEqual([]);
  });

  it('reads a line of exactly the limit, answers a longer one as soon as it passes the limit, and reads the next line', async () => {
    const limit = 100;
    const { feed, transport, received, written } = openTransport(limit);
    await transport.start();
    const exact = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { p: '' } } });
    const padded = exact.replace('"p":""', `"p":"${'x'.repeat(limit - exact.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(limit);
    feed(`${padded}\n`);
    feed('y'.repeat(limit + 1));
    expect(written).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a message longer than 100 bytes was discarded unread.' } }]);
    feed(`${'y'.repeat(limit * 3)}\n${ping(2)}\n`);
    expect(received.map((message) => (message as { id: number }).id)).toEqual([1, 2]);
    expect(written).toHaveLength(1);
  });

  it('keeps reading the lines after a message whose handler throws, and reports the throw', async () => {
    const { feed, transport, received, errors } = openTransport();
    await transport.start();
    transport.onmessage = (message) => {
      if ((message as { id: number }).id === 1) throw new Error('handler failed');
      received.push(message);
    };
    feed(`${ping(1)}\n${ping(2)}\n`);
    expect(received).toHaveLength(1);
    expect(errors).toEqual(['handler failed']);
  });

  it('answers a line whose reading fails for a reason of its own with an internal error, and reads the next line', async () => {
    const { feed, transport, received, written } = openTransport(undefined, (request) => {
      if (request.id === 1) throw new RangeError('Maximum call stack size exceeded');
      return undefined;
    });
    await transport.start();
    feed(`${ping(1)}\n${ping(2)}\n`);
    expect(written).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error: the line could not be read (Maximum call stack size exceeded).' } },
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });
});
