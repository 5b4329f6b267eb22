import { describe, expect, it } from 'vitest';
import { planUsKeyboardTyping } from '../../src/main/operators/us-keyboard-typing.js';

function strokes(text: string): string[] {
  const plan = planUsKeyboardTyping(text);
  if (!plan.ok) throw new Error(plan.error);
  return plan.strokes.map((stroke) => (stroke.shift ? `shift+${stroke.key}` : stroke.key));
}

describe('planUsKeyboardTyping', () => {
  it('types letters, digits and spaces with Shift only for capitals', () => {
    expect(strokes('Hi 42')).toEqual(['shift+H', 'I', 'Space', 'Num4', 'Num2']);
  });

  it('types shifted symbols with Shift and their base key', () => {
    expect(strokes('a:b?c=d&e_f')).toEqual([
      'A', 'shift+Semicolon', 'B', 'shift+Slash', 'C', 'Equal', 'D', 'shift+Num7', 'E', 'shift+Minus', 'F',
    ]);
    expect(strokes('~!@#$%^*()+{}|"<>')).toEqual([
      'shift+Grave', 'shift+Num1', 'shift+Num2', 'shift+Num3', 'shift+Num4', 'shift+Num5', 'shift+Num6', 'shift+Num8',
      'shift+Num9', 'shift+Num0', 'shift+Equal', 'shift+LeftBracket', 'shift+RightBracket', 'shift+Backslash', 'shift+Quote',
      'shift+Comma', 'shift+Period',
    ]);
  });

  it('can type every printable ASCII character, tab and newline (a Windows line end once)', () => {
    let ascii = '';
    for (let code = 0x20; code < 0x7f; code++) ascii += String.fromCharCode(code);
    expect(strokes(ascii)).toHaveLength(ascii.length);
    expect(strokes('a\r\nb\tc\n')).toEqual(['A', 'Return', 'B', 'Tab', 'C', 'Return']);
  });

  it('refuses text with a character it cannot type, naming it', () => {
    expect(planUsKeyboardTyping('café')).toEqual({
      ok: false,
      error:
        'cannot type "é" (U+00E9) on this desktop: only the characters of a US keyboard can be typed here ' +
        '(letters, digits, punctuation, space, tab, newline)',
    });
    expect(planUsKeyboardTyping('ok 👍')).toMatchObject({ ok: false, error: expect.stringContaining('U+1F44D') });
  });
});
