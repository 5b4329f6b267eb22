/**
 * A session with a row in every replicated table, written through the repositories as a run writes it: a flow
 * session, two turns (one ended with an answer), user and assistant messages (one naming generated media), real
 * PNG screenshots, a pin, steps with tokens and a cost (REAL), a search report with a confidence (REAL) and an
 * injection. For the team store's tests: what they ship, pull and compare.
 */
import type { Storage } from '../../src/main/storage/index.js';
import { makePng } from './seed.js';

export interface ReplicationSession {
  sessionId: string;
  turnIds: string[];
  imageIds: string[];
  stepIds: string[];
  /** The sha256 of the generated media an assistant message names. */
  mediaSha256: string;
}

export async function writeReplicationSession(storage: Storage, title = 'Checkout flow'): Promise<ReplicationSession> {
  const session = storage.sessions.create({ title, operator: 'browser', model: 'test-model', flowName: 'checkout' });
  const turnIds: string[] = [];
  const imageIds: string[] = [];
  const stepIds: string[] = [];
  const media = await storage.media.put(Buffer.from(`RIFF audio of ${title}`), 'audio/wav');
  for (const [index, request] of ['Open the cart', 'Is the total shown?'].entries()) {
    const turn = storage.turns.start({ sessionId: session.id, userRequest: request, stepKind: index === 0 ? 'do' : 'assert' });
    turnIds.push(turn.id);
    storage.messages.append({ sessionId: session.id, turnId: turn.id, message: { role: 'user', parts: [{ type: 'text', text: request }] } });
    for (let step = 0; step < 2; step += 1) {
      const image = await storage.images.put({
        sessionId: session.id,
        turnId: turn.id,
        bytes: await makePng({ seed: 100 + index * 10 + step }),
        mime: 'image/png',
        width: 64,
        height: 48,
        source: 'browser',
        scaleFactor: 1.5,
      });
      imageIds.push(image.id);
      stepIds.push(
        storage.steps.append({
          sessionId: session.id,
          turnId: turn.id,
          action: { action: 'click', x: 10 + step, y: 20 + step },
          thought: `step ${step + 1} of ${request}`,
          screenshotImageId: image.id,
          result: { ok: true },
          latencyMs: 120 + step,
          inputTokens: 1000,
          outputTokens: 40,
          cachedInputTokens: 800,
          costDollars: 0.00246 + step / 1000,
          screenshotView: { width: 64, height: 48, space: 'pixels' },
        }).id,
      );
    }
    storage.messages.append({
      sessionId: session.id,
      turnId: turn.id,
      message:
        index === 0
          ? { role: 'assistant', parts: [{ type: 'text', text: 'Listen.' }, { type: 'audio', mediaId: media.mediaId, mime: 'audio/wav' }], toolCalls: [] }
          : { role: 'assistant', parts: [{ type: 'text', text: 'The total is shown.' }], toolCalls: [] },
    });
    storage.searchReports.add({
      sessionId: session.id,
      turnId: turn.id,
      question: `what is ${request}`,
      queries: [request],
      sources: [{ url: 'https://example.com/' }],
      answer: 'a cart',
      confidence: 0.75,
      iterations: 1,
      durationMs: 900,
    });
    storage.injections.record({ sessionId: session.id, turnId: turn.id, type: 'reminder', contentLength: 42 });
    storage.turns.end(turn.id, 'finished');
  }
  const pinned = storage.pins.pin(imageIds[0]!);
  if (pinned.status !== 'pinned') throw new Error(pinned.message);
  return { sessionId: session.id, turnIds, imageIds, stepIds, mediaSha256: media.sha256 };
}
