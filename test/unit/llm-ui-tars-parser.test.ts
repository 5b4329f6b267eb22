/**
 * The UI-TARS parser over real UI-TARS answers: each row is an answer as published (its source cited), and
 * the thought and Sightline actions it must become. Rows marked "template" are the action forms the prompt
 * templates themselves show the model (ui-tars-prompts.ts), for actions no published answer covers.
 *
 * Sources:
 *   deploy  — bytedance/UI-TARS README_deploy.md, "Expected Output"
 *   parser  — bytedance/UI-TARS codes/tests/action_parser_test.py
 *   desktop — bytedance/UI-TARS-desktop packages/ui-tars/action-parser/test/actionParser.test.ts
 *   doubao  — bytedance/UI-TARS-desktop apps/ui-tars/src/main/agent/prompts.ts, getSystemPromptDoubao_15_20B "Output Examples"
 *   template — the COMPUTER_USE / browser templates' action space lines
 */
import { describe, expect, it } from 'vitest';
import type { ComputerAction } from '../../src/shared/actions.js';
import { parseKeyCombinations } from '../../src/main/operators/key-combination.js';
import { SCROLL_NOTCHES, WAIT_SECONDS, type UiTarsStep } from '../../src/main/llm/dialects/ui-tars/ui-tars-actions.js';
import { readHotkey } from '../../src/main/llm/dialects/ui-tars/ui-tars-keys.js';
import { MAX_ACTIONS_PER_ANSWER, parseUiTarsReply } from '../../src/main/llm/dialects/ui-tars/ui-tars-reply.js';

type Expected = ComputerAction | { finished: string } | 'call_user' | { unreadable: RegExp };

interface Row {
  source: string;
  answer: string;
  thought?: string;
  steps: Expected[];
}

const PREFERENCES_THOUGHT =
  '我看到Preferences窗口已经打开了，但这里显示的都是系统资源相关的设置。要设置图片的颜色模式，我得先看看左侧的选项列表。嗯，"Color Management"这个选项看起来很有希望，应该就是处理颜色管理的地方。让我点击它看看里面有什么选项。';
const WEATHER_THOUGHT = '我看到当前屏幕显示的是一个电子表格软件和一个聊天窗口，而任务要求我需要在浏览器中搜索北京明天天气。我需要先点击任务栏上的浏览器图标来启动浏览器。';
const NEWS_THINKING = `<think>
Okay, let's see. The user wants to search news, but the current search bar has "hi" in it. First, I need to clear that. The search bar has an 'X' button on the right, so clicking that will remove the existing text. Then, I can type "news" into the search bar. Wait, but maybe after clearing, I should enter the new search term. Let's check the steps again. Clear the search bar, type "news", then press enter or click the search icon. That should initiate a news search. Let's do that step by step.
</think>
`;
const NEWS_THOUGHT =
  'To search for news, first clear the existing text "hi" from the Google search bar by clicking the \'X\' icon. Then, type "news" into the search bar and press Enter to perform the search. This will display news-related results.';

