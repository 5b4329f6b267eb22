/**
 * A UI-TARS answer → its thought and its actions. The answer is text in the form its templates ask for:
 *
 *   Thought: I need to click the search box.
 *   Action: click(start_box='<|box_start|>(640,233)<|box_end|>')
 *
 * and the variants UI-TARS models and servers produce: `Reflection: … Action_Summary: …` in place of the
 * thought, a `<think>…</think>` block first (or only its closing tag, when a reasoning parser took the
 * opening one), a full-width `Action：`, the answer inside a ``` fence, and several actions separated by
 * blank lines. Whatever the text, the result has at least one step: an answer with no action becomes an
 * `unreadable` step that says what the grammar is, so the model is told rather than nudged blindly.
 */
import { stepsOfCall, type UiTarsStep } from './ui-tars-actions.js';
import { excerpt, identifierAt, readCall, skipWhitespace } from './ui-tars-call-syntax.js';

export interface UiTarsReply {
  /** The thought (or action summary) the model wrote before its action; '' when there is none. */
  thought: string;
  /** At least one. */
  steps: UiTarsStep[];
  /**
   * For each step, which written action (counted from 0) it came from: one action may make two steps
   * (`type(content='abc\n')` types, then presses Return), and both carry that action's `written` text.
   */
  actionOfStep: number[];
}

/** Actions read from one answer at most; a model that writes more is looping, and each one is a step. */
export const MAX_ACTIONS_PER_ANSWER = 16;

const FIRST_ACTION_LINE = /(^|\n)[ \t]*Action[ \t]*[:：]/;
const ANY_ACTION_MARKER = /(?<![A-Za-z0-9_])Action[ \t]*[:：]/;
const MAX_THINK_BLOCKS = 8;
const FENCE_LINE = /^[ \t]*```[A-Za-z]*[ \t]*$/gm;

export function parseUiTarsReply(text: string): UiTarsReply {
  const { visible, thinking } = withoutThinking(text.replaceAll('[EOS]', '').replace(FENCE_LINE, ''));
  const marker = FIRST_ACTION_LINE.exec(visible) ?? ANY_ACTION_MARKER.exec(visible);
  if (marker === null) {
    const said = visible.trim();
    return {
      thought: said || thinking.trim(),
      steps: [{ kind: 'unreadable', error: said === '' ? 'the answer is empty' : 'the answer has no "Action:" line', written: excerpt(said, 0) }],
      actionOfStep: [0],
    };
  }
  const thought = thoughtOf(visible.slice(0, marker.index), thinking);
  const actions = visible.slice(marker.index + marker[0].length);
  return { thought, ...readSteps(actions) };
}

/** The steps of the text after `Action:`: each action in turn, an unreadable one reported and skipped. */
function readSteps(actions: string): Pick<UiTarsReply, 'steps' | 'actionOfStep'> {
  const steps: UiTarsStep[] = [];
  const actionOfStep: number[] = [];
  const add = (action: number, made: readonly UiTarsStep[]): void => {
    steps.push(...made);
    actionOfStep.push(...made.map(() => action));
  };
  let position = skipWhitespace(actions, 0);
  let read = 0;
  while (position < actions.length) {
    if (read === MAX_ACTIONS_PER_ANSWER) {
      add(read, [
        {
          kind: 'unreadable',
          error: `only ${MAX_ACTIONS_PER_ANSWER} actions of one answer are read; the rest (${actions.length - position} characters) was not run`,
          written: excerpt(actions, position),
        },
      ]);
      break;
    }
    position = afterRepeatedMarker(actions, position);
    const call = readCall(actions, position);
    if (call.ok) add(read, stepsOfCall(call.call));
    else add(read, [{ kind: 'unreadable', error: call.error, written: actions.slice(position, Math.min(call.end, position + 2000)) }]);
    read += 1;
    position = skipWhitespace(actions, call.end);
  }
  if (steps.length === 0) add(0, [{ kind: 'unreadable', error: 'the "Action:" line names no action', written: '' }]);
  return { steps, actionOfStep };
}

/** Some answers start each of several actions with its own `Action:`; it is skipped. */
function afterRepeatedMarker(actions: string, position: number): number {
  if (identifierAt(actions, position, 7) !== 'Action') return position;
  let index = position + 'Action'.length;
  while (actions[index] === ' ' || actions[index] === '\t') index += 1;
  return actions[index] === ':' || actions[index] === '：' ? skipWhitespace(actions, index + 1) : position;
}

/**
 * What the model thought: after `Thought:`, else its `Action_Summary:` (UI-TARS's own parser reads the
 * summary as the thought when a `Reflection:` comes first), else its `Reflection:`, else whatever text
 * came before the action, else the `<think>` block.
 */
function thoughtOf(beforeAction: string, thinking: string): string {
  for (const label of [/Thought[ \t]*[:：]/, /Action_Summary[ \t]*[:：]/, /Reflection[ \t]*[:：]/]) {
    const found = label.exec(beforeAction);
    if (found !== null) return beforeAction.slice(found.index + found[0].length).trim();
  }
  return beforeAction.trim() || thinking.trim();
}

/**
 * The answer without its `<think>` blocks, and what they held. An unclosed `<think>` only loses its tag.
 * Real answers have one block; past a few, the rest of the text is left as it is (each pass copies it).
 */
function withoutThinking(text: string): { visible: string; thinking: string } {
  const thinking: string[] = [];
  let visible = text;
  for (let pass = 0; pass < MAX_THINK_BLOCKS; pass += 1) {
    const open = visible.indexOf('<think>');
    const close = visible.indexOf('</think>');
    if (close !== -1 && (open === -1 || close < open)) {
      // A reasoning parser took the opening tag: everything before the closing one was thinking.
      thinking.push(visible.slice(0, close));
      visible = visible.slice(close + '</think>'.length);
      continue;
    }
    if (open === -1) break;
    const end = visible.indexOf('</think>', open);
    if (end === -1) {
      visible = visible.slice(0, open) + visible.slice(open + '<think>'.length);
      break;
    }
    thinking.push(visible.slice(open + '<think>'.length, end));
    visible = visible.slice(0, open) + visible.slice(end + '</think>'.length);
  }
  return { visible, thinking: thinking.join('\n') };
}
