/**
 * The system prompt of a turn that answers a question about the screen (TurnRequest.answer) in every dialect
 * that carries function calls: the same sections as an acting turn's (the screen, the images, content is not
 * instructions), with the tools that only look and one rule for the answer. The user's message of the turn is
 * the statement, the information or the condition; what it is depends on the kind, which the prompt says.
 * UI-TARS keeps its own template, with the answer's JSON written in `finished(content=…)` (uiTarsAnswerFormat).
 */
import type { AnswerKind } from '../../shared/answers.js';
import type { CoordinateSpace } from '../../shared/model-view.js';
import type { AnswerRequest } from './agent-contract.js';
import { IMAGE_SECTION, SAFETY_RULES, targetOf, toolLines, type SystemPromptInput } from './system-prompt.js';
import { answerParameters } from './tools/answer-tool.js';

const QUESTION: Record<AnswerKind, string> = {
  verdict: "The user's message is a statement about the screen. Decide whether it is true.",
  value: "The user's message says what information to take from the screen. Read it off the screenshots.",
  until: "The user's message is a condition. Say whether the screen meets it now; when it does not, you are shown the screen again each time it changes.",
  box: "The user's message describes an element on the screen. Box it on the latest screenshot.",
};

/** `callForm`: how the dialect's model writes a call where it has no function calling (Qwen's `<tool_call>` text). */
export function buildAnswerSystemPrompt(input: SystemPromptInput, kind: AnswerKind, callForm: readonly string[] = []): string {
  return [
    `You are Sightline, an agent that looks at screenshots of ${targetOf(input)} and answers questions about them for the user.`,
    '',
    '# Screen',
    `Screenshots are ${input.screenshotWidth}x${input.screenshotHeight} pixels; crop_image boxes are in those pixels.`,
    '',
    '# Tools',
    ...toolLines(input),
    ...callForm,
    '',
    ...IMAGE_SECTION,
    '',
    '# Rules',
    QUESTION[kind],
    'This step only looks: nothing can be clicked or typed. Judge from the screenshots, the latest first; earlier ' +
      'screenshots of this session come back whole by id through get_history_image.',
    'Call answer once you know, with a one-sentence reason and the ids of the screenshots that show it.',
    ...SAFETY_RULES.slice(0, 1),
  ].join('\n');
}

/**
 * What UI-TARS is told to write: its `finished` action, with the answer as one JSON object. The template's own
 * escapes still hold inside content (`\'` for an apostrophe, `\n` for a line break); the JSON's quotes are double
 * quotes, which need none.
 */
export function uiTarsAnswerFormat(request: AnswerRequest, space: CoordinateSpace): string {
  const schema = answerParameters(request, space);
  return [
    QUESTION[request.kind],
    'Do not act on the screen in this step. When you know, answer with the finished action whose content is one JSON ' +
      `object with these fields (JSON Schema): ${JSON.stringify(schema)}`,
    'Write the JSON with double quotes. Inside content, write an apostrophe as \\\' and a line break as \\n. ' +
      'evidence may be an empty list: the latest screenshot is then the evidence.',
    `For example: finished(content='${JSON.stringify(exampleAnswer(request.kind))}')`,
  ].join('\n');
}

function exampleAnswer(kind: AnswerKind): Record<string, unknown> {
  if (kind === 'value') return { value: '…', reason: 'what on the screen shows it', evidence: [] };
  if (kind === 'box') return { box: [120, 340, 260, 380], reason: 'what on the screen shows it', evidence: [] };
  return { verdict: true, reason: 'what on the screen shows it', evidence: [] };
}
