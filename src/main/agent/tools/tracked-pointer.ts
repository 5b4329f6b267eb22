/**
 * Where the pointer is, in the model's coordinates. Qwen's computer_use and Claude's computer tool click,
 * drag and scroll "where the cursor is" and Claude asks for cursor_position, but operators do not report the
 * pointer: the tool remembers the last point an action that ran placed it at. The point is kept with the
 * extent it was named in (the image's pixels, or 1000 × 1000), so a later screenshot of another size still
 * finds the same place on the screen.
 */
import type { ComputerAction } from '../../../shared/actions.js';
import { actionPoints } from '../../../shared/actions.js';
import type { ModelView } from '../../../shared/model-view.js';

export interface PointerPoint {
  x: number;
  y: number;
}

export interface CoordinateExtent {
  width: number;
  height: number;
}

/** The extent a model names points in for a screenshot shown in this view. */
export function coordinateExtentOf(view: ModelView): CoordinateExtent {
  return view.coordinateSpace === 'normalized-1000' ? { width: 1000, height: 1000 } : { width: view.imageWidth, height: view.imageHeight };
}

export class TrackedPointer {
  private placed: (PointerPoint & { extent: CoordinateExtent }) | undefined;

  /** The pointer in `extent`'s coordinates; undefined until an action has placed it. */
  at(extent: CoordinateExtent): PointerPoint | undefined {
    const placed = this.placed;
    if (placed === undefined) return undefined;
    if (placed.extent.width === extent.width && placed.extent.height === extent.height) return { x: placed.x, y: placed.y };
    return { x: Math.round((placed.x * extent.width) / placed.extent.width), y: Math.round((placed.y * extent.height) / placed.extent.height) };
  }

  /** After an action ran: the pointer is where its last point was (a click's point, a drag's end). */
  movedBy(action: ComputerAction, extent: CoordinateExtent): void {
    const last = actionPoints(action).at(-1);
    if (last !== undefined) this.placed = { x: last.x, y: last.y, extent };
  }
}