const ROWS: Row[] = [
  { source: 'deploy', answer: `Thought: ${PREFERENCES_THOUGHT}\nAction: click(start_box='(177,549)')`, thought: PREFERENCES_THOUGHT, steps: [{ action: 'click', x: 177, y: 549 }] },
  { source: 'parser test_parse_action_to_structure_output', answer: "Thought: test\nAction: click(point='<point>200 300</point>')", thought: 'test', steps: [{ action: 'click', x: 200, y: 300 }] },
  { source: 'parser test_parse_action_with_box_tokens', answer: "Thought: test\nAction: click(start_box='<|box_start|>(112,224)<|box_end|>')", thought: 'test', steps: [{ action: 'click', x: 112, y: 224 }] },
  { source: 'desktop "input with Thought"', answer: "Thought: I need to click this button\nAction: click(start_box='(100,200)')", thought: 'I need to click this button', steps: [{ action: 'click', x: 100, y: 200 }] },
  {
    source: 'desktop "Reflection and Action_Summary"',
    answer: "Reflection: This is a reflection\nAction_Summary: This is a summary\nAction: type(text='Hello', start_box='(300,400)')",
    thought: 'This is a summary',
    steps: [{ action: 'type', text: 'Hello' }],
  },
  {
    source: 'desktop "multiple actions"',
    answer: "Thought: Perform multiple actions\nAction: click(start_box='(100,200)')\n\ntype(text='Hello', start_box='(300,400)')",
    thought: 'Perform multiple actions',
    steps: [{ action: 'click', x: 100, y: 200 }, { action: 'type', text: 'Hello' }],
  },
  { source: 'desktop "<bbox> new format"', answer: `Thought: ${WEATHER_THOUGHT}\nAction: click(start_box='<bbox>637 964 637 964</bbox>')`, thought: WEATHER_THOUGHT, steps: [{ action: 'click', x: 637, y: 964 }] },
  { source: 'desktop "<think> then <point>"', answer: `${NEWS_THINKING}Thought: ${NEWS_THOUGHT}\nAction: click(point='<point>510 150</point>')`, thought: NEWS_THOUGHT, steps: [{ action: 'click', x: 510, y: 150 }] },
  { source: 'desktop "[x1,y1,x2,y2] new format"', answer: `Thought: ${WEATHER_THOUGHT}\nAction: click(start_box='[637,964,637,964]')`, steps: [{ action: 'click', x: 637, y: 964 }] },
  {
    source: 'desktop "start_box and end_box"',
    answer: "Thought: I need to click on this element\nAction: drag(start_box='[130,226]', end_box='[200,226]')",
    steps: [{ action: 'drag', x: 130, y: 226, to_x: 200, to_y: 226 }],
  },
  { source: 'desktop "Chinese colon"', answer: "Thought: I need to click this button\nAction：click(start_box='(100,200)')", thought: 'I need to click this button', steps: [{ action: 'click', x: 100, y: 200 }] },
  { source: 'desktop "Chinese colon in the middle of the text"', answer: "\n\nAction：click(start_box='<bbox>191 21 191 21</bbox>')", thought: '', steps: [{ action: 'click', x: 191, y: 21 }] },
  { source: 'desktop "four coordinates"', answer: "Thought: I need to click on this element\nAction: click(start_box='[348, 333, 928, 365]')", steps: [{ action: 'click', x: 638, y: 349 }] },
  { source: 'desktop "zero coordinates"', answer: "Thought: I need to click on the start button\nAction: click(start_box='[0, 964, 10, 984]')", steps: [{ action: 'click', x: 5, y: 974 }] },
  {
    source: 'desktop "box marker coordinates"',
    answer: "Thought: Click open\nAction: click(start_box='<|box_start|>(1290,718)<|box_end|>(1350,747)<|box_end|>')",
    steps: [{ action: 'click', x: 1320, y: 732.5 }],
  },
  { source: 'desktop "Action marker inside quoted arguments"', answer: "Thought: Type raw text exactly\nAction: type(content='Action: wait()')", thought: 'Type raw text exactly', steps: [{ action: 'type', text: 'Action: wait()' }] },
  { source: 'desktop "non-box payload with parentheses"', answer: "Thought: Type literal parentheses\nAction: type(content='()()')", steps: [{ action: 'type', text: '()()' }] },
  {
    source: 'desktop "possessive apostrophe in thought"',
    answer: "Thought: Open users' settings and continue.\nAction: click(start_box='(100,200)')",
    thought: "Open users' settings and continue.",
    steps: [{ action: 'click', x: 100, y: 200 }],
  },
  { source: 'desktop "unterminated quote in thought"', answer: 'Thought: click "Settings\nAction: wait()', thought: 'click "Settings', steps: [{ action: 'wait', seconds: WAIT_SECONDS }] },
  {
    source: 'desktop "Action keyword inside thought text"',
    answer: 'Thought: I should avoid writing "Action: wait()" in reasoning.\nAction: click(start_box=\'[100,200]\')',
    steps: [{ action: 'click', x: 100, y: 200 }],
  },
  { source: 'desktop "empty action input"', answer: 'Thought: Empty action\nAction:', thought: 'Empty action', steps: [{ unreadable: /names no action/ }] },
  { source: 'desktop "inline function-like text without Action marker"', answer: 'I should wait() until the page is stable.', steps: [{ unreadable: /no "Action:" line/ }] },
  { source: 'doubao Output Examples', answer: "Thought: Write your thoughts here in English, your thinking style should follow the Thought Examples above...\nAction: click(point='<point>10 20</point>')", steps: [{ action: 'click', x: 10, y: 20 }] },
  { source: 'template left_double', answer: "Thought: Open the file.\nAction: left_double(start_box='<|box_start|>(412,300)<|box_end|>')", steps: [{ action: 'double_click', x: 412, y: 300 }] },
  { source: 'template right_single', answer: "Thought: Open its menu.\nAction: right_single(point='<point>40 60</point>')", steps: [{ action: 'right_click', x: 40, y: 60 }] },
  { source: 'template hotkey', answer: "Thought: Copy it.\nAction: hotkey(key='ctrl c')", steps: [{ action: 'key', keys: 'ctrl+c' }] },
  {
    source: 'template type with \\n (submit)',
    answer: "Thought: Search for it.\nAction: type(content='weather in Paris\\n')",
    steps: [{ action: 'type', text: 'weather in Paris' }, { action: 'key', keys: 'Return' }],
  },
  {
    source: 'template scroll',
    answer: "Thought: See more.\nAction: scroll(start_box='<|box_start|>(640,400)<|box_end|>', direction='down')",
    steps: [{ action: 'scroll', x: 640, y: 400, scroll_x: 0, scroll_y: SCROLL_NOTCHES }],
  },
  {
    source: 'template scroll (browser form)',
    answer: "Thought: Back to the top.\nAction: scroll(point='<point>500 500</point>', direction='up')",
    steps: [{ action: 'scroll', x: 500, y: 500, scroll_x: 0, scroll_y: -SCROLL_NOTCHES }],
  },
  { source: 'template drag (browser form)', answer: "Thought: Move it.\nAction: drag(start_point='<point>10 20</point>', end_point='<point>30 40</point>')", steps: [{ action: 'drag', x: 10, y: 20, to_x: 30, to_y: 40 }] },
  {
    source: 'template finished with escapes',
    answer: "Thought: All set.\nAction: finished(content='The team is named \\'Platform\\'.\\nSaved.')",
    steps: [{ finished: "The team is named 'Platform'.\nSaved." }],
  },
  { source: 'template call_user', answer: 'Thought: The page asks for a password I do not have.\nAction: call_user()', thought: 'The page asks for a password I do not have.', steps: ['call_user'] },
];

