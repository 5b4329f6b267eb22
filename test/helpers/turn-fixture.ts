/**
 * Turns written the way the agent loop writes them, without running it: the user's request, "The screen
 * now:" with the first screenshot, then per step an assistant tool call, its tool message (with the
 * screenshot taken after the action, or an error) and its step row; a `finish` call at the end.
 * For context tests (compaction, zones, budget) that need exact control over which steps fail.
 */
import type { ComputerAction } from '../../src/shared/actions.js';
import type { MessagePart } from '../../src/shared/messages.js';
import type { ImageRecord, SessionRecord, StepRecord, Storage, TurnRecord } from '../../src/main/storage/index.js';
import type { TurnEndStatus } from '../../src/shared/statuses.js';
import { makePng } from './seed.js';

export interface FixtureStep {
  action?: ComputerAction;
  /** The operator refused or failed the action: no screenshot, an error result, a failed step. */
  fails?: boolean;
  /** The action ran and its screenshot came back, but the tool result was an error. */
  errorResult?: boolean;
}

export interface FixtureTurnOptions {
  request?: string;
  steps?: FixtureStep[];
  /** How the turn ends; 'running' leaves it open (the active turn). Default finished. */
  status?: TurnEndStatus | 'running';
  finishSummary?: string;
  /** Extra parts for the user's request message (pictures the user attached). */
  requestParts?: MessagePart[];
  width?: number;
  height?: number;
}

export interface FixtureTurn {
  turn: TurnRecord;
  /** Every screenshot of the turn, oldest first (the first one before any step). */
  screenshots: ImageRecord[];
  steps: StepRecord[];
}

let seedCounter = 1000;
let callCounter = 0;

export async function screenshot(storage: Storage, session: SessionRecord, turnId: string | null, size = { width: 64, height: 48 }): Promise<ImageRecord> {
  seedCounter += 1;
  return storage.images.put({
    sessionId: session.id,
    turnId,
    bytes: await makePng({ ...size, seed: seedCounter }),
    mime: 'image/png',
    ...size,
    source: 'screen',
  });
}

export async function recordTurn(storage: Storage, session: SessionRecord, options: FixtureTurnOptions = {}): Promise<FixtureTurn> {
  const request = options.request ?? 'Do the thing';
  const size = { width: options.width ?? 64, height: options.height ?? 48 };
  let turn = storage.turns.start({ sessionId: session.id, userRequest: request });
  const append = (message: Parameters<Storage['messages']['append']>[0]['message']) =>
    storage.messages.append({ sessionId: session.id, turnId: turn.id, message });
  append({ role: 'user', parts: [{ type: 'text', text: request }, ...(options.requestParts ?? [])] });
  const first = await screenshot(storage, session, turn.id, size);
  append({ role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, { type: 'image', imageId: first.id }] });
  const screenshots = [first];
  const steps: StepRecord[] = [];
  let seen = first;
  for (const [index, step] of (options.steps ?? []).entries()) {
    callCounter += 1;
    const callId = `call_fixture_${callCounter}`;
    const action: ComputerAction = step.action ?? { action: 'click', x: 100 + index, y: 200 + index };
    append({ role: 'assistant', parts: [{ type: 'text', text: `Step ${index + 1}.` }], toolCalls: [{ id: callId, name: 'computer', argumentsText: JSON.stringify(action) }] });
    if (step.fails === true) {
      append({ role: 'tool', toolCallId: callId, name: 'computer', parts: [{ type: 'text', text: 'The point is outside the screen.' }], isError: true });
      steps.push(
        storage.steps.append({
          sessionId: session.id,
          turnId: turn.id,
          action,
          screenshotImageId: seen.id,
          result: { ok: false },
          error: 'The point is outside the screen.',
        }),
      );
      continue;
    }
    const after = await screenshot(storage, session, turn.id, size);
    screenshots.push(after);
    append({
      role: 'tool',
      toolCallId: callId,
      name: 'computer',
      parts: [{ type: 'text', text: step.errorResult === true ? 'The page shows an error.' : 'done' }, { type: 'image', imageId: after.id }],
      ...(step.errorResult === true ? { isError: true } : {}),
    });
    steps.push(
      storage.steps.append({
        sessionId: session.id,
        turnId: turn.id,
        action,
        screenshotImageId: seen.id,
        result: { ok: step.errorResult !== true, screenshotImageId: after.id },
        ...(step.errorResult === true ? { error: 'The page shows an error.' } : {}),
      }),
    );
    seen = after;
  }
  const status = options.status ?? 'finished';
  if (status !== 'running') {
    callCounter += 1;
    const callId = `call_fixture_${callCounter}`;
    const summary = options.finishSummary ?? `Finished: ${request}`;
    append({ role: 'assistant', parts: [], toolCalls: [{ id: callId, name: 'finish', argumentsText: JSON.stringify({ summary, success: true }) }] });
    append({ role: 'tool', toolCallId: callId, name: 'finish', parts: [{ type: 'text', text: 'Turn finished.' }] });
    steps.push(storage.steps.append({ sessionId: session.id, turnId: turn.id, action: { tool: 'finish', arguments: { summary } }, result: { ok: true } }));
    turn = storage.turns.end(turn.id, status);
  }
  return { turn, screenshots, steps };
}
