/**
 * An older turn's folded images named in one line (issue 15): where the line goes, what it leaves out, and the
 * messages it must not empty.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages.js';
import { imageIdsIn, placeholderText } from '../../src/main/context/captions.js';
import { nameFoldedImagesInOneLine } from '../../src/main/context/placeholder-sheets.js';
import type { PlannedMessage } from '../../src/main/context/planned-messages.js';
import type { TurnView } from '../../src/main/context/turn-folding.js';
import type { TurnRecord } from '../../src/main/storage/index.js';

const turn: TurnRecord = {
  id: 'turn-7',
  sessionId: 'session',
  sequence: 7,
  userRequest: 'File the report',
  status: 'finished',
  startedAt: '2026-11-22T10:00:00.000Z',
  endedAt: '2026-11-22T10:01:00.000Z',
  compactedAt: null,
  summary: null,
  stepKind: null,
  answer: null,
  replayKey: null,
  replay: null,
};
const view = (errorFrames: string[] = []): TurnView => ({
  turn,
  content: { images: [], steps: [], messages: [] },
  anchors: new Map(errorFrames.map((imageId) => [imageId, ['error' as const]])),
});
const id = (digit: string) => `img_${digit.repeat(12)}`;
const placeholder = (digit: string) => ({ type: 'text' as const, text: placeholderText(id(digit), `step ${digit} · click (1, 2) · 10:00:0${digit} · 64×48`) });
const planned = (message: Message, turnId = turn.id): PlannedMessage => ({ zone: 'earlier', turnId, message });

describe('one line for an older turn\'s folded images', () => {
  it('puts the line where the first folded image was and leaves the other placeholders out, text kept', () => {
    const messages = [
      planned({ role: 'user', parts: [{ type: 'text', text: 'File the report' }] }),
      planned({ role: 'user', parts: [{ type: 'text', text: 'The screen now:' }, placeholder('1')] }),
      planned({ role: 'tool', toolCallId: 'call', name: 'computer', parts: [{ type: 'text', text: 'click done' }, placeholder('2')] }),
      planned({ role: 'tool', toolCallId: 'call2', name: 'computer', parts: [{ type: 'text', text: 'failed' }, placeholder('3')] }),
    ];
    const named = nameFoldedImagesInOneLine(messages, view([id('3')]));
    expect(named[0]).toBe(messages[0]);
    expect(named[1]!.message.parts).toEqual([
      { type: 'text', text: 'The screen now:' },
      { type: 'text', text: `[Visual_Placeholders: ${id('1')} ${id('2')} ${id('3')} (error frame)] turn 7's images, oldest first` },
    ]);
    expect(named[2]!.message.parts).toEqual([{ type: 'text', text: 'click done' }]);
    expect(named[3]!.message.parts).toEqual([{ type: 'text', text: 'failed' }]);
    expect(named.flatMap((entry) => entry.message.parts.flatMap((part) => (part.type === 'text' ? imageIdsIn(part.text) : [])))).toEqual([id('1'), id('2'), id('3')]);
  });

  it('keeps a message made only of placeholders as it is, so that no message is left empty', () => {
    const lone = planned({ role: 'tool', toolCallId: 'call', name: 'computer', parts: [placeholder('1')] });
    const other = planned({ role: 'tool', toolCallId: 'call2', name: 'computer', parts: [{ type: 'text', text: 'done' }, placeholder('2')] });
    const named = nameFoldedImagesInOneLine([lone, other], view());
    expect(named[0]).toBe(lone);
    expect(named[1]!.message.parts).toEqual([{ type: 'text', text: 'done' }, { type: 'text', text: `[Visual_Placeholders: ${id('2')}] turn 7's images, oldest first` }]);
  });

  it('leaves other turns, and a turn without folded images, untouched', () => {
    const elsewhere = planned({ role: 'user', parts: [{ type: 'text', text: 'Other' }, placeholder('1')] }, 'turn-8');
    const plain = planned({ role: 'user', parts: [{ type: 'text', text: 'File the report' }] });
    const named = nameFoldedImagesInOneLine([elsewhere, plain], view());
    expect(named[0]).toBe(elsewhere);
    expect(named[1]).toBe(plain);
  });
});
