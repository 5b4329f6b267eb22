/**
 * MCP over stdio for `sightline mcp`: one JSON-RPC message per line on stdin and stdout, as the SDK's
 * StdioServerTransport does, but answering what that one drops (docs/decisions/0061-mcp-stdio-transport.md):
 * - a line that is not a message the server can take gets its JSON-RPC error (incoming-line.ts), where the
 *   SDK only called `onerror` and the client waited for an answer that never came;
 * - a line longer than the limit is discarded as it arrives, answered -32600, and the next line is read as
 *   usual, where the SDK closed the transport and left the server deaf to the rest of stdin.
 * A request whose params do not fit its method is answered -32602 by `checkRequest` here, before the SDK's
 * handler would answer it -32603 with zod's issues as JSON.
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { internalErrorReply, readIncomingLine, tooLongReply, type JsonRpcErrorReply, type RequestCheck } from './incoming-line.js';

/** The SDK's own limit for what its stdio transport buffers; no client request comes near it. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

export interface StdioTransportOptions {
  checkRequest: RequestCheck;
  stdin?: Readable;
  stdout?: Writable;
  maxLineBytes?: number;
}

export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly checkRequest: RequestCheck;
  private readonly maxLineBytes: number;
  /** The pieces of the line being read, kept apart until its newline so a long line is not copied per chunk. */
  private pieces: Buffer[] = [];
  private pendingBytes = 0;
  /** The rest of an over-long line, up to its newline, is thrown away as it comes. */
  private discarding = false;
  private started = false;

  constructor(options: StdioTransportOptions) {
    this.checkRequest = options.checkRequest;
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  }

  start(): Promise<void> {
    if (this.started) throw new Error('The stdio transport is already started.');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    // As the SDK's transport: stop reading unless someone else still listens.
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.pieces = [];
    this.pendingBytes = 0;
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, start);
      this.take(bytes.subarray(start, newline === -1 ? bytes.length : newline));
      if (newline === -1) return;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onStreamError = (error: Error): void => {
    this.onerror?.(error);
  };

  private take(piece: Buffer): void {
    if (this.discarding || piece.length === 0) return;
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      this.pieces = [];
      this.pendingBytes = 0;
      this.discarding = true;
      // Answered now rather than at its newline, which a runaway client may never send.
      this.reply(tooLongReply(this.maxLineBytes));
      return;
    }
    this.pieces.push(piece);
    this.pendingBytes += piece.length;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const line = Buffer.concat(this.pieces, this.pendingBytes).toString('utf8').replace(/\r$/, '');
    this.pieces = [];
    this.pendingBytes = 0;
    let incoming;
    try {
      incoming = readIncomingLine(line, this.checkRequest);
    } catch (error) {
      // Nothing in reading a line is meant to throw; if it does, the line is lost, not the server.
      const detail = error instanceof Error ? error.message : String(error);
      this.reply(internalErrorReply(`Internal error: the line could not be read (${detail}).`));
      return;
    }
    if (incoming.kind === 'message') this.deliver(incoming.message);
    else if (incoming.kind === 'answer') this.reply(incoming.reply);
    else if (incoming.problem !== undefined) this.onerror?.(new Error(incoming.problem));
  }

  /** A handler that throws costs its own message only, not the lines after it in the same chunk. */
  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private reply(reply: JsonRpcErrorReply): void {
    void this.write(reply);
  }

  private write(message: JSONRPCMessage | JsonRpcErrorReply): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
