import { describe, expect, it } from 'vitest';
import { MessageSchema, imageHasPixels, textOfParts, userText } from '../../src/shared/messages.js';

describe('message model', () => {
  it('turns a plain string into a user message with one text part', () => {
    expect(userText('Open the calculator')).toEqual({ role: 'user', parts: [{ type: 'text', text: 'Open the calculator' }] });
  });

  it('accepts a stored image (id only) and a request image (pixels), and tells them apart', () => {
    const stored = { type: 'image', imageId: 'img_3f9c0a12b7e4' } as const;
    const inline = { type: 'image', imageId: 'img_3f9c0a12b7e4', mime: 'image/png', data: 'iVBORw0KGgo=', width: 10, height: 8 } as const;
    expect(MessageSchema.parse({ role: 'tool', toolCallId: 'c1', name: 'screenshot', parts: [stored] })).toBeTruthy();
    expect(MessageSchema.parse({ role: 'user', parts: [inline] })).toBeTruthy();
    expect(imageHasPixels(stored)).toBe(false);
    expect(imageHasPixels(inline)).toBe(true);
  });

  it('rejects an image with neither id nor pixels, and base64 data without its mime type', () => {
    expect(MessageSchema.safeParse({ role: 'user', parts: [{ type: 'image' }] }).success).toBe(false);
    expect(MessageSchema.safeParse({ role: 'user', parts: [{ type: 'image', data: 'AAAA' }] }).success).toBe(false);
  });

  it('keeps a tool call’s arguments as raw text, malformed or not', () => {
    const parsed = MessageSchema.parse({
      role: 'assistant',
      parts: [],
      toolCalls: [{ id: 'call_1', name: 'click', argumentsText: '{"x": 1,' }],
    });
    expect(parsed).toMatchObject({ toolCalls: [{ argumentsText: '{"x": 1,' }] });
  });

  it('joins the text parts of a list', () => {
    expect(textOfParts([{ type: 'text', text: 'a' }, { type: 'image', url: 'https://x.test/a.png' }, { type: 'text', text: 'b' }])).toBe('a\n\nb');
  });
});
