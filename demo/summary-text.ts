/** The demo's closing summary: what Sightline did with the session's screenshots, and what that saved. */
import { dollarText } from '../src/shared/cost.js';
import { savingsPercent, SAVINGS_BASIS } from '../src/shared/image-savings.js';
import { formatCount } from '../src/main/cli/run/progress-lines.js';
import { RECALL_TOOL, type SessionFigures } from './session-figures.js';

export function summaryText(figures: SessionFigures): string {
  const { tokens } = figures;
  const lines = [
    'What Sightline did with the screenshots:',
    `  ${formatCount(figures.screenshotsTaken)} screenshots taken, ${formatCount(figures.unchanged)} unchanged: the model was told "unchanged: same as img_…" instead of being sent the image again`,
    `  ${formatCount(figures.folded)} folded to placeholders when their turns ended, their files moved to cold storage`,
    `  ${formatCount(figures.recalled)} recalled: the model read its id in a placeholder and asked for it back with ${RECALL_TOOL}`,
    'What it cost:',
    `  this session: ${formatCount(tokens.input)} input + ${formatCount(tokens.output)} output tokens${dollarsText(figures.dollars?.spent)}`,
    `  with every image kept whole: ${formatCount(tokens.input + figures.keptImagesInput)} input tokens${dollarsText(figures.dollars?.keepEverything)}: ${savingText(figures)}`,
    `  (the ${formatCount(figures.keptImagesInput)} input tokens the kept images would add: the request builder's estimate of each request with every image whole, less the request as sent, as \`npm run bench\` counts them; ${priceSource(figures)})`,
  ];
  return `${lines.join('\n')}\n`;
}

function dollarsText(dollars: number | undefined): string {
  return dollars === undefined ? '' : `, ${dollarText(dollars)}`;
}

/** The share of input tokens saved, from the one function every face uses (shared/image-savings.ts). */
function savingText(figures: SessionFigures): string {
  const { savings } = figures;
  if (savings === null || savings.keptWhole <= 0) return 'nothing was sent';
  return `${savingsPercent(savings)} fewer input tokens ${SAVINGS_BASIS}`;
}

function priceSource(figures: SessionFigures): string {
  const { pricing, model } = figures;
  if (pricing === undefined || figures.dollars === undefined) return `no price is known for ${model}, so costs are in tokens`;
  return `priced at ${model}'s input price, $${pricing.inputPerMillion} per million tokens`;
}
