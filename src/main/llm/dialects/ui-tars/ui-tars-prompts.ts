/**
 * UI-TARS's documented prompt templates, with the instruction where they put it (after "## User
 * Instruction"). UI-TARS was trained on these words; they are kept as published, and where Sightline
 * leaves something out the comment says what and why.
 *
 * Computer — UI-TARS-1.5's COMPUTER_USE template (bytedance/UI-TARS, codes/ui_tars/prompt.py as released
 * with UI-TARS-1.5; the same text is UI-TARS-desktop's `getSystemPromptV1_5`, apps/ui-tars/src/main/agent/
 * prompts.ts, which adds the `call_user()` line kept here). `finished(content='xxx')` is prompt.py's form,
 * so the person gets the model's report.
 *
 * Browser — UI-TARS-desktop's browser template (`getSystemPromptDoubao_15_20B(language, 'browser')` in the
 * same prompts.ts), with the `<point>` action forms of UI-TARS's COMPUTER_USE_DOUBAO (prompt.py). Left out:
 * navigate(content=…) and navigate_back() (Sightline's browser operator acts on the page, not on an address
 * bar), press()/release() (held keys: Sightline presses combinations), and the game-play thought examples
 * and search-engine note (they are about Doubao's games and its market, not the page at hand).
 *
 * Language: English, the template's `{language}` for an English-speaking user.
 */
import type { OperatorKind } from '../../../../shared/config.js';

const COMPUTER_ACTION_SPACE = `click(start_box='<|box_start|>(x1,y1)<|box_end|>')
left_double(start_box='<|box_start|>(x1,y1)<|box_end|>')
right_single(start_box='<|box_start|>(x1,y1)<|box_end|>')
drag(start_box='<|box_start|>(x1,y1)<|box_end|>', end_box='<|box_start|>(x3,y3)<|box_end|>')
hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.
type(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.
scroll(start_box='<|box_start|>(x1,y1)<|box_end|>', direction='down or up or right or left') # Show more information on the \`direction\` side.
wait() # Sleep for 5s and take a screenshot to check for any changes.
finished(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.
call_user() # Submit the task and call the user when the task is unsolvable, or when you need the user's help.`;

const BROWSER_ACTION_SPACE = `click(point='<point>x1 y1</point>')
left_double(point='<point>x1 y1</point>')
right_single(point='<point>x1 y1</point>')
drag(start_point='<point>x1 y1</point>', end_point='<point>x2 y2</point>')
scroll(point='<point>x1 y1</point>', direction='down or up or right or left') # Show more information on the \`direction\` side.
hotkey(key='ctrl c') # Split keys with a space and use lowercase. Also, do not use more than 3 keys in one hotkey action.
type(content='xxx') # Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format. If you want to submit your input, use \\n at the end of content.
wait() # Sleep for 5s and take a screenshot to check for any changes.
call_user() # Call the user when the task is unsolvable, or when you need the user's help.
finished(content='xxx') # Submit the task with an report to the user. Use escape characters \\', \\", and \\n in content part to ensure we can parse the content in normal python string format.`;

const OPENING = `You are a GUI agent. You are given a task and your action history, with screenshots. You need to perform the next action to complete the task.

## Output Format
\`\`\`
Thought: ...
Action: ...
\`\`\`

## Action Space
`;

const THOUGHT_NOTES = `- Use English in \`Thought\` part.
- Write a small plan and finally summarize your next action (with its target element) in one sentence in \`Thought\` part.`;

/** The template for the operator, with the task as its instruction. */
export function uiTarsPrompt(operatorKind: OperatorKind, instruction: string): string {
  return operatorKind === 'browser' ? browserPrompt(instruction) : computerPrompt(instruction);
}

function computerPrompt(instruction: string): string {
  return `${OPENING}
${COMPUTER_ACTION_SPACE}


## Note
${THOUGHT_NOTES}

## User Instruction
${instruction}
`;
}

function browserPrompt(instruction: string): string {
  return `${OPENING}
${BROWSER_ACTION_SPACE}


## Note
${THOUGHT_NOTES}
- You can provide multiple actions in one step, separated by "\\n\\n".

## User Instruction
${instruction}
`;
}

/** The grammar in one paragraph: what the model is told when an answer could not be read. */
export const UI_TARS_GRAMMAR_REMINDER =
  'Answer with a "Thought: ..." line, then an "Action: ..." line with one of these actions: ' +
  "click(start_box='<|box_start|>(x1,y1)<|box_end|>'), left_double(start_box='...'), right_single(start_box='...'), " +
  "drag(start_box='...', end_box='...'), hotkey(key='ctrl c'), type(content='xxx'), " +
  "scroll(start_box='...', direction='down or up or right or left'), wait(), finished(content='xxx'), call_user().";