describe('the UI-TARS parser, on published answers', () => {
  it.each(ROWS)('$source', ({ answer, thought, steps }) => {
    const parsed = parseUiTarsReply(answer);
    expect(parsed.steps.map(summary)).toEqual(steps.map(expected));
    if (thought !== undefined) expect(parsed.thought).toBe(thought);
  });
});

describe('the UI-TARS parser, on the variants', () => {
  it('reads the escapes of content: \\\', \\" and \\n', () => {
    const parsed = parseUiTarsReply(`Thought: x\nAction: type(content='say \\'hi\\' and \\"bye\\"\\nnext line')`);
    expect(parsed.steps.map(summary)).toEqual([{ action: 'type', text: `say 'hi' and "bye"\nnext line` }]);
  });

  it('keeps an unescaped apostrophe in typed text, as UI-TARS writes it', () => {
    expect(parseUiTarsReply("Thought: x\nAction: type(content='it's done')").steps.map(summary)).toEqual([{ action: 'type', text: "it's done" }]);
  });

  it('takes a type of only "\\n" as Enter alone', () => {
    expect(parseUiTarsReply("Thought: x\nAction: type(content='\\n')").steps.map(summary)).toEqual([{ action: 'key', keys: 'Return' }]);
  });

  it('reads a lone closing </think> (a reasoning parser took the opening tag): the thinking is the thought when there is no other', () => {
    const parsed = parseUiTarsReply("The field is empty.</think>\nAction: click(start_box='(3,4)')");
    expect(parsed.thought).toBe('The field is empty.');
    expect(parsed.steps.map(summary)).toEqual([{ action: 'click', x: 3, y: 4 }]);
  });

  it('reads the answer inside a ``` fence, as the template shows it', () => {
    const parsed = parseUiTarsReply("```\nThought: Click it.\nAction: click(start_box='(5,6)')\n```");
    expect(parsed.thought).toBe('Click it.');
    expect(parsed.steps.map(summary)).toEqual([{ action: 'click', x: 5, y: 6 }]);
  });

  it('runs the actions it can read and reports the rest', () => {
    const parsed = parseUiTarsReply("Thought: x\nAction: click(start_box='(1,2)')\n\nlong_press(start_box='(3,4)')\n\nwait()");
    expect(parsed.steps.map(summary)).toEqual([
      { action: 'click', x: 1, y: 2 },
      { unreadable: 'long_press() is not an action here; the actions are click, left_double, right_single, drag, hotkey, type, scroll, wait, finished, call_user' },
      { action: 'wait', seconds: WAIT_SECONDS },
    ]);
  });

  it(`reads at most ${MAX_ACTIONS_PER_ANSWER} actions of one answer`, () => {
    const parsed = parseUiTarsReply(`Thought: x\nAction: ${"click(start_box='(1,1)')\n\n".repeat(40)}`);
    expect(parsed.steps).toHaveLength(MAX_ACTIONS_PER_ANSWER + 1);
    expect(parsed.steps.at(-1)).toMatchObject({ kind: 'unreadable', error: expect.stringContaining(`only ${MAX_ACTIONS_PER_ANSWER} actions`) });
  });

  it.each([
    ["click(start_box='(abc,20)')", /is not a point/],
    ["click(start_box='(1,2,3)')", /is not a point/],
    ['click()', /click needs start_box/],
    ["drag(start_box='(1,2)')", /drag needs end_box/],
    ["scroll(start_box='(1,2)', direction='sideways')", /scroll needs direction='down', 'up', 'left' or 'right', not 'sideways'/],
    ["scroll(direction='down')", /scroll needs start_box/],
    ["hotkey(key='ctrl hyper')", /names "hyper", which is not a key/],
    ["type(content='')", /type needs the text/],
    ["click(start_box='(10,20", /cut off/],
    ["click(start_box='(10,20)'", /cut off/],
    ['navigate(url=\'https://example.com\')', /navigate\(\) is not an action here/],
  ])('reports %s as unreadable', (action, error) => {
    const [step] = parseUiTarsReply(`Thought: x\nAction: ${action}`).steps;
    expect(step).toMatchObject({ kind: 'unreadable', error: expect.stringMatching(error) });
  });
});

