/**
 * One wording of a step's action, for every place that prints one: `sightline run`, `sessions show`, the
 * captions of folded images and the timeline.
 */
import { describe, expect, it } from 'vitest';
import { describeAction, describeForApproval } from '../../src/shared/action-descriptions.js';

describe('an action in words', () => {
  it('describes every kind of action the way a person would say it', () => {
    expect(describeAction({ action: 'click', x: 640.4, y: 412 })).toBe('click (640, 412)');
    expect(describeAction({ action: 'type', text: 'x'.repeat(60) })).toBe(`type "${'x'.repeat(39)}…"`);
    expect(describeAction({ action: 'key', keys: 'ctrl+s' })).toBe('key ctrl+s');
    expect(describeAction({ action: 'drag', x: 1, y: 2, to_x: 3, to_y: 4 })).toBe('drag (1, 2) to (3, 4)');
    expect(describeAction({ action: 'double_click', x: 1, y: 2 })).toBe('double click (1, 2)');
    expect(describeAction({ action: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: -3 })).toBe('scroll (5, 6) by 0, -3');
    expect(describeAction({ action: 'wait', seconds: 2 })).toBe('wait 2s');
    expect(describeAction({ action: 'screenshot' })).toBe('screenshot');
  });

  it('describes pressing and releasing the button alone, holding keys, and the modifiers held during a click or a scroll', () => {
    expect(describeAction({ action: 'mouse_down' })).toBe('mouse down');
    expect(describeAction({ action: 'mouse_down', x: 10.2, y: 20 })).toBe('mouse down (10, 20)');
    expect(describeAction({ action: 'mouse_up', x: 30, y: 40 })).toBe('mouse up (30, 40)');
    expect(describeAction({ action: 'mouse_up' })).toBe('mouse up');
    expect(describeAction({ action: 'hold_key', keys: 'ctrl+w', seconds: 1.5 })).toBe('hold key ctrl+w for 1.5s');
    expect(describeAction({ action: 'scroll', x: 5, y: 6, scroll_x: 0, scroll_y: -3, modifiers: 'ctrl' })).toBe('scroll (5, 6) by 0, -3 with ctrl held');
    expect(describeAction({ action: 'click', x: 1, y: 2, modifiers: 'shift' })).toBe('click (1, 2) with shift held');
    expect(describeAction({ action: 'right_click', x: 1, y: 2, modifiers: 'ctrl+shift' })).toBe('right click (1, 2) with ctrl+shift held');
  });

  it('keeps an action on one line, and names any other tool call by its tool', () => {
    expect(describeAction({ action: 'type', text: 'two\nlines' })).toBe('type "two\\nlines"');
    expect(describeAction({ action: 'key', keys: 'ctrl+a\nDelete' })).toBe('key ctrl+a Delete');
    expect(describeAction({ tool: 'finish', arguments: { summary: 'Done.' } })).toBe('finish');
    expect(describeAction({ tool: 'computer', arguments: '{"action": "click", x: 1' })).toBe('computer');
  });

  it('shows a person asked to approve a tool call its arguments, on one line and cut only when long', () => {
    expect(describeForApproval({ action: 'key', keys: 'alt+F4' })).toBe('key alt+F4');
    expect(describeForApproval({ tool: 'files__delete_file', arguments: { path: '/home/me/notes.txt' } })).toBe('files__delete_file {"path":"/home/me/notes.txt"}');
    expect(describeForApproval({ tool: 'files__write', arguments: { text: 'a\nb\u001b[2J' } })).toBe('files__write {"text":"a\\nb\\u001b[2J"}');
    const long = describeForApproval({ tool: 'files__write', arguments: { text: 'x'.repeat(1000) } });
    expect(long.length).toBeLessThan(450);
    expect(long.endsWith('…')).toBe(true);
  });
});

