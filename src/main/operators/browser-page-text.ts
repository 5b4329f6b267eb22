/**
 * The page's visible text with where it is: each text node's box in the viewport (CSS pixels), for a replay to
 * tell a change of meaning (other words or numbers) from noise (a clock, a caret, the same text a few pixels off)
 * in the regions of the screen that changed (perception/replay-text.ts). Text of fields and editable elements is
 * left out: what a person typed there may be a secret. At most 400 runs of 120 characters.
 */
import type { Page } from 'playwright-core';
import type { PageText } from './operator.js';
import { PageTextsSchema } from './element-identity.js';

/** Runs in the page: plain JavaScript. */
const READ = `(() => {
  const runs = [];
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  const width = window.innerWidth, height = window.innerHeight;
  for (let node = walker.nextNode(); node && runs.length < 400; node = walker.nextNode()) {
    const text = (node.nodeValue || '').replace(/\\s+/g, ' ').trim();
    const parent = node.parentElement;
    if (!text || !parent || parent.closest('textarea, input, select, script, style, noscript, [contenteditable=""], [contenteditable="true"]')) continue;
    const style = getComputedStyle(parent);
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    range.selectNodeContents(node);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || box.right <= 0 || box.bottom <= 0 || box.left >= width || box.top >= height) continue;
    runs.push({ text: text.slice(0, 120), box: { x: Math.round(box.x), y: Math.round(box.y), width: Math.round(box.width), height: Math.round(box.height) } });
  }
  return runs;
})()`;

/** The visible text runs of the page's main document; undefined when the page cannot say. */
export async function pageTexts(page: Page): Promise<PageText[] | undefined> {
  const read: unknown = await page.evaluate(READ).catch(() => undefined);
  const parsed = PageTextsSchema.safeParse(read);
  return parsed.success ? parsed.data : undefined;
}
