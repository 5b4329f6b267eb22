/**
 * What kind of field a page has focused, or has under a point, and the text of a password field: for the
 * safety policy (typing, pasting or dropping text into a password field needs a person's approval) and for
 * masking what a paste or a drop put into one. Login forms often sit in an iframe, so every reading looks
 * into frames: the focused element of each frame, or the element under the point frame by frame.
 *
 * The page scripts are strings (this code is compiled without the DOM library), with their arguments
 * written into them as JSON.
 */
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';
import type { Point } from './coordinates.js';
import type { FocusedFieldKind } from './operator.js';

/** How a page script classifies one element; a frame is looked into by the caller. */
const CLASSIFY_ELEMENT = `function classify(element) {
  if (!element) return 'other';
  const tag = element.tagName;
  if (tag === 'IFRAME' || tag === 'FRAME') return 'frame';
  if (tag === 'INPUT') {
    const type = element.type; // normalized by the browser: an unknown type reads as 'text'
    const autocomplete = (element.getAttribute('autocomplete') || '').toLowerCase();
    if (type === 'password' || autocomplete.includes('password')) return 'password';
    const textTypes = ['text', 'email', 'search', 'url', 'tel', 'number'];
    return textTypes.includes(type) ? 'text' : 'other';
  }
  if (tag === 'TEXTAREA' || element.isContentEditable) return 'text';
  return 'other';
}`;

/** The focused element of the document, looking into open shadow roots. */
const ACTIVE_ELEMENT = `function active() {
  let element = document.activeElement;
  while (element && element.shadowRoot && element.shadowRoot.activeElement) element = element.shadowRoot.activeElement;
  return element;
}`;

/** The element under a point of the frame's viewport, looking into open shadow roots. */
const ELEMENT_AT = `function elementAt(x, y) {
  let element = document.elementFromPoint(x, y);
  while (element && element.shadowRoot) {
    const inner = element.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === element) break;
    element = inner;
  }
  return element;
}`;

const CLASSIFY_ACTIVE_ELEMENT = `(() => { ${CLASSIFY_ELEMENT}; ${ACTIVE_ELEMENT}; return classify(active()); })()`;

const FocusKindAnswerSchema = z.enum(['password', 'text', 'other', 'frame']);
type FocusKindAnswer = z.infer<typeof FocusKindAnswerSchema>;

/** What has the keyboard focus in the page, looking into frames. */
export async function focusedFieldKind(page: Page): Promise<FocusedFieldKind> {
  let kinds: FocusKindAnswer[];
  try {
    kinds = await Promise.all(page.frames().map(async (frame) => FocusKindAnswerSchema.parse(await frame.evaluate(CLASSIFY_ACTIVE_ELEMENT))));
  } catch {
    return 'unknown';
  }
  // A password field focused in any frame decides it; otherwise the innermost focused element does:
  // the main document's active element is the iframe that holds the focus.
  if (kinds.includes('password')) return 'password';
  const main = kinds[0];
  if (main !== 'frame') return main ?? 'unknown';
  return kinds.includes('text') ? 'text' : 'other';
}

const READ_FOCUSED_PASSWORD = `(() => { ${CLASSIFY_ELEMENT}; ${ACTIVE_ELEMENT}; const element = active();
  return classify(element) === 'password' && typeof element.value === 'string' ? element.value : null; })()`;

/** The text of the focused password field, in whichever frame has it; undefined when none has. */
export async function focusedPasswordText(page: Page): Promise<string | undefined> {
  try {
    const values = await Promise.all(page.frames().map(async (frame) => z.string().nullable().parse(await frame.evaluate(READ_FOCUSED_PASSWORD))));
    return values.find((value) => value !== null) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Longest field text read back: no configured key is nearly this long, and a page's huge editor is not read whole. */
const MAX_FIELD_TEXT = 20_000;

const READ_FOCUSED_TEXT = `(() => { ${CLASSIFY_ELEMENT}; ${ACTIVE_ELEMENT}; const element = active();
  if (classify(element) !== 'text') return null;
  const text = typeof element.value === 'string' ? element.value : element.innerText;
  return typeof text === 'string' ? text.slice(0, ${MAX_FIELD_TEXT}) : null; })()`;

/** The text of the focused field that is not a password field (a text input, a textarea, an editable element), in whichever frame has it. */
export async function focusedTextFieldText(page: Page): Promise<string | undefined> {
  try {
    const values = await Promise.all(page.frames().map(async (frame) => z.string().nullable().parse(await frame.evaluate(READ_FOCUSED_TEXT))));
    return values.find((value) => value !== null) ?? undefined;
  } catch {
    return undefined;
  }
}

const PointAnswerSchema = z.union([
  z.object({ kind: z.enum(['password', 'text', 'other']), value: z.string().nullable() }),
  // An iframe under the point: the point in its own viewport (past its border and padding).
  z.object({ kind: z.literal('frame'), x: z.number(), y: z.number() }),
]);
type PointAnswer = z.infer<typeof PointAnswerSchema>;

function describePointScript(point: Point, readPassword: boolean): string {
  return `(() => { ${CLASSIFY_ELEMENT}; ${ELEMENT_AT};
    const point = ${JSON.stringify(point)};
    const element = elementAt(point.x, point.y);
    const kind = classify(element);
    if (kind === 'frame') {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      return { kind, x: point.x - box.left - element.clientLeft - parseFloat(style.paddingLeft || '0'),
        y: point.y - box.top - element.clientTop - parseFloat(style.paddingTop || '0') };
    }
    const value = ${readPassword ? 'true' : 'false'} && kind === 'password' && typeof element.value === 'string' ? element.value : null;
    return { kind, value };
  })()`;
}

/** Nested frames deeper than this are not looked into (the field is then unknown). */
const MAX_FRAME_DEPTH = 8;

/** The field under a point of the page's viewport (CSS pixels), looking into frames; undefined when it cannot be told. */
async function fieldAt(page: Page, point: Point, readPassword: boolean): Promise<Extract<PointAnswer, { kind: 'password' | 'text' | 'other' }> | undefined> {
  let frame: Frame = page.mainFrame();
  let inFrame = point;
  try {
    for (let depth = 0; depth < MAX_FRAME_DEPTH; depth += 1) {
      const answer = PointAnswerSchema.parse(await frame.evaluate(describePointScript(inFrame, readPassword)));
      if (answer.kind !== 'frame') return answer;
      const child = await frameUnder(frame, inFrame);
      if (child === undefined) return undefined;
      frame = child;
      inFrame = { x: answer.x, y: answer.y };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** The frame whose element lies under the point (an iframe, as the page script found). */
async function frameUnder(frame: Frame, point: Point): Promise<Frame | undefined> {
  const handle = await frame.evaluateHandle(`(() => { ${ELEMENT_AT}; return elementAt(${point.x}, ${point.y}); })()`);
  try {
    return (await handle.asElement()?.contentFrame()) ?? undefined;
  } finally {
    await handle.dispose();
  }
}

/** The kind of field under a point of the page's viewport, looking into frames. */
export async function fieldKindAtPoint(page: Page, point: Point): Promise<FocusedFieldKind> {
  return (await fieldAt(page, point, false))?.kind ?? 'unknown';
}

/** The text of the password field under a point of the page's viewport; undefined when there is none. */
export async function passwordTextAtPoint(page: Page, point: Point): Promise<string | undefined> {
  return (await fieldAt(page, point, true))?.value ?? undefined;
}
