/**
 * The team's pixels in S3-compatible storage. Objects are content-addressed: the key is the blob's sha256 and the
 * extension of its mime type, nothing else, so an upload is idempotent and no model or page text ever reaches a key.
 *
 * Checksums. Since early 2025 the SDK's default (`requestChecksumCalculation: 'WHEN_SUPPORTED'`) sends a streamed
 * body as `aws-chunked` with a trailing CRC32. Real S3 decodes that; s3rver stores the chunk framing as the object's
 * bytes (a 3 MiB file came back 474 bytes longer, measured: docs/decisions/0070-team-store-s3-checksums.md), and
 * other S3-compatible services are reported to refuse such uploads. So the SDK computes no checksum of its own
 * (WHEN_REQUIRED both ways) and the body goes as plain bytes with a Content-Length; instead every PUT carries
 * `x-amz-checksum-sha256` with the hash the key already names, which S3 verifies against the bytes it receives,
 * and every read is checked against that hash here.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { z } from 'zod';
import { extensionForMime, SHA256_PATTERN, sha256Of } from '../storage/index.js';
import type { BlobsAddress } from './blobs-url.js';

export class TeamBlobsError extends Error {
  override name = 'TeamBlobsError';
}

export interface TeamBlob {
  sha256: string;
  mime: string;
  byteSize: number;
}

export type TeamBlobSource = { bytes: Uint8Array } | { path: string };

export interface TeamBlobsOptions {
  /** How long a connection may take to open: a dead or firewalled endpoint fails in this time, not the OS's minutes. */
  connectTimeoutMs?: number;
  /** How long a request may go without a byte either way once connected: a server that accepts and hangs. */
  idleTimeoutMs?: number;
}

const Sha256 = z.string().regex(SHA256_PATTERN, 'a blob is named by a sha256: 64 lowercase hex digits');
const Blob = z.object({
  sha256: Sha256,
  mime: z.string().min(1).max(255),
  byteSize: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
});

/** Attempts per request. Bounded so a dead store fails a shipment in seconds; the replicator ships again later. */
const MAX_ATTEMPTS = 3;
const CONNECT_TIMEOUT_MS = 5_000;
const IDLE_TIMEOUT_MS = 30_000;

/** The SDK warns on the console by default (a failed streamed upload, which it never retries); ours says it in the error. */
const QUIET_LOGGER = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

export class S3TeamBlobs {
  readonly shown: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** Credential values from the environment, masked in every message even if a server echoes one back. */
  private readonly secrets: string[];

  private constructor(address: BlobsAddress, client: S3Client, secrets: string[]) {
    this.shown = address.shown;
    this.bucket = address.bucket;
    this.prefix = address.prefix;
    this.client = client;
    this.secrets = secrets;
  }

