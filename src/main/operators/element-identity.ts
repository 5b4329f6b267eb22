/**
 * An element's identity (operator.ts, ElementIdentity) as stored with a recorded click, and the rule a replay
 * applies to it right before it presses: the same tag, role and accessible name, in a box within a few pixels of
 * the recorded one (a layout nudged by 3 px still holds the same button; another element, an invisible layer
 * over it, or a label swapped on hover does not).
 */
import { z } from 'zod';
import type { ElementIdentity } from './operator.js';

export const ElementIdentitySchema = z
  .object({
    tag: z.string().max(64),
    role: z.string().max(64),
    name: z.string().max(200),
    box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).strict(),
  })
  .strict();

/** The page's visible text as stored with a recorded click (operator.ts, PageText; browser-page-text.ts reads it). */
export const PageTextSchema = z
  .object({ text: z.string().max(120), box: z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() }).strict() })
  .strict();
export const PageTextsSchema = z.array(PageTextSchema).max(400);

/** How far (screen units) an edge of the box may have moved and still be the recorded element's. */
export const BOX_TOLERANCE = 4;

/** Why the element now under the point is not the recorded one; undefined when it is. */
export function elementDifference(recorded: ElementIdentity, present: ElementIdentity | undefined): string | undefined {
  if (present === undefined) return `the page no longer says what element is under the point (recorded: ${describeElement(recorded)})`;
  if (present.tag !== recorded.tag || present.role !== recorded.role) {
    return `a different element is under the point: ${describeElement(present)}, recorded ${describeElement(recorded)}`;
  }
  if (present.name !== recorded.name) return `the element under the point is named differently from the recording (${describeElement(recorded)})`;
  const edges = [
    [present.box.x, recorded.box.x],
    [present.box.y, recorded.box.y],
    [present.box.x + present.box.width, recorded.box.x + recorded.box.width],
    [present.box.y + present.box.height, recorded.box.y + recorded.box.height],
  ];
  if (edges.some(([now, then]) => Math.abs(now! - then!) > BOX_TOLERANCE)) {
    const { x, y, width, height } = present.box;
    return `the element under the point is at ${x},${y} ${width}×${height}, recorded at ${recorded.box.x},${recorded.box.y} ${recorded.box.width}×${recorded.box.height}`;
  }
  return undefined;
}

/** "a button (role button)": never the name, which is page text and may be anything. */
function describeElement(element: ElementIdentity): string {
  return `a ${element.tag}${element.role === '' ? '' : ` (role ${element.role})`}`;
}
