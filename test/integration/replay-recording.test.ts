/**
 * What a replay reads of a recorded turn (agent/replay-turn.ts, readRecording) and which turn is a step's recording
 * (TurnsRepository.latestRecording): actions in order with the screens before and after them; calls that only look
 * passed over; a recording that cannot be repeated safely refused with why; only a finished turn is a recording.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StepAction } from '../../src/shared/actions.js';
import { replayKeyOf } from '../../src/shared/replay.js';
import { readRecording } from '../../src/main/agent/replay-turn.js';
import { encodeLossless } from '../../src/main/perception/image-encoding.js';
import type { Storage } from '../../src/main/storage/index.js';
import { createTemporaryStorage, type TemporaryStorage } from '../helpers/temporary-storage.js';

let temporary: TemporaryStorage;
let storage: Storage;

beforeEach(() => {
  temporary = createTemporaryStorage('replay-recording');
  storage = temporary.storage;
});

afterEach(() => temporary.remove());

const VIEW = { imageWidth: 1280, imageHeight: 800, coordinateSpace: 'pixels' };
const KEY = replayKeyOf('Shop', 'do', 'Add apples');

/** A recorded turn: each step acted on a screen of its own; `changed` steps led to a new screen, the others to the same one. */
async function recordedTurn(steps: Array<{ action: StepAction; ok?: boolean; changed?: boolean }>, status: 'finished' | 'failed' | 'stopped' = 'finished'): Promise<{ turnId: string; screens: string[]; after: string[] }> {
  const session = storage.sessions.create({ title: 'Shop', operator: 'browser', model: 'gpt-4.1', flowName: 'Shop' });
  const turn = storage.turns.start({ sessionId: session.id, userRequest: 'Add apples', stepKind: 'do', replayKey: KEY });
  const screens: string[] = [];
  const after: string[] = [];
  for (const step of steps) {
    const screen = await screenshot(session.id, turn.id);
    const next = step.changed === true ? await screenshot(session.id, turn.id) : undefined;
    screens.push(screen);
    after.push(next ?? screen);
    storage.steps.append({
      sessionId: session.id,
      turnId: turn.id,
      action: step.action,
      screenshotImageId: screen,
      screenshotView: VIEW,
      result: { ok: step.ok ?? true, ...(next === undefined ? {} : { screenshotImageId: next }) },
      dedupOfImageId: next === undefined ? screen : null,
    });
  }
  storage.turns.end(turn.id, status);
  return { turnId: turn.id, screens, after };
}

let shade = 0;

async function screenshot(sessionId: string, turnId: string): Promise<string> {
  shade += 1;
  const bytes = await encodeLossless({ rgba: Buffer.alloc(4 * 4 * 4, shade), width: 4, height: 4 });
  return (await storage.images.put({ sessionId, turnId, bytes, mime: 'image/png', width: 4, height: 4, source: 'browser' })).id;
}

describe('reading a recording', () => {
  it('keeps the actions in order with their screens, and passes over what only looks or did nothing', async () => {
    const { turnId, screens, after } = await recordedTurn([
      { action: { action: 'screenshot' } },
      { action: { action: 'click', x: 330, y: 150 }, changed: true },
      { action: { tool: 'get_history_image', arguments: { image_id: 'img_000000000000' } } },
      { action: { action: 'key', keys: 'ctrl+w' }, ok: false },
      { action: { action: 'type', text: '{{SHOPPER}}' } },
      { action: { tool: 'finish', arguments: { summary: 'Added apples.', success: true } } },
    ]);
    const recording = readRecording(storage, turnId);
    expect(recording).toEqual({
      replayable: true,
      turnId,
      summary: 'Added apples.',
      finishedOnImageId: screens[5],
      actions: [
        { index: 1, action: { action: 'click', x: 330, y: 150 }, view: VIEW, beforeImageId: screens[1], afterImageId: after[1] },
        { index: 2, action: { action: 'type', text: '{{SHOPPER}}' }, view: VIEW, beforeImageId: screens[4], afterImageId: screens[4] },
      ],
    });
  });

  it('refuses typing that was masked in the recording: it would type the mask', async () => {
    const { turnId } = await recordedTurn([{ action: { action: 'type', text: '[password]' } }]);
    expect(readRecording(storage, turnId)).toEqual({ replayable: false, turnId, why: 'what it typed is masked in the recording (a password field or a configured secret)' });
  });

  it('refuses a call of another tool, which a replay does not repeat', async () => {
    const { turnId } = await recordedTurn([{ action: { tool: 'send_email', arguments: { to: 'someone' } } }]);
    expect(readRecording(storage, turnId)).toEqual({ replayable: false, turnId, why: 'it called send_email, which a replay does not repeat' });
  });
});

describe("a step's recording", () => {
  it('is the latest finished turn of its key: a failed or stopped one later does not replace it', async () => {
    await recordedTurn([{ action: { action: 'click', x: 1, y: 1 } }]);
    const passing = await recordedTurn([{ action: { action: 'click', x: 2, y: 2 } }]);
    await recordedTurn([{ action: { action: 'click', x: 3, y: 3 } }], 'failed');
    await recordedTurn([{ action: { action: 'click', x: 4, y: 4 } }], 'stopped');
    expect(storage.turns.latestRecording(KEY)?.id).toBe(passing.turnId);
    expect(storage.turns.latestRecording(replayKeyOf('Shop', 'do', 'Add pears'))).toBeUndefined();
  });

  it('is found by the same key whatever the spacing of the text', async () => {
    const { turnId } = await recordedTurn([{ action: { action: 'click', x: 1, y: 1 } }]);
    expect(storage.turns.latestRecording(replayKeyOf('Shop', 'do', '  Add   apples '))?.id).toBe(turnId);
  });
});
