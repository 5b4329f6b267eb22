/**
 * Every failure of the team store's PostgreSQL, in words: what happened and where (the URL with its password
 * masked), from the error codes pg and the server give. A message never holds the password: pg's own messages
 * do not, and each is passed through the address's secrets besides.
 */
import { withoutSecrets, type StoreAddress } from './store-url.js';

/**
 * - unreachable: no connection (refused, no such host, no answer in time) or the connection was lost; worth a
 *   retry once the server is back.
 * - refused: the server would not let us in (password, pg_hba, no such database, no permission).
 * - schema: the store was written by a newer Sightline.
 * - failed: anything else (a statement the server rejected or cancelled).
 */
export type TeamStoreFailure = 'unreachable' | 'refused' | 'schema' | 'failed';

/** Messages say what and where (the shown URL), never the password. */
export class TeamStoreError extends Error {
  constructor(
    message: string,
    readonly failure: TeamStoreFailure,
    readonly shown: string,
  ) {
    super(message);
    this.name = 'TeamStoreError';
  }
}

export interface FailureContext {
  address: Pick<StoreAddress, 'shown' | 'secrets' | 'user' | 'database' | 'host'>;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

interface PgLikeError {
  code?: unknown;
  message?: unknown;
}

const LOST_CONNECTION = /Connection terminated|terminating connection|server closed the connection|Client has encountered a connection error|socket hang up/i;

/** The TeamStoreError for what pg threw (a TeamStoreError passes through). */
export function teamStoreFailure(error: unknown, context: FailureContext): TeamStoreError {
  if (error instanceof TeamStoreError) return error;
  const { address } = context;
  const at = `The team store at ${address.shown}`;
  const [failure, words] = describe(error, context);
  const message = failure === 'unreachable' ? `${at} is unreachable: ${words}.` : `${at} ${words}.`;
  return new TeamStoreError(withoutSecrets(message, address), failure, address.shown);
}

function describe(error: unknown, context: FailureContext): [TeamStoreFailure, string] {
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as PgLikeError;
  const text = typeof message === 'string' ? message : String(error);
  const user = context.address.user ?? 'the default user';
  const database = context.address.database ?? 'the default database';
  const seconds = (milliseconds: number) => `${milliseconds / 1000} s`;
  switch (code) {
    case 'ECONNREFUSED':
      return ['unreachable', 'connection refused'];
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return ['unreachable', `the host ${context.address.host} was not found`];
    case 'ETIMEDOUT':
      return ['unreachable', 'the connection timed out'];
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return ['unreachable', 'no route to the host'];
    case 'ECONNRESET':
    case 'EPIPE':
      return ['unreachable', 'the connection was lost (the server closed it or the network dropped)'];
    case '57P01':
    case '57P02':
      return ['unreachable', 'the server shut down'];
    case '57P03':
      return ['unreachable', 'the server is starting up or shutting down'];
    case '28P01':
      return ['refused', `refused the password for the user ${user}`];
    case '28000':
      return ['refused', `refused the login (${text}); check pg_hba.conf and the user`];
    case '3D000':
      return ['refused', `has no database ${database}; create it (createdb) or name another in the URL`];
    case '42501':
      return ['refused', `refused a statement for lack of permission (${text})`];
    case '57014':
      return ['failed', `cancelled a statement that ran longer than ${seconds(context.statementTimeoutMs)}`];
    case '53300':
      return ['unreachable', 'has too many connections open'];
    default:
      break;
  }
  if (/timeout expired|connection timeout/i.test(text)) return ['unreachable', `no answer within ${seconds(context.connectTimeoutMs)}`];
  if (/Query read timeout/i.test(text)) return ['unreachable', `no answer to a statement within ${seconds(context.statementTimeoutMs)}`];
  if (LOST_CONNECTION.test(text)) return ['unreachable', 'the connection was lost (the server stopped or the network dropped)'];
  if (/SASL|password must be a string|client password/i.test(text)) {
    return ['refused', 'asks for a password and none was given (put it in the URL or PGPASSWORD)'];
  }
  return ['failed', `failed: ${text}`];
}
