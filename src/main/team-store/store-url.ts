/**
 * The team store's address: `postgres://user:password@host:port/database?sslmode=…` (or `postgresql://`), as
 * `--store` and SIGHTLINE_STORE_URL give it. The password may also come from PGPASSWORD, which pg reads itself.
 * Everything printed uses `shown`, the URL with its password masked, and so is every credential setting of its query
 * (`password`, `sslpassword`, any name holding "password": shared/url-credentials.ts) and any #fragment; the secrets
 * are kept only inside the connection string handed to pg.
 */
import { credentialValues, MASK, maskedQuery } from '../../shared/url-credentials.js';

/** A store URL that cannot be used; the message says what is wrong without repeating a password. */
export class StoreUrlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreUrlError';
  }
}

export interface StoreAddress {
  /** The URL as it may be printed: the password, every credential setting (`sslpassword`…) and a fragment masked as ***. */
  shown: string;
  /** The URL as given, for pg: it holds the password. */
  connectionString: string;
  host: string;
  port: number;
  database: string | undefined;
  user: string | undefined;
  /** The secrets of the URL (decoded and as written), which no message may contain. */
  secrets: readonly string[];
}

const SCHEMES = ['postgres:', 'postgresql:'];
const DEFAULT_PORT = 5432;

export function parseStoreUrl(text: string): StoreAddress {
  const trimmed = text.trim();
  if (trimmed === '') throw new StoreUrlError('The team store URL is empty; give one like postgres://user:password@host:5432/sightline.');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new StoreUrlError(`The team store URL ${describeUnparsed(trimmed)} is not a URL; give one like postgres://user:password@host:5432/sightline.`);
  }
  const secrets = secretsOf(url);
  const shown = maskedUrl(url);
  if (!SCHEMES.includes(url.protocol)) {
    // Only the scheme: what follows a foreign one may be anything, a password included.
    throw new StoreUrlError(`The team store URL must start with postgres:// or postgresql://, not ${url.protocol}.`);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new StoreUrlError(`The team store URL ${shown} names no host; give one like postgres://user:password@host:5432/sightline.`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new StoreUrlError(`The team store URL ${shown} has an invalid port.`);
  const path = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (path.includes('/')) throw new StoreUrlError(`The team store URL ${shown} names more than a database in its path.`);
  const address = {
    shown,
    host,
    port,
    database: path === '' ? undefined : path,
    user: url.username === '' ? undefined : decodeURIComponent(url.username),
  };
  // Not enumerable, as pg keeps its password: an address logged or serialised whole shows no secret.
  return Object.defineProperties(address, {
    connectionString: { value: trimmed, enumerable: false },
    secrets: { value: secrets, enumerable: false },
  }) as StoreAddress;
}

/** The text with every secret of the address replaced by ***: for messages built from what pg said. */
export function withoutSecrets(text: string, address: Pick<StoreAddress, 'secrets'>): string {
  let masked = text;
  for (const secret of address.secrets) {
    if (secret.length > 0) masked = masked.split(secret).join(MASK);
  }
  return masked;
}

function secretsOf(url: URL): string[] {
  const written = [url.password].filter((secret) => secret !== '');
  const decoded = written.map((secret) => safeDecode(secret));
  return [...new Set([...written, ...decoded, ...credentialValues(url.search)])].sort((left, right) => right.length - left.length);
}

function maskedUrl(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password !== '') copy.password = MASK;
  // pg never reads a fragment, so nothing there is for it; whatever was pasted there is not printed either.
  if (copy.hash !== '') copy.hash = MASK;
  return `${copy.href.slice(0, copy.href.length - copy.search.length - copy.hash.length)}${maskedQuery(copy.search)}${copy.hash}`;
}

/** Something that is not a URL may still hold a password after a colon: show only its start. */
function describeUnparsed(text: string): string {
  const start = text.split(/[:@]/)[0] ?? '';
  return JSON.stringify(text.length > start.length ? `${start}…` : start);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
