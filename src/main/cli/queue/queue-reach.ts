/** The client's first contact with the queue: a few tries with backoff, then a clear message (exit 2) instead of a hang. */
import { FlowQueueClient } from '../../queue/flow-queue-client.js';
import { QueueConnection, QueueUnreachableError, RedisClientMissingError } from '../../queue/queue-connection.js';
import type { QueueAddress } from '../../queue/queue-url.js';
import { EXIT, UserError } from '../io.js';

/** About 6 s of tries (0.2 s doubling): long enough for a Redis that is starting, short enough for a typo. */
const CLIENT_TRIES = 5;

export async function reachQueue(address: QueueAddress, stderr: (text: string) => void): Promise<FlowQueueClient> {
  const connection = queueConnection(address, stderr, CLIENT_TRIES);
  try {
    return await FlowQueueClient.open(connection);
  } catch (error) {
    if (error instanceof QueueUnreachableError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}

/** A connection to the queue, or a usage error (exit 2) when this installation cannot speak to Redis at all. */
export function queueConnection(address: QueueAddress, stderr: (text: string) => void, tries: number | undefined): QueueConnection {
  try {
    return new QueueConnection(address, { say: stderr }, tries);
  } catch (error) {
    if (error instanceof RedisClientMissingError) throw new UserError(error.message, EXIT.usage);
    throw error;
  }
}
