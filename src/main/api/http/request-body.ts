/**
 * Reads a request's body up to a limit. A larger body is not cut off mid-stream: destroying the request
 * resets the connection while the client is still sending, and the client never sees the 413 meant for it.
 * So the rest is read and thrown away (up to a second, larger limit), and the answer goes out after it.
 */
import type { IncomingMessage } from 'node:http';

export type RequestBody =
  | { kind: 'read'; bytes: Buffer }
  /** Over the limit; `drained` says whether all of it was read (the connection may then stay open). */
  | { kind: 'too-large'; drained: boolean };

export function readRequestBody(request: IncomingMessage, limits: { maxBodyBytes: number; maxDiscardedBytes: number }): Promise<RequestBody> {
  const declared = Number(request.headers['content-length']);
  // A body declared larger than what would be thrown away is answered at once, without reading any of it.
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes + limits.maxDiscardedBytes) {
    return Promise.resolve({ kind: 'too-large', drained: false });
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limits.maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      if (size > limits.maxBodyBytes + limits.maxDiscardedBytes) {
        request.off('data', onData);
        request.pause();
        resolve({ kind: 'too-large', drained: false });
      }
    };
    request.on('data', onData);
    request.on('end', () => resolve(size > limits.maxBodyBytes ? { kind: 'too-large', drained: true } : { kind: 'read', bytes: Buffer.concat(chunks) }));
    request.on('error', reject);
  });
}
