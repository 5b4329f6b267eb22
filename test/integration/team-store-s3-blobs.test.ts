/**
 * The team's pixels in S3 (issue 29), against s3rver: buffered and streamed uploads read back and checked by length
 * and sha256 (through S3TeamBlobs and with a raw GetObject), the SDK's default checksum setting shown to corrupt a
 * streamed upload where ours does not, an upload done once, a damaged object refused, and failures (server gone,
 * no bucket, a 500, a wrong secret) told in words without a credential in them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseBlobsUrl } from '../../src/main/team-store/blobs-url.js';
import { S3TeamBlobs, TeamBlobsError, type TeamBlobsOptions } from '../../src/main/team-store/s3-team-blobs.js';
import { startS3Server, type S3Server } from '../helpers/s3-server.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Credentials for servers that are not s3rver: distinctive, so a message that leaked them would be caught. */
const FAKE_ENV = { AWS_ACCESS_KEY_ID: 'AKIALEAKCHECK0000001', AWS_SECRET_ACCESS_KEY: 'leak/Check+Secret0000000000000000000000x' };

let s3: S3Server;
let folder: string;
const opened: { close(): void }[] = [];

beforeEach(async () => {
  s3 = await startS3Server({ prefix: 'team/pixels' });
  folder = mkdtempSync(join(tmpdir(), 'sightline-s3-blobs-'));
});

afterEach(async () => {
  for (const client of opened.splice(0)) client.close();
  await s3.stop();
  rmSync(folder, { recursive: true, force: true });
});

interface Sample {
  sha256: string;
  mime: string;
  byteSize: number;
  bytes: Buffer;
  path: string;
}

function sample(bytes: Buffer, mime = 'image/png'): Sample {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const path = join(folder, `${sha256}.bin`);
  writeFileSync(path, bytes);
  return { sha256, mime, byteSize: bytes.byteLength, bytes, path };
}

function pngish(size: number): Sample {
  return sample(Buffer.concat([PNG_SIGNATURE, randomBytes(size - PNG_SIGNATURE.length)]));
}

function teamBlobs(url = s3.url, env: Record<string, string> = s3.env, options: TeamBlobsOptions = {}): S3TeamBlobs {
  const blobs = S3TeamBlobs.create(parseBlobsUrl(url, {}), env, options);
  opened.push(blobs);
  return blobs;
}

/** A plain SDK client, with whatever checksum settings a test gives it, to look at the bucket past S3TeamBlobs. */
function rawClient(settings: Partial<ConstructorParameters<typeof S3Client>[0]> = {}): S3Client {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: s3.env.AWS_ACCESS_KEY_ID, secretAccessKey: s3.env.AWS_SECRET_ACCESS_KEY },
    ...settings,
  });
  opened.push({ close: () => client.destroy() });
  return client;
}

async function rawGet(key: string): Promise<Buffer> {
  const response = await rawClient({ responseChecksumValidation: 'WHEN_REQUIRED' }).send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

function keyOf(blob: Sample, extension = 'png'): string {
  return `team/pixels/sha256/${blob.sha256.slice(0, 2)}/${blob.sha256}.${extension}`;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function putsOf(key: string): number {
  return s3.requests.filter((request) => request.method === 'PUT' && request.path.startsWith(`/${s3.bucket}/${key}`)).length;
}

async function failureOf(promise: Promise<unknown>): Promise<TeamBlobsError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TeamBlobsError);
  return error as TeamBlobsError;
}

