/**
 * Text carets kept out of a browser page's frames. A focused field's caret blinks (every 500 ms in headless
 * Chromium too), so two frames of a page that is not changing could differ by a caret: the settle watch would
 * see a change that is not one, and dedup would store a new screenshot for it. Playwright's `page.screenshot`
 * hides carets around each screenshot; frames are now taken through the DevTools protocol directly
 * (browser-frame-source.ts), so the same is done here: `caret-color: transparent !important` on each field's
 * inline style, as Playwright does it, and the field's own value put back once the captures are over.
 *
 * Hiding is idempotent and runs before every capture (a field added or a page loaded between two frames is
 * hidden too); what each field had is kept in the page under a symbol, so putting it back needs no state here.
 */
import type { Frame as PageFrame, Page } from 'playwright-core';

// Both run in the page, as strings because this code is compiled without the DOM library. Fields inside open
// shadow roots are found as Playwright finds them: every element is visited and its shadow root walked too.
const HIDE_CARETS = `(() => {
  const key = Symbol.for('sightline.hiddenCarets');
  const hidden = window[key] || (window[key] = new Map());
  const visit = (root) => {
    root.querySelectorAll('input,textarea,[contenteditable]').forEach((field) => {
      if (hidden.has(field)) return;
      hidden.set(field, { value: field.style.getPropertyValue('caret-color'), priority: field.style.getPropertyPriority('caret-color') });
      field.style.setProperty('caret-color', 'transparent', 'important');
    });
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) if (node.shadowRoot) visit(node.shadowRoot);
  };
  if (document.documentElement) visit(document);
})()`;

const RESTORE_CARETS = `(() => {
  const key = Symbol.for('sightline.hiddenCarets');
  const hidden = window[key];
  if (!hidden) return;
  for (const [field, own] of hidden) field.style.setProperty('caret-color', own.value, own.priority);
  delete window[key];
})()`;

/**
 * The expression the main frame evaluates before each capture: its carets hidden, its fonts loaded (as
 * Playwright waits for them before a screenshot), then `reading` (an expression whose value is returned).
 */
export function hideCaretsThen(reading: string): string {
  return `(async () => { ${HIDE_CARETS}; await document.fonts.ready; return (${reading}); })()`;
}

/** Hides carets in the page's other frames (iframes); a frame that goes away meanwhile is skipped. */
export async function hideCaretsInChildFrames(page: Page): Promise<void> {
  await Promise.all(childFrames(page).map((frame) => frame.evaluate(HIDE_CARETS).catch(() => undefined)));
}

/** Puts every field's own caret colour back, in every frame; a page or frame gone meanwhile is skipped. */
export async function restoreCarets(page: Page): Promise<void> {
  if (page.isClosed()) return;
  await Promise.all(page.frames().map((frame) => frame.evaluate(RESTORE_CARETS).catch(() => undefined)));
}

function childFrames(page: Page): PageFrame[] {
  const main = page.mainFrame();
  return page.frames().filter((frame) => frame !== main);
}
