/**
 * The math of a windowed list: rows of known heights (fixed per kind of row), a scroll position and a
 * viewport; which rows to render and where. Pure, so it is tested without a DOM, and the hook that uses it
 * (use-virtual-window.ts) only measures the scroller and re-renders.
 */

/** Where each row starts: offsets[i] is the top of row i, offsets[rows] the total height. */
export function rowOffsets(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let index = 0; index < heights.length; index += 1) offsets[index + 1] = (offsets[index] ?? 0) + (heights[index] ?? 0);
  return offsets;
}

/** The index of the row that contains `position` (the last row for a position past the end). */
export function rowAt(offsets: readonly number[], position: number): number {
  const rows = offsets.length - 1;
  if (rows <= 0) return 0;
  let low = 0;
  let high = rows - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((offsets[middle] ?? 0) <= position) low = middle;
    else high = middle - 1;
  }
  return low;
}

export interface VisibleWindow {
  /** First row to render (inclusive). */
  start: number;
  /** Row after the last one to render (exclusive). */
  end: number;
  /** Height of the space above the first rendered row, and the whole list's height. */
  top: number;
  totalHeight: number;
}

export interface WindowRequest {
  offsets: readonly number[];
  scrollTop: number;
  viewportHeight: number;
  /** Extra rows rendered above and below the viewport, so a fast scroll does not show blank space. */
  overscan: number;
}

export function visibleWindow({ offsets, scrollTop, viewportHeight, overscan }: WindowRequest): VisibleWindow {
  const rows = offsets.length - 1;
  const totalHeight = offsets[rows] ?? 0;
  if (rows <= 0) return { start: 0, end: 0, top: 0, totalHeight };
  const top = Math.max(0, Math.min(scrollTop, totalHeight));
  const first = rowAt(offsets, top);
  const last = rowAt(offsets, top + Math.max(0, viewportHeight) - 1);
  const start = Math.max(0, first - overscan);
  const end = Math.min(rows, last + 1 + overscan);
  return { start, end, top: offsets[start] ?? 0, totalHeight };
}

/** The scroll position that brings row `index` to the top of the viewport. */
export function scrollTopFor(offsets: readonly number[], index: number): number {
  return offsets[Math.max(0, Math.min(index, offsets.length - 1))] ?? 0;
}
