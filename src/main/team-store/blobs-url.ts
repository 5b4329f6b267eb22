/**
 * The team's blob store address: `s3://BUCKET[/PREFIX][?endpoint=URL&region=NAME&path_style=true|false]`.
 * Credentials never travel in it: the S3 client takes them from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (or the
 * SDK's other default sources), so `shown` can be printed anywhere. A URL that does carry them is refused, with
 * the message masking them: a log line is the wrong place to learn a secret was pasted.
 */
import { z } from 'zod';

export interface BlobsAddress {
  /** `s3://bucket/prefix` and the endpoint when there is one: the only form ever printed. */
  shown: string;
  bucket: string;
  /** '' or a prefix ending in '/', put before every object key. */
  prefix: string;
  /** An S3-compatible server (MinIO, Garage, s3rver…); undefined for AWS itself. */
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

export class BlobsUrlError extends Error {
  override name = 'BlobsUrlError';
}

const DEFAULT_REGION = 'us-east-1';
const QUERY_KEYS = ['endpoint', 'region', 'path_style'] as const;
const EXAMPLE = 's3://bucket/prefix?endpoint=http://127.0.0.1:4568';

/** S3's bucket naming rules (general purpose buckets): what AWS refuses, refused here with the rule in words. */
const BucketName = z
  .string()
  .min(3, 'a bucket name has 3 to 63 characters')
  .max(63, 'a bucket name has 3 to 63 characters')
  .regex(/^[a-z0-9.-]+$/, 'a bucket name holds only lowercase letters, digits, dots and hyphens')
  .regex(/^[a-z0-9].*[a-z0-9]$/, 'a bucket name begins and ends with a letter or a digit')
  .refine((name) => !name.includes('..'), 'a bucket name has no two dots in a row')
  .refine((name) => !/^\d+\.\d+\.\d+\.\d+$/.test(name), 'a bucket name is not an IP address')
  .refine((name) => !/^(xn--|sthree-|amzn-s3-demo-)/.test(name), 'a bucket name does not begin with xn--, sthree- or amzn-s3-demo-')
  .refine((name) => !/(-s3alias|--ol-s3|\.mrap|--x-s3|--table-s3)$/.test(name), 'a bucket name does not end with a suffix S3 reserves (-s3alias, --ol-s3, .mrap, --x-s3, --table-s3)');

/** Prefix segments a person chose for the store: plain names, so no key ever holds `..`, a space or an escape. */
const PrefixSegment = z
  .string()
  .regex(/^[A-Za-z0-9._-]+$/, 'each part of the prefix holds only letters, digits, dots, hyphens and underscores')
  .refine((segment) => segment !== '.' && segment !== '..', 'the prefix has no . or .. part');

const Region = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a region is a name like us-east-1 (lowercase letters, digits, hyphens)');

const PathStyle = z.enum(['true', 'false'], { error: 'path_style is true or false' });

const Endpoint = z.string().transform((text, context) => {
  // By the text first: a secret key with a '/' in it ends the parsed URL's authority early.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^?#]*@/i.test(text)) {
    context.addIssue({ code: 'custom', message: credentialsAdvice('the endpoint') });
    return z.NEVER;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    context.addIssue({ code: 'custom', message: `the endpoint is not a URL (expected one like http://127.0.0.1:4568)` });
    return z.NEVER;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    context.addIssue({ code: 'custom', message: `the endpoint must be an http:// or https:// URL, not ${url.protocol}//` });
    return z.NEVER;
  }
  if (url.username !== '' || url.password !== '') {
    context.addIssue({ code: 'custom', message: credentialsAdvice('the endpoint') });
    return z.NEVER;
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    context.addIssue({ code: 'custom', message: `the endpoint is a server's address only (scheme, host, port), with no path or query: ${url.origin}` });
    return z.NEVER;
  }
  return url.origin;
});

function credentialsAdvice(where: string): string {
  return `${where} carries credentials; leave them out and set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment instead`;
}

function fail(text: string, problem: string): never {
  throw new BlobsUrlError(`${problem} (in ${redactedBlobsUrl(text)})`);
}

function check<T>(schema: z.ZodType<T>, value: unknown, text: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) fail(text, parsed.error.issues[0]?.message ?? 'invalid value');
  return parsed.data;
}

