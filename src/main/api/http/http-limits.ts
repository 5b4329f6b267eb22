/**
 * What one client may hold of the timeline server. It listens on 127.0.0.1 only, but any local program
 * (and any page, up to the token check) can open connections: none of them may hold the server's memory or
 * sockets without end.
 */
import { base64Length, MAX_PICTURE_BYTES, MAX_PICTURES_PER_TASK } from '../../../shared/pictures.js';

export interface HttpLimits {
  /** The largest request body accepted by every call but startRun (an ephemeral document fits). */
  maxBodyBytes: number;
  /**
   * The largest startRun body: an ephemeral document and as many pictures as a task may carry, each at the
   * largest size, in base64.
   */
  maxRunBodyBytes: number;
  /**
   * How much of a larger body is read and thrown away so that the 413 reaches the client: a client still
   * sending when the connection closes gets a reset instead of the answer. Past this, the answer is sent
   * and the connection closed.
   */
  maxDiscardedBytes: number;
  /** How long a client may take to send its request headers (Node answers 408 and closes). */
  headersTimeoutMs: number;
  /** How long a client may take to send its whole request, body included (408 as well). */
  requestTimeoutMs: number;
  /** Open event streams at once; more are answered 503 (each holds a socket and a subscription). */
  maxEventStreams: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxBodyBytes: 2 * 1024 * 1024,
  maxRunBodyBytes: 2 * 1024 * 1024 + MAX_PICTURES_PER_TASK * base64Length(MAX_PICTURE_BYTES),
  maxDiscardedBytes: 64 * 1024 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxEventStreams: 16,
};

/**
 * How often Node looks for connections past their timeouts: often enough that a timeout is kept to within
 * a fraction of itself (Node's default looks every 30 s, longer than the timeouts themselves).
 */
export function timeoutCheckIntervalMs(limits: Pick<HttpLimits, 'headersTimeoutMs'>): number {
  return Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4)));
}
