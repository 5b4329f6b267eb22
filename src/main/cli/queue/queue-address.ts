/** Where the queue is: `--queue URL`, else SIGHTLINE_QUEUE_URL. A bad URL is a usage error that never shows its password. */
import { parseQueueUrl, QueueUrlError, type QueueAddress } from '../../queue/queue-url.js';
import { EXIT, UserError } from '../io.js';

export const QUEUE_URL_VARIABLE = 'SIGHTLINE_QUEUE_URL';

export function queueAddressOf(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): QueueAddress | undefined {
  const fromEnv = env[QUEUE_URL_VARIABLE];
  const text = flag ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
  if (text === undefined) return undefined;
  try {
    return parseQueueUrl(text);
  } catch (error) {
    if (error instanceof QueueUrlError) throw new UserError(`${flag === undefined ? QUEUE_URL_VARIABLE : '--queue'}: ${error.message}.`, EXIT.usage);
    throw error;
  }
}

export function requiredQueueAddress(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): QueueAddress {
  const address = queueAddressOf(flag, env);
  if (address === undefined) throw new UserError(`no queue: give --queue redis://HOST:PORT or set ${QUEUE_URL_VARIABLE}.`, EXIT.usage);
  return address;
}
