/**
 * How the client and the workers reach Redis, and what they say when they cannot. Every BullMQ object (queue,
 * worker, events) opens its own connections; they share one QueueConnection, which gives them the same retry
 * schedule (0.2 s doubling up to 10 s) and says on stderr, with the URL redacted, that the queue is unreachable and
 * when the next try is. A client checking the queue before it enqueues gives up after a few tries (`limit`); once
 * connected, and for workers always, the tries go on for as long as the process lives: commands wait in the
 * client's offline queue, so a result is sent when Redis is back, never dropped.
 */
import { createRequire } from 'node:module';
import { createIORedisClient, RedisConnection, type ConnectionOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { redactedQueueUrl, type QueueAddress } from './queue-url.js';

const FIRST_RETRY_MS = 200;
const LONGEST_RETRY_MS = 10_000;
/** One line per this long at most: a worker has several connections, each retrying on its own. */
const QUIET_MS = 2_000;

export interface Reporting {
  /** A line for the person watching (stderr). */
  say(line: string): void;
}

interface Watched {
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** BullMQ's backend re-emits its connections' `ready`, the first one and each after a reconnection. */
  readonly backend: { on(event: 'ready', listener: () => void): unknown };
}

export class QueueUnreachableError extends Error {
  override name = 'QueueUnreachableError';
}

/** BullMQ 6 brings no Redis client of its own: the one it is built for, ioredis, must be installed beside it. */
export class RedisClientMissingError extends Error {
  override name = 'RedisClientMissingError';
}

/**
 * Gives BullMQ its Redis client. BullMQ 6 loads `ioredis` with `require`, which a native ES module (this package)
 * does not have, so it is loaded here through createRequire and handed over as BullMQ's client factory.
 */
let redisConstructor: (new (options: object) => Redis) | undefined;

function installRedisClient(): void {
  if (redisConstructor !== undefined) return;
  let constructor: new (options: object) => Redis;
  try {
    const loaded = createRequire(import.meta.url)('ioredis') as { default?: typeof constructor } & typeof constructor;
    constructor = loaded.default ?? loaded;
  } catch {
    throw new RedisClientMissingError("the queue needs the Redis client BullMQ is built for, the 'ioredis' package, and it is not installed (npm install ioredis)");
  }
  redisConstructor = constructor;
  RedisConnection.clientFactory ??= (options) => createIORedisClient(new constructor(options) as Parameters<typeof createIORedisClient>[0]);
}

export class QueueConnection {
  private lastError: string | undefined;
  private lastSaid = 0;
  private down = false;
  private giveUp: ((error: QueueUnreachableError) => void) | undefined;
  /** Rejects when the retries run out (only while `limit` is set). */
  readonly gaveUp: Promise<never>;

  constructor(
    readonly address: QueueAddress,
    private readonly reporting: Reporting,
    /** Tries before giving up; undefined: never. */
    private limit: number | undefined,
  ) {
    installRedisClient();
    this.gaveUp = new Promise<never>((_resolve, reject) => (this.giveUp = reject));
    this.gaveUp.catch(() => undefined);
  }

  /** From now on, retry for as long as it takes (the client enqueued: its results must arrive). */
  retryForever(): void {
    this.limit = undefined;
  }

  options(): ConnectionOptions {
    const { host, port, db, username, password, tls } = this.address;
    return {
      host,
      port,
      db,
      ...(username === undefined ? {} : { username }),
      ...(password === undefined ? {} : { password }),
      ...(tls ? { tls: {} } : {}),
      connectTimeout: 5_000,
      maxRetriesPerRequest: null,
      retryStrategy: (times: number) => this.retry(times),
    };
  }

  /** A plain Redis client on the same connection settings and retries, for the commands BullMQ has no call for (cancel-requests.ts). */
  client(): Redis {
    const client = new redisConstructor!(this.options());
    client.on('error', (error: Error) => {
      this.lastError = redactedQueueUrl(error.message);
    });
    client.on('ready', () => this.reached());
    return client;
  }

  /** Listens to an object's errors: BullMQ emits them as events, and an `error` event no one hears would end the process. */
  watch<T extends Watched>(emitter: T): T {
    (emitter as Watched).on('error', (error) => {
      this.lastError = redactedQueueUrl(error.message);
    });
    (emitter as Watched).backend.on('ready', () => this.reached());
    return emitter;
  }

  /** Called when a command went through: says so once after an outage. */
  reached(): void {
    if (!this.down) return;
    this.down = false;
    this.reporting.say(`sightline: the queue at ${this.address.shown} is reachable again\n`);
  }

  private retry(times: number): number | null {
    this.down = true;
    const why = this.lastError === undefined ? '' : ` (${this.lastError})`;
    if (this.limit !== undefined && times > this.limit) {
      this.giveUp?.(new QueueUnreachableError(`cannot reach the queue at ${this.address.shown}${why}; tried ${this.limit} times. Is Redis running there?`));
      return null;
    }
    const delay = Math.min(FIRST_RETRY_MS * 2 ** (times - 1), LONGEST_RETRY_MS);
    const now = Date.now();
    if (now - this.lastSaid >= QUIET_MS) {
      this.lastSaid = now;
      this.reporting.say(`sightline: cannot reach the queue at ${this.address.shown}${why}; retrying in ${(delay / 1000).toFixed(1)} s\n`);
    }
    return delay;
  }
}
