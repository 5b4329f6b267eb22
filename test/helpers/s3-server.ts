/**
 * An S3-compatible server for the team store's tests: s3rver (a test server, not a production one) in this process,
 * on 127.0.0.1, on a free port, with a throwaway folder and one bucket. s3rver knows one key pair, S3RVER/S3RVER,
 * which `env` carries as AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY; it refuses another access key, but does not check
 * SigV4 signatures (so a wrong secret with the right key passes).
 *
 *   const s3 = await startS3Server();
 *   const blobs = S3TeamBlobs.create(parseBlobsUrl(s3.url), s3.env);
 *   await s3.stop();
 *
 * `requests` logs every request the server received (method, path, headers), to count uploads and see what they carried.
 *
 * s3rver 3.7.1 (2020) starts and answers the SDK on Node 20 as it is: port 0 gives a free port with no race, and
 * its winston console logger stays quiet with `silent`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Request {
  method: string;
  /** The path and query, e.g. /bucket/prefix/sha256/ab/ab….png */
  path: string;
  headers: IncomingHttpHeaders;
}

export interface S3Server {
  /** http://127.0.0.1:PORT */
  endpoint: string;
  port: number;
  bucket: string;
  /** The s3:// URL for parseBlobsUrl: this bucket at this endpoint, path style. */
  url: string;
  /** Credentials s3rver accepts. */
  env: { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };
  /** Where s3rver keeps the objects. */
  directory: string;
  requests: S3Request[];
  /** While true, every write is answered 503 Service Unavailable (an S3 write failure); reads go on. */
  failWrites(refuse: boolean): void;
  /** Closes the server (the port then refuses connections) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

export async function startS3Server(options: { bucket?: string; prefix?: string } = {}): Promise<S3Server> {
  const bucket = options.bucket ?? 'sightline-team';
  const directory = mkdtempSync(join(tmpdir(), 'sightline-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  const requests: S3Request[] = [];
  let refusingWrites = false;
  // Every request passes here first: logged, and while writes are refused a PUT or POST is answered 503 as S3 does
  // when it cannot take them, before s3rver sees it.
  const http = server.httpServer!;
  const handlers = http.listeners('request') as Array<(request: IncomingMessage, response: ServerResponse) => void>;
  http.removeAllListeners('request');
  http.on('request', (request: IncomingMessage, response: ServerResponse) => {
    requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    if (refusingWrites && (request.method === 'PUT' || request.method === 'POST')) {
      request.resume();
      response.writeHead(503, { 'content-type': 'application/xml' });
      response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>ServiceUnavailable</Code><Message>Writes are refused by the test.</Message></Error>');
      return;
    }
    for (const handler of handlers) handler.call(http, request, response);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  let stopped = false;
  return {
    endpoint,
    port,
    bucket,
    url: `s3://${bucket}${options.prefix === undefined ? '' : `/${options.prefix}`}?endpoint=${endpoint}&region=us-east-1&path_style=true`,
    env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
    directory,
    requests,
    failWrites: (refuse) => {
      refusingWrites = refuse;
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      const closing = server.close();
      // Keep-alive sockets of a client still open would hold close() until they idle out.
      server.httpServer!.closeAllConnections();
      await closing;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