describe('uploads read back intact', () => {
  it('stores buffered and streamed blobs under their hash, byte for byte', async () => {
    const blobs = teamBlobs();
    const small = [pngish(67), pngish(4_096), pngish(70_001)];
    const large = sample(randomBytes(3 * 1024 * 1024 + 17));
    const jpeg = sample(randomBytes(20_000), 'image/jpeg');

    expect(await blobs.put(small[0]!, { bytes: small[0]!.bytes })).toBe('uploaded');
    expect(await blobs.put(small[1]!, { path: small[1]!.path })).toBe('uploaded');
    expect(await blobs.put(small[2]!, { bytes: small[2]!.bytes })).toBe('uploaded');
    expect(await blobs.put(large, { path: large.path })).toBe('uploaded');
    expect(await blobs.put(jpeg, { path: jpeg.path })).toBe('uploaded');

    for (const [blob, extension] of [...small.map((blob) => [blob, 'png'] as const), [large, 'png'] as const, [jpeg, 'jpg'] as const]) {
      const read = await blobs.get(blob.sha256, blob.mime);
      expect(read?.byteLength).toBe(blob.byteSize);
      expect(sha256Hex(read!)).toBe(blob.sha256);
      // Past our client: the object under the key the hash names holds exactly the bytes.
      const raw = await rawGet(keyOf(blob, extension));
      expect(raw.byteLength).toBe(blob.byteSize);
      expect(sha256Hex(raw)).toBe(blob.sha256);
    }

    // Every upload went as plain bytes with our own checksum header: no aws-chunked framing, the key's hash in base64.
    const puts = s3.requests.filter((request) => request.method === 'PUT');
    expect(puts).toHaveLength(5);
    for (const put of puts) {
      const sha256 = /\/([0-9a-f]{64})\./.exec(put.path)![1]!;
      expect(put.headers['x-amz-checksum-sha256']).toBe(Buffer.from(sha256, 'hex').toString('base64'));
      expect(put.headers['content-encoding'] ?? '').not.toContain('aws-chunked');
      expect(put.headers['x-amz-trailer']).toBeUndefined();
    }
    expect(s3.requests.find((request) => request.path.includes(large.sha256) && request.method === 'PUT')?.headers['content-length']).toBe(String(large.byteSize));
  });

  it("shows why: a streamed upload with the SDK's default checksums arrives corrupted, ours intact", async () => {
    const blob = sample(randomBytes(3 * 1024 * 1024 + 17));
    // The SDK's defaults (WHEN_SUPPORTED since 2025): a stream goes aws-chunked with a trailing checksum, which s3rver
    // keeps as the object's bytes.
    await rawClient().send(new PutObjectCommand({ Bucket: s3.bucket, Key: keyOf(blob), Body: createReadStream(blob.path), ContentLength: blob.byteSize }));
    const corrupted = await rawGet(keyOf(blob));
    expect(corrupted.byteLength).not.toBe(blob.byteSize);
    expect(sha256Hex(corrupted)).not.toBe(blob.sha256);
    expect(corrupted.subarray(0, 64).toString('latin1')).toMatch(/^[0-9a-f]+;chunk-signature=|^[0-9a-f]+\r\n/);

    // S3TeamBlobs refuses to serve it, does not take it for present (its length is wrong), and uploads it again intact.
    const blobs = teamBlobs();
    expect((await failureOf(blobs.get(blob.sha256, blob.mime))).message).toMatch(/is damaged/);
    expect(await blobs.put(blob, { path: blob.path })).toBe('uploaded');
    const repaired = await rawGet(keyOf(blob));
    expect(repaired.byteLength).toBe(blob.byteSize);
    expect(sha256Hex(repaired)).toBe(blob.sha256);
    expect(sha256Hex((await blobs.get(blob.sha256, blob.mime))!)).toBe(blob.sha256);
  });
});