  static create(address: BlobsAddress, env: Record<string, string | undefined>, options: TeamBlobsOptions = {}): S3TeamBlobs {
    const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim();
    const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim();
    const sessionToken = env.AWS_SESSION_TOKEN?.trim() || undefined;
    // Both keys given: used as they are. Otherwise the SDK's default chain (profiles, SSO, an instance's role).
    const credentials = accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, sessionToken } : undefined;
    const client = new S3Client({
      region: address.region,
      ...(address.endpoint === undefined ? {} : { endpoint: address.endpoint }),
      forcePathStyle: address.forcePathStyle,
      ...(credentials === undefined ? {} : { credentials }),
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: MAX_ATTEMPTS,
      requestHandler: {
        connectionTimeout: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
        socketTimeout: options.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
      },
      logger: QUIET_LOGGER,
    });
    const secrets = [accessKeyId, secretAccessKey, sessionToken].filter((value): value is string => value !== undefined && value.length >= 4);
    return new S3TeamBlobs(address, client, secrets);
  }

  /** `${prefix}sha256/ab/abcdef….png`: from the hash and our own mime table only. */
  keyFor(sha256: string, mime: string): string {
    const checked = Sha256.safeParse(sha256);
    if (!checked.success) throw new TeamBlobsError(`not a blob name: ${JSON.stringify(sha256.slice(0, 80))} (${checked.error.issues[0]?.message})`);
    return `${this.prefix}sha256/${sha256.slice(0, 2)}/${sha256}.${extensionForMime(mime)}`;
  }

  async put(blob: TeamBlob, source: TeamBlobSource): Promise<'uploaded' | 'present'> {
    const parsed = Blob.safeParse(blob);
    if (!parsed.success) throw new TeamBlobsError(`cannot upload to ${this.shown}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    const { sha256, mime, byteSize } = parsed.data;
    const key = this.keyFor(sha256, mime);
    const what = `blob ${sha256.slice(0, 12)}…`;

    // What goes up is checked first: an object whose bytes do not hash to its key would be served as that blob to
    // every reader. Real S3 would refuse it by the checksum header; S3-compatible test servers would not.
    if ('bytes' in source) {
      if (source.bytes.byteLength !== byteSize) throw new TeamBlobsError(`cannot upload ${what} to ${this.shown}: it has ${source.bytes.byteLength} bytes, not the ${byteSize} its row says`);
      if (sha256Of(source.bytes) !== sha256) throw new TeamBlobsError(`cannot upload ${what} to ${this.shown}: its bytes do not hash to its name`);
    } else {
      const size = await stat(source.path).then(
        (stats) => stats.size,
        (error: NodeJS.ErrnoException) => {
          throw new TeamBlobsError(`cannot upload ${what} to ${this.shown}: its file cannot be read (${error.code ?? error.message})`, { cause: error });
        },
      );
      if (size !== byteSize) throw new TeamBlobsError(`cannot upload ${what} to ${this.shown}: its file has ${size} bytes, not the ${byteSize} its row says`);
    }

    const existing = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })).then(
      (head) => head.ContentLength,
      (error: unknown) => {
        // S3 answers a HEAD of a missing key with 403 when the credentials may write but not list the bucket: so
        // 403 here says nothing yet, and the PUT's own answer (with a body that names its reason) is what is told.
        if (isNotFound(error) || (error as SdkFailure)?.$metadata?.httpStatusCode === 403) return undefined;
        throw this.failure(`cannot upload ${what} to`, error);
      },
    );
    // A wrong length is an earlier upload gone bad (the chunk framing above): written again, not trusted.
    if (existing === byteSize) return 'present';

    const checksum = Buffer.from(sha256, 'hex').toString('base64');
    if ('bytes' in source) {
      await this.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: source.bytes, ContentLength: byteSize, ContentType: mime, ChecksumSHA256: checksum }), `cannot upload ${what} to`);
      return 'uploaded';
    }

    // Streamed, and hashed on the way: reading the file first only to hash it would read it twice, and it could still
    // change between the two reads. Real S3 refuses the PUT itself (BadDigest); a server that checks nothing keeps it
    // until the delete below.
    const hash = createHash('sha256');
    const body = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const file = createReadStream(source.path);
    file.on('error', (error) => body.destroy(error));
    file.pipe(body);
    await this.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: byteSize, ContentType: mime, ChecksumSHA256: checksum }), `cannot upload ${what} to`).catch((error: unknown) => {
      file.destroy();
      throw error;
    });
    if (hash.digest('hex') !== sha256) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })).catch(() => undefined);
      throw new TeamBlobsError(`cannot upload ${what} to ${this.shown}: the bytes of its file do not hash to its name (damaged, or changed while it was sent); the object was removed`);
    }
    return 'uploaded';
  }

  async get(sha256: string, mime: string): Promise<Buffer | undefined> {
    const key = this.keyFor(sha256, mime);
    const what = `blob ${sha256.slice(0, 12)}…`;
    let bytes: Buffer;
    try {
      const response = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (response.Body === undefined) throw new TeamBlobsError(`cannot read ${what} from ${this.shown}: the server sent no body`);
      const array = await response.Body.transformToByteArray();
      bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
    } catch (error) {
      if (error instanceof TeamBlobsError) throw error;
      if (isNotFound(error)) return undefined;
      throw this.failure(`cannot read ${what} from`, error);
    }
    const actual = sha256Of(bytes);
    if (actual !== sha256) {
      throw new TeamBlobsError(`${what} in ${this.shown} is damaged: its ${bytes.byteLength} bytes hash to ${actual.slice(0, 12)}…, not to its name`);
    }
    return bytes;
  }

  close(): void {
    this.client.destroy();
  }

  private async send(command: PutObjectCommand, doing: string): Promise<void> {
    try {
      await this.client.send(command);
    } catch (error) {
      throw this.failure(doing, error);
    }
  }

  private failure(doing: string, error: unknown): TeamBlobsError {
    let message = `${doing} the team's blob store at ${this.shown}: ${describeS3Failure(error)}`;
    for (const secret of this.secrets) message = message.split(secret).join('***');
    return new TeamBlobsError(message, { cause: error });
  }
}

interface SdkFailure {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

/** A missing object, and only that: a missing bucket is a failure to report, not an absent blob. */
function isNotFound(error: unknown): boolean {
  const failure = error as SdkFailure;
  if (failure?.name === 'NoSuchBucket') return false;
  return failure?.name === 'NoSuchKey' || failure?.name === 'NotFound' || failure?.$metadata?.httpStatusCode === 404;
}

/** The cause in words a person acts on. */
export function describeS3Failure(error: unknown): string {
  const failure = (error ?? {}) as SdkFailure;
  const code = failure.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'unreachable: the connection was refused (is the server running, and is the endpoint right?)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unreachable: its host name does not resolve';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the server closed the connection';
    case 'ETIMEDOUT':
      return 'unreachable: no answer in time';
  }
  switch (failure.name) {
    case 'TimeoutError':
      // The SDK's handler words its two timeouts this way (a connection never made; a request gone silent).
      return /establish a connection/.test(failure.message ?? '')
        ? 'unreachable: no connection could be made in time (a wrong host, or a firewall?)'
        : 'the server stopped answering in the middle of a request';
    case 'CredentialsProviderError':
      return 'no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
    case 'NoSuchBucket':
      return 'no such bucket';
    case 'AccessDenied':
      return 'access denied (the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY may not use this bucket; S3 also says so of a missing object when they may not list the bucket)';
    case 'InvalidAccessKeyId':
      return 'access denied: the server does not know the access key in AWS_ACCESS_KEY_ID';
    case 'SignatureDoesNotMatch':
      return 'access denied: the signature does not match (check AWS_SECRET_ACCESS_KEY)';
    case 'BadDigest':
    case 'XAmzContentSHA256Mismatch':
      return 'the server received bytes that do not match their checksum';
  }
  const status = failure.$metadata?.httpStatusCode;
  if (status === 403) return 'access denied (HTTP 403; check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and that they may use this bucket)';
  if (status !== undefined && status >= 500) return `the server failed (HTTP ${status}${failure.name && failure.name !== 'Unknown' ? `, ${failure.name}` : ''})`;
  if (status !== undefined) return `the server refused the request (HTTP ${status}${failure.name ? `, ${failure.name}` : ''})`;
  return failure.message ?? String(error);
}
