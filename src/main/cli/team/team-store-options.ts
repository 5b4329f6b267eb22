/**
 * `--store postgres://…` and `--blobs s3://…` (or SIGHTLINE_STORE_URL and SIGHTLINE_BLOBS_URL), shared by `worker`,
 * `sessions`, `report` and `timeline`. Both or neither: rows without their pixels would show every screenshot as
 * missing, pixels without rows are nobody's. Neither is the default: this machine's home, no server.
 *
 * Credentials come from the URL (PostgreSQL's password) or the environment (PGPASSWORD, AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY); only the URLs' shown forms are ever printed, and `teamSecrets` lists the values a command
 * must mask in whatever else it prints.
 */
import { BlobsUrlError, parseBlobsUrl, type BlobsAddress } from '../../team-store/blobs-url.js';
import { parseStoreUrl, StoreUrlError, type StoreAddress } from '../../team-store/store-url.js';
import { EXIT, UserError } from '../io.js';

export const STORE_VARIABLE = 'SIGHTLINE_STORE_URL';
export const BLOBS_VARIABLE = 'SIGHTLINE_BLOBS_URL';

export interface TeamStoreOptions {
  store?: string | undefined;
  blobs?: string | undefined;
}

export interface TeamAddresses {
  store: StoreAddress;
  blobs: BlobsAddress;
}

/** The commander options every team command declares. */
export const TEAM_OPTION_HELP = {
  store: `the team's PostgreSQL: postgres://USER[:PASSWORD]@HOST:PORT/DB (default: ${STORE_VARIABLE})`,
  blobs: `the team's S3-compatible bucket for screenshots: s3://BUCKET[/PREFIX][?endpoint=URL] (default: ${BLOBS_VARIABLE})`,
} as const;

/** The team store named by the flags or the environment, or undefined for this machine's home. */
export function teamAddresses(options: TeamStoreOptions, env: Record<string, string | undefined>): TeamAddresses | undefined {
  const storeText = nonEmpty(options.store) ?? nonEmpty(env[STORE_VARIABLE]);
  const blobsText = nonEmpty(options.blobs) ?? nonEmpty(env[BLOBS_VARIABLE]);
  if (storeText === undefined && blobsText === undefined) return undefined;
  if (storeText === undefined) {
    throw new UserError(`--blobs needs --store too (or ${STORE_VARIABLE}): the sessions' rows are in PostgreSQL, the bucket holds only their screenshots.`, EXIT.usage);
  }
  if (blobsText === undefined) {
    throw new UserError(`--store needs --blobs too (or ${BLOBS_VARIABLE}): the sessions' screenshots are in an S3-compatible bucket, not in PostgreSQL.`, EXIT.usage);
  }
  try {
    return { store: parseStoreUrl(storeText), blobs: parseBlobsUrl(blobsText, env) };
  } catch (error) {
    if (error instanceof StoreUrlError) throw new UserError(`--store: ${error.message}`, EXIT.usage);
    if (error instanceof BlobsUrlError) throw new UserError(`--blobs: ${error.message}`, EXIT.usage);
    throw error;
  }
}

/** The credentials a command must mask in what it prints: the store's password and the S3 secret key. */
export function teamSecrets(addresses: TeamAddresses | undefined, env: Record<string, string | undefined>): string[] {
  if (addresses === undefined) return [];
  return [...addresses.store.secrets, env['PGPASSWORD'], env['AWS_SECRET_ACCESS_KEY'], env['AWS_SESSION_TOKEN']].filter(
    (secret): secret is string => secret !== undefined && secret.length >= 4,
  );
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text;
}
