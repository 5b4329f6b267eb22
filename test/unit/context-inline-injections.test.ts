import { describe, expect, it } from 'vitest';
import { ephemeralBlock } from '../../src/main/context/ephemeral-injection.js';
import { cleanUserRequest, stripInlineBlocks } from '../../src/main/context/inline-injections.js';
import { injectionDebugLogFromEnvironment } from '../../src/main/context/ephemeral-injection.js';
import type { UserMessage } from '../../src/shared/messages.js';

const NOTE_OPEN = '—————当前笔记————';
const NOTE_CLOSE = '—————当前笔记如上————';
const QUOTE_OPEN = '—————当前引用体————';
const QUOTE_CLOSE = '—————当前引用体如上————';

describe('stripInlineBlocks', () => {
  it('removes a note block between its markers, with the markers', () => {
    const text = `Open the invoice\n${NOTE_OPEN}\nNOTE-SECRET 4471-B\n${NOTE_CLOSE}`;
    expect(stripInlineBlocks(text)).toBe('Open the invoice');
  });

  it('removes a quote block and keeps the words after it', () => {
    const text = `Translate this\n${QUOTE_OPEN}\nQUOTED to be or not\n${QUOTE_CLOSE}\ninto French, please`;
    expect(stripInlineBlocks(text)).toBe('Translate this\ninto French, please');
  });

  it('removes both kinds in one message', () => {
    const text = `${NOTE_OPEN}\nNOTE-A\n${NOTE_CLOSE}\nDo it\n${QUOTE_OPEN}\nQUOTE-B\n${QUOTE_CLOSE}`;
    expect(stripInlineBlocks(text)).toBe('Do it');
  });

  it('removes a nested block with its outer block, up to the balancing closing marker', () => {
    const sameKind = `Start\n${NOTE_OPEN}\nouter\n${NOTE_OPEN}\ninner\n${NOTE_CLOSE}\nOUTER-TAIL\n${NOTE_CLOSE}\nEnd`;
    expect(stripInlineBlocks(sameKind)).toBe('Start\nEnd');
    const mixed = `Start\n${NOTE_OPEN}\nnote\n${QUOTE_OPEN}\nquote in note\n${QUOTE_CLOSE}\nNOTE-TAIL\n${NOTE_CLOSE}\nEnd`;
    expect(stripInlineBlocks(mixed)).toBe('Start\nEnd');
  });

  it('removes an unterminated block to the end of the text', () => {
    expect(stripInlineBlocks(`Click send\n${QUOTE_OPEN}\nQUOTE-NEVER-CLOSED\nmore`)).toBe('Click send');
    expect(stripInlineBlocks(`Click send\n${NOTE_OPEN}\nouter\n${NOTE_OPEN}\ninner\n${NOTE_CLOSE}\nstill outer`)).toBe('Click send');
  });

  it('leaves nothing of a message made only of a block', () => {
    expect(stripInlineBlocks(`${NOTE_OPEN}\nonly a note\n${NOTE_CLOSE}\n`)).toBe('');
    expect(stripInlineBlocks(`${QUOTE_OPEN}\nonly a quote\n${QUOTE_CLOSE}`)).toBe('');
  });

  it('reads markers drawn with any number of dashes, and removes a stray closing marker alone', () => {
    expect(stripInlineBlocks('A\n——当前笔记——\nX\n———————当前笔记如上——\nB')).toBe('A\nB');
    expect(stripInlineBlocks(`Keep this\n${NOTE_CLOSE}\nand this`)).toBe('Keep this\nand this');
  });

  it('returns text without markers unchanged, the person\'s own words about notes included', () => {
    const text = '  Write 笔记 in the title\n\nthen save  ';
    expect(stripInlineBlocks(text)).toBe(text);
  });
});

describe('cleanUserRequest', () => {
  it("removes Sightline's own blocks and older clients' blocks, keeps images, drops emptied text parts", () => {
    const request: UserMessage = {
      role: 'user',
      parts: [
        { type: 'text', text: `Book the flight\n\n${ephemeralBlock({ type: 'note', content: 'OWN-BLOCK' })}` },
        { type: 'image', imageId: 'img_0123456789ab' },
        { type: 'text', text: `${QUOTE_OPEN}\nOLD-CLIENT-QUOTE\n${QUOTE_CLOSE}` },
      ],
    };
    const cleaned = cleanUserRequest(request);
    expect(cleaned.parts).toEqual([
      { type: 'text', text: 'Book the flight' },
      { type: 'image', imageId: 'img_0123456789ab' },
    ]);
  });

  it('returns the same message when nothing was injected, and logs nothing', () => {
    const lines: string[] = [];
    const request: UserMessage = { role: 'user', parts: [{ type: 'text', text: 'Plain' }] };
    expect(cleanUserRequest(request, (line) => lines.push(line))).toBe(request);
    expect(lines).toEqual([]);
  });

  it('logs the original, cleaned and stripped lengths, never the content', () => {
    const lines: string[] = [];
    const text = `Go\n${NOTE_OPEN}\nNOTE-SECRET\n${NOTE_CLOSE}`;
    cleanUserRequest({ role: 'user', parts: [{ type: 'text', text }] }, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`original ${text.length}, cleaned 2, stripped ${text.length - 2} characters`);
    expect(lines[0]).not.toContain('NOTE-SECRET');
  });
});

describe('injectionDebugLogFromEnvironment', () => {
  it('also debugs with DEBUG_EPHEMERAL_INJECTION=true, the variable the injection design names', () => {
    const write = (): void => undefined;
    expect(injectionDebugLogFromEnvironment({ DEBUG_EPHEMERAL_INJECTION: 'true' }, write)).toBe(write);
    expect(injectionDebugLogFromEnvironment({ DEBUG_EPHEMERAL_INJECTION: 'false' }, write)).toBeUndefined();
  });
});