describe('idempotent and verified', () => {
  it('uploads a blob once: the second put finds it present and sends no PUT', async () => {
    const blobs = teamBlobs();
    const blob = pngish(12_345);
    expect(await blobs.put(blob, { bytes: blob.bytes })).toBe('uploaded');
    expect(await blobs.put(blob, { path: blob.path })).toBe('present');
    expect(await blobs.put(blob, { bytes: blob.bytes })).toBe('present');
    expect(putsOf(keyOf(blob))).toBe(1);
    expect(s3.requests.filter((request) => request.method === 'HEAD')).toHaveLength(3);
  });

  it('answers undefined for a blob that was never uploaded', async () => {
    expect(await teamBlobs().get(pngish(100).sha256, 'image/png')).toBeUndefined();
  });

  it('refuses an object whose bytes were replaced, saying it is damaged', async () => {
    const blobs = teamBlobs();
    const blob = pngish(5_000);
    await blobs.put(blob, { bytes: blob.bytes });
    const impostor = Buffer.concat([PNG_SIGNATURE, randomBytes(blob.byteSize - PNG_SIGNATURE.length)]);
    await rawClient({ requestChecksumCalculation: 'WHEN_REQUIRED' }).send(new PutObjectCommand({ Bucket: s3.bucket, Key: keyOf(blob), Body: impostor }));

    const error = await failureOf(blobs.get(blob.sha256, blob.mime));
    expect(error.message).toBe(
      `blob ${blob.sha256.slice(0, 12)}… in ${blobs.shown} is damaged: its 5000 bytes hash to ${sha256Hex(impostor).slice(0, 12)}…, not to its name`,
    );
    expect(blobs.shown).toBe(`s3://${s3.bucket}/team/pixels?endpoint=${s3.endpoint}`);
  });

  it('refuses to upload bytes or a file that do not match the blob, and a name that is not a sha256, before any request', async () => {
    const blobs = teamBlobs();
    const blob = pngish(1_000);
    const other = pngish(1_000);
    expect((await failureOf(blobs.put(blob, { bytes: other.bytes }))).message).toMatch(/its bytes do not hash to its name/);
    expect((await failureOf(blobs.put(blob, { bytes: blob.bytes.subarray(1) }))).message).toMatch(/it has 999 bytes, not the 1000 its row says/);
    expect((await failureOf(blobs.put({ ...blob, byteSize: 1_001 }, { path: blob.path }))).message).toMatch(/its file has 1000 bytes, not the 1001 its row says/);
    expect((await failureOf(blobs.put(blob, { path: join(folder, 'gone.png') }))).message).toMatch(/its file cannot be read \(ENOENT\)/);
    expect((await failureOf(blobs.put({ ...blob, sha256: '../../etc/passwd' }, { bytes: blob.bytes }))).message).toMatch(/sha256: a blob is named by a sha256/);
    expect((await failureOf(blobs.get(blob.sha256.toUpperCase(), 'image/png'))).message).toMatch(/not a blob name/);
    expect(s3.requests).toHaveLength(0);
  });

  it('removes a streamed upload whose file does not hash to its name, and says so', async () => {
    const blobs = teamBlobs();
    const blob = pngish(40_000);
    // Damaged on disk after it was named: same size, other bytes.
    writeFileSync(blob.path, Buffer.concat([PNG_SIGNATURE, randomBytes(blob.byteSize - PNG_SIGNATURE.length)]));
    const error = await failureOf(blobs.put(blob, { path: blob.path }));
    expect(error.message).toBe(
      `cannot upload blob ${blob.sha256.slice(0, 12)}… to ${blobs.shown}: the bytes of its file do not hash to its name (damaged, or changed while it was sent); the object was removed`,
    );
    expect(s3.requests.map((request) => request.method)).toEqual(['HEAD', 'PUT', 'DELETE']);
    expect(await blobs.get(blob.sha256, blob.mime)).toBeUndefined();
  });

  it('keys a blob by its hash and our mime table only', () => {
    const blobs = teamBlobs();
    const sha256 = 'ab'.repeat(32);
    expect(blobs.keyFor(sha256, 'image/webp')).toBe(`team/pixels/sha256/ab/${sha256}.webp`);
    expect(blobs.keyFor(sha256, 'text/html; <script>')).toBe(`team/pixels/sha256/ab/${sha256}.bin`);
  });
});

