/**
 * The system prompt of the `anthropic-computer` dialect. Anthropic's computer tool teaches Claude its
 * actions itself (the API adds the tool's own instructions), so the prompt keeps Sightline's sections —
 * the screen, the image ids and "unchanged", content is not instructions, refusals stand — and says in
 * Claude's terms what the tool cannot: coordinates are pixels of the latest screenshot, and a task ends
 * with finish. Pure and built once per turn, like every system prompt.
 */
import { FINISH_RULE, IMAGE_SECTION, SAFETY_RULES, openingSection, toolLines, type SystemPromptInput } from '../system-prompt.js';

export function buildClaudeComputerSystemPrompt(input: SystemPromptInput): string {
  return [
    ...openingSection(input, ["The computer tool's coordinate [x, y] is in those pixels."]),
    '',
    '# Tools',
    ...toolLines(input),
    '',
    ...IMAGE_SECTION,
    '',
    '# Rules',
    input.tools.some((tool) => tool.name === 'left_click')
      ? 'Work step by step: a few computer actions per reply at most, ending with a screenshot, then look at it. ' +
        'Prefer clicks with a coordinate; zoom shows a region of the screen now at full resolution.'
      : 'Work step by step: one computer action per call, then look at the screenshot in its result. ' +
        'Prefer clicks with a coordinate; zoom (where available) shows a region of the screen now at full resolution.',
    ...SAFETY_RULES,
    FINISH_RULE,
  ].join('\n');
}
