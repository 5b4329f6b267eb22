/**
 * The system prompt of the `gemini-computer-use` dialect. Gemini's computer_use tool teaches the model its
 * functions itself, so the prompt keeps Sightline's sections — the screen, the image ids and "unchanged", content
 * is not instructions, refusals stand — names only Sightline's own tools, and says how a task ends: a reply
 * without a function call, its text the summary (as in Google's reference agent). Pure and built once per turn.
 */
import { IMAGE_SECTION, SAFETY_RULES, openingSection, type SystemPromptInput } from '../system-prompt.js';

/** The tools the prompt names: Sightline's own; Gemini's predefined functions need no words. */
export function buildGeminiComputerUseSystemPrompt(input: SystemPromptInput, computerFunctions: ReadonlySet<string>): string {
  const own = input.tools.filter((tool) => !computerFunctions.has(tool.name));
  return [
    ...openingSection(input, ["Gemini's computer_use functions take x and y on that same 0-999 grid."]),
    '',
    '# Tools',
    "- Gemini's computer_use functions: act on the screen; every response holds the screenshot after the action.",
    ...own.map((tool) => `- ${tool.name}: ${tool.description}`),
    '',
    ...IMAGE_SECTION,
    '',
    '# Rules',
    ...SAFETY_RULES,
    'Navigating to a URL, going back or forward are not available: use the page itself (its links and buttons).',
    'When the task is done, or cannot be done, answer with a short summary and no function call: that ends the task. ' +
      'Use ask_user only when you need information that only the user has.',
  ].join('\n');
}