describe('UI-TARS key names', () => {
  it.each([
    ['ctrl c', 'ctrl+c'],
    ['ctrl shift t', 'ctrl+shift+t'],
    ['enter', 'Return'],
    ['arrowleft', 'Left'],
    ['arrowright', 'Right'],
    ['pagedown', 'Page_Down'],
    ['pageup', 'Page_Up'],
    ['esc', 'Escape'],
    ['backspace', 'BackSpace'],
    ['alt f4', 'alt+F4'],
    ['win d', 'cmd+d'],
    ['Ctrl+W', 'ctrl+w'],
    ['space', 'space'],
  ])("hotkey(key='%s') is %s", (written, keys) => {
    expect(readHotkey(written)).toEqual({ ok: true, keys });
  });

  it('maps every name it knows into a combination Sightline’s operators can press', () => {
    const names = ['ctrl', 'control', 'shift', 'alt', 'option', 'cmd', 'command', 'win', 'windows', 'super', 'meta', 'enter', 'return', 'tab', 'esc', 'escape', 'backspace', 'delete', 'del', 'insert', 'home', 'end', 'pageup', 'page_up', 'pgup', 'pagedown', 'page_down', 'pgdn', 'up', 'arrowup', 'down', 'arrowdown', 'left', 'arrowleft', 'right', 'arrowright', 'space', 'capslock', 'printscreen', 'prtsc', 'minus', 'plus', 'equal', 'comma', 'period', 'slash', 'backslash', 'semicolon', 'a', 'z', '0', '9', 'f1', 'f12', '-', '.', '/', ';', '[', ']'];
    for (const name of names) {
      const read = readHotkey(name);
      expect(read.ok, name).toBe(true);
      if (read.ok) expect(parseKeyCombinations(read.keys).ok, `${name} → ${read.keys}`).toBe(true);
    }
  });
});

function summary(step: UiTarsStep): Expected | { unreadable: string } {
  switch (step.kind) {
    case 'computer':
      return step.action;
    case 'finished':
      return { finished: step.content };
    case 'call_user':
      return 'call_user';
    case 'unreadable':
      return { unreadable: step.error };
  }
}

function expected(step: Expected): unknown {
  if (typeof step === 'object' && 'unreadable' in step) return { unreadable: expect.stringMatching(step.unreadable) };
  return step;
}
