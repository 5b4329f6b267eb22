/**
 * The queue's address: `redis://[USER:PASSWORD@]HOST[:PORT][/DB]`, or `rediss://` for TLS. Read once into what the
 * Redis client needs; everything that prints it prints `redactedQueueUrl`, so a password in the URL is never shown
 * (in messages, `queue ls`, errors the client passes on).
 */
import { z } from 'zod';
import { maskedQuery } from '../../shared/url-credentials.js';

export interface QueueAddress {
  /** The URL with any credentials replaced by `***`: the only form ever printed. */
  shown: string;
  host: string;
  port: number;
  db: number;
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
}

const DEFAULT_PORT = 6379;

export class QueueUrlError extends Error {
  override name = 'QueueUrlError';
}

export function parseQueueUrl(text: string): QueueAddress {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new QueueUrlError(`expected a Redis URL like redis://127.0.0.1:6379, got ${JSON.stringify(redactedQueueUrl(text).slice(0, 80))}`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new QueueUrlError(`expected a redis:// or rediss:// URL, got ${url.protocol}// (${redactedQueueUrl(text)})`);
  }
  if (url.hostname === '') throw new QueueUrlError(`the URL names no host: ${redactedQueueUrl(text)}`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  const dbText = url.pathname.replace(/^\//, '');
  const db = dbText === '' ? 0 : z.coerce.number().int().min(0).max(15).safeParse(dbText).data;
  if (db === undefined) throw new QueueUrlError(`the database in ${redactedQueueUrl(text)} must be a number from 0 to 15`);
  if (url.search !== '' || url.hash !== '') throw new QueueUrlError(`the URL takes no query or fragment: ${redactedQueueUrl(text)}`);
  return {
    shown: redactedQueueUrl(text),
    // URL keeps IPv6 hosts in brackets; the client wants the bare address.
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db,
    username: url.username === '' ? undefined : decodeURIComponent(url.username),
    password: url.password === '' ? undefined : decodeURIComponent(url.password),
    tls: url.protocol === 'rediss:',
  };
}

/**
 * Any URL in a text (a mistyped scheme too) with its user and password masked: for texts that came from elsewhere (a
 * client's error). Up to the last `@` of the authority, since a password may hold a `/`; and every value of a query
 * and any fragment, which the queue's URL does not take, so whatever is there (`?password=…`) is no setting to show.
 */
export function redactedQueueUrl(text: string): string {
  return text
    .replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s?#]*@/gi, '$1***@')
    .replace(/\?[^\s#]*/g, (query) => maskedQuery(query, { maskAll: true }))
    .replace(/#\S*/g, '#***');
}
