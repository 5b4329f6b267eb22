/** What the editing keys do to typed text (typed-editing.ts): the model the spelled-secret check reads a field through. */
import { describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { editsOf, EditedText } from '../../src/main/agent/typed-editing.js';

/** The text after the actions, each typed by its own piece (its index), and who typed each character. */
function edited(actions: readonly ComputerAction[]): { text: string; owners: number[][] } {
  const field = new EditedText<number>(4096);
  actions.forEach((action, index) => field.apply(editsOf(action), index));
  const text = field.text;
  return { text, owners: [...text].map((_character, at) => [...field.ownersBetween(at, at + 1)]) };
}

const key = (keys: string): ComputerAction => ({ action: 'key', keys });
const type = (text: string): ComputerAction => ({ action: 'type', text });

describe('the text a field ends up holding', () => {
  it.each<[string, ComputerAction[], string]>([
    ['Home, then the first half', [type('cret'), key('Home'), type('se')], 'secret'],
    ['Left arrows', [type('sect'), key('Left'), type('re')], 'secret'],
    ['BackSpace over a typo', [key('s e c x BackSpace r e t')], 'secret'],
    ['Delete after moving back', [type('secxret'), key('Left Left Left Left Delete')], 'secret'],
    ['Up and Down as Home and End', [type('ecre'), key('Up s Down t')], 'secret'],
    ['a word back with ctrl+Left', [type('a cret'), key('ctrl+Left'), type('se')], 'a secret'],
    ['ctrl+BackSpace erasing a word', [type('secret wrong'), key('ctrl+BackSpace BackSpace')], 'secret'],
    ['ctrl+a, then typing over it', [type('wrong'), key('ctrl+a'), type('secret')], 'secret'],
    ['shift+Home, then typing over it', [type('xx'), key('shift+Home'), type('secret')], 'secret'],
    ['shift+Left selecting a typo, then BackSpace', [type('secrXXet'), key('Left Left shift+Left shift+Left BackSpace')], 'secret'],
    ['cmd+Left as Home (macOS)', [type('ret'), key('cmd+Left'), type('sec')], 'secret'],
    ['capital letters with Shift', [key('shift+s e c')], 'Sec'],
  ])('follows %s', (_how, actions, text) => {
    expect(edited(actions).text).toBe(text);
  });

  it('starts a new line after Return, Tab or a click: Home goes no further back than it', () => {
    expect(edited([type('alice'), key('Tab'), type('cret'), key('Home'), type('se')]).text).toBe('alice\nsecret');
    expect(edited([type('alice\nbob'), key('Home'), type('x')]).text).toBe('alice\nxbob');
    expect(edited([type('alice'), { action: 'click', x: 1, y: 1 }, type('cret'), key('Home'), type('se')]).text).toBe('alice\nsecret');
  });

  it('knows which piece typed each character', () => {
    expect(edited([type('cr'), key('Home'), type('se')]).owners).toEqual([[2], [2], [0], [0]]);
  });

  it('adds nothing for a paste or a shortcut, whose text it cannot know', () => {
    expect(edited([type('sec'), key('ctrl+v'), type('ret'), key('alt+F4')]).text).toBe('secret');
  });
});
