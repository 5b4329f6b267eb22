/**
 * A turn's ephemeral context: checked when the turn is asked for (the caller's mistake is refused before
 * any turn exists) and recorded once when the turn starts, as type and length only: the content is never
 * written anywhere, it only reaches the model inside the turn's requests.
 */
import { z } from 'zod';
import { EphemeralContextSchema, type EphemeralContext } from '../../shared/ephemeral.js';
import type { Storage } from '../storage/index.js';

/** The turn request's ephemeral context is not what the schema allows (an unknown type, empty or too long). */
export class InvalidEphemeralContextError extends Error {
  override name = 'InvalidEphemeralContextError';
}

const EphemeralListSchema = z.array(EphemeralContextSchema);

export function checkedEphemeralContexts(contexts: readonly EphemeralContext[] | undefined): EphemeralContext[] {
  const parsed = EphemeralListSchema.safeParse(contexts ?? []);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  throw new InvalidEphemeralContextError(`The ephemeral context is not valid${where}: ${issue?.message ?? 'unknown problem'}.`);
}

export function recordTurnInjections(
  storage: Storage,
  turn: { sessionId: string; turnId: string },
  contexts: readonly EphemeralContext[],
): void {
  if (contexts.length === 0) return;
  storage.transaction(() => {
    for (const injected of contexts) {
      storage.injections.record({
        sessionId: turn.sessionId,
        turnId: turn.turnId,
        type: injected.type,
        contentLength: injected.content.length,
      });
    }
  });
}