export function parseBlobsUrl(text: string, env: Record<string, string | undefined> = process.env): BlobsAddress {
  const trimmed = text.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
  if (scheme === undefined) throw new BlobsUrlError(`expected an S3 URL like ${EXAMPLE}, got ${JSON.stringify(redactedBlobsUrl(trimmed).slice(0, 80))}`);
  if (scheme.toLowerCase() !== 's3') throw new BlobsUrlError(`expected an s3:// URL like ${EXAMPLE}, got a ${scheme}: URL (${redactedBlobsUrl(trimmed)})`);
  // Checked before anything else is said about the URL, so no later message is the one that echoes a secret. By
  // the text, not the parsed URL: a secret key may hold a '/', which would end the URL's authority early.
  if (/^s3:\/\/[^?#]*@/i.test(trimmed)) fail(trimmed, credentialsAdvice('the blobs URL'));
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BlobsUrlError(`expected an S3 URL like ${EXAMPLE}, got ${JSON.stringify(redactedBlobsUrl(trimmed).slice(0, 80))}`);
  }
  if (url.username !== '' || url.password !== '') fail(trimmed, credentialsAdvice('the blobs URL'));
  if (url.hostname === '') fail(trimmed, `the URL names no bucket (expected one like ${EXAMPLE})`);
  if (url.port !== '') fail(trimmed, 'a bucket has no port: give the server as ?endpoint=http://HOST:PORT');
  if (url.hash !== '') fail(trimmed, 'the URL takes no #fragment');
  const bucket = check(BucketName, url.hostname, trimmed);

  // From the text, not url.pathname: URL resolves `a/../b` to `b`, and a prefix that says `..` is a mistake to report.
  const rawPath = /^s3:\/\/[^/?#]*([^?#]*)/i.exec(trimmed)?.[1] ?? '';
  const segments = rawPath.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.includes('')) fail(trimmed, 'the prefix has an empty part (two slashes in a row)');
  for (const segment of segments) check(PrefixSegment, segment, trimmed);
  const prefix = segments.length === 0 ? '' : `${segments.join('/')}/`;

  const query = new Map<string, string>();
  for (const [key, value] of url.searchParams) {
    if (!(QUERY_KEYS as readonly string[]).includes(key)) fail(trimmed, `unknown setting ${JSON.stringify(key)}: the URL takes ${QUERY_KEYS.join(', ')}`);
    if (query.has(key)) fail(trimmed, `${key} is given twice`);
    query.set(key, value);
  }
  const endpointText = query.get('endpoint');
  const endpoint = endpointText === undefined ? undefined : check(Endpoint, endpointText, trimmed);
  const regionText = query.get('region') ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? DEFAULT_REGION;
  const region = check(Region, regionText, trimmed);
  const pathStyle = query.get('path_style');
  // S3-compatible servers (MinIO, Garage, s3rver) answer on one host, so path style is their default; AWS's is
  // virtual-hosted (bucket.s3.amazonaws.com).
  const forcePathStyle = pathStyle === undefined ? endpoint !== undefined : check(PathStyle, pathStyle, trimmed) === 'true';

  return {
    shown: `s3://${bucket}${prefix === '' ? '' : `/${prefix.slice(0, -1)}`}${endpoint === undefined ? '' : `?endpoint=${endpoint}`}`,
    bucket,
    prefix,
    endpoint,
    region,
    forcePathStyle,
  };
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/**
 * The text with whatever could be a secret masked: user and password of any URL in it (also percent-encoded, as an
 * endpoint in a query is), the values of settings the URL does not know (someone's `secret=…`), and an endpoint's
 * own query or fragment (`endpoint=http://minio:9000/?password=…`), of which only the origin is used; and a fragment.
 */
export function redactedBlobsUrl(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s?#&]*@/gi, '$1***@')
    .replace(/([a-z][a-z0-9+.-]*%3A%2F%2F)[^\s?#&]*(?:@|%40)/gi, '$1***@')
    .replace(/([?&])([^=&#]*)=([^&#]*)/g, (whole, separator: string, key: string, value: string) => {
      if (key === 'endpoint') return `${separator}${key}=${value.replace(/(\?|%3F|#|%23)[\s\S]*$/i, '$1***')}`;
      return (QUERY_KEYS as readonly string[]).includes(key) ? whole : `${separator}${key}=***`;
    })
    .replace(/#\S*/, '#***');
}