describe('failures said in words', () => {
  /** A server that knows no object and fails every PUT with a 500, counting the PUTs. */
  async function failingServer(): Promise<{ endpoint: string; puts: () => number; close: () => Promise<void> }> {
    let puts = 0;
    const server: Server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        if (request.method === 'PUT') {
          puts += 1;
          response.writeHead(500, { 'content-type': 'application/xml' });
          response.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>');
        } else {
          response.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return {
      endpoint: `http://127.0.0.1:${port}`,
      puts: () => puts,
      close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
    };
  }

  function expectNoCredentials(message: string): void {
    for (const secret of [...Object.values(FAKE_ENV), 'S3RVER']) expect(message).not.toContain(secret);
    expect(message).not.toContain('leak');
  }

  it('a server that is gone: unreachable, connection refused', async () => {
    const blobs = teamBlobs();
    const blob = pngish(2_000);
    await s3.stop();
    const upload = await failureOf(blobs.put(blob, { bytes: blob.bytes }));
    expect(upload.message).toBe(
      `cannot upload blob ${blob.sha256.slice(0, 12)}… to the team's blob store at ${blobs.shown}: unreachable: the connection was refused (is the server running, and is the endpoint right?)`,
    );
    expect(upload.cause).toBeDefined();
    const read = await failureOf(blobs.get(blob.sha256, blob.mime));
    expect(read.message).toMatch(/^cannot read blob .* from the team's blob store at s3:\/\/.*: unreachable: the connection was refused/);
    expectNoCredentials(upload.message + read.message);
  });

  it('a bucket that does not exist: no such bucket, for a write and for a read', async () => {
    const url = s3.url.replace(`s3://${s3.bucket}`, 's3://no-such-team-bucket');
    const blobs = teamBlobs(url);
    const blob = pngish(2_000);
    const upload = await failureOf(blobs.put(blob, { path: blob.path }));
    expect(upload.message).toMatch(/^cannot upload blob .* to the team's blob store at s3:\/\/no-such-team-bucket\/team\/pixels\?endpoint=http:\/\/127\.0\.0\.1:\d+: no such bucket$/);
    // A missing bucket is a failure, not a missing blob.
    expect((await failureOf(blobs.get(blob.sha256, blob.mime))).message).toMatch(/: no such bucket$/);
  });

  it('a server that answers 500: the server failed, after a bounded number of attempts', async () => {
    const failing = await failingServer();
    try {
      const blobs = teamBlobs(`s3://team-shots?endpoint=${failing.endpoint}`, FAKE_ENV);
      const blob = pngish(3_000);
      const buffered = await failureOf(blobs.put(blob, { bytes: blob.bytes }));
      expect(buffered.message).toBe(
        `cannot upload blob ${blob.sha256.slice(0, 12)}… to the team's blob store at s3://team-shots?endpoint=${failing.endpoint}: the server failed (HTTP 500, InternalError)`,
      );
      expect(failing.puts()).toBe(3);
      // A stream cannot be sent twice: one attempt, and the replicator ships again later.
      const streamed = await failureOf(blobs.put(blob, { path: blob.path }));
      expect(streamed.message).toMatch(/the server failed \(HTTP 500, InternalError\)$/);
      expect(failing.puts()).toBe(4);
      expectNoCredentials(buffered.message + streamed.message);
    } finally {
      await failing.close();
    }
  });

  it('a server that accepts and then says nothing: the request ends, after a bounded number of attempts', async () => {
    const requests: IncomingMessage[] = [];
    const silent = createServer((request) => requests.push(request));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      // A short idle limit stands in for the default 30 s; what is checked is that the request ends, and how often it was tried.
      const blobs = teamBlobs(`s3://team-shots?endpoint=http://127.0.0.1:${port}`, FAKE_ENV, { idleTimeoutMs: 300 });
      const blob = pngish(1_000);
      const error = await failureOf(blobs.put(blob, { bytes: blob.bytes }));
      expect(error.message).toMatch(/: the server stopped answering in the middle of a request$/);
      expect(requests.map((request) => request.method)).toEqual(['HEAD', 'HEAD', 'HEAD']);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('an access key the server does not know: access denied, and the key is not in the message', async () => {
    // s3rver knows only the key S3RVER (it checks the key, not SigV4 signatures).
    const blobs = teamBlobs(s3.url, FAKE_ENV);
    const blob = pngish(2_000);
    const upload = await failureOf(blobs.put(blob, { bytes: blob.bytes }));
    // The HEAD's 403 (no body, no reason) is passed over; the PUT's refusal names the reason.
    expect(upload.message).toMatch(/: access denied: the server does not know the access key in AWS_ACCESS_KEY_ID$/);
    const read = await failureOf(blobs.get(blob.sha256, blob.mime));
    expect(read.message).toMatch(/: access denied: the server does not know the access key in AWS_ACCESS_KEY_ID$/);
    expectNoCredentials(upload.message + read.message);
    expect(s3.requests.map((request) => request.method)).toEqual(['HEAD', 'PUT', 'GET']);
  });
});
