/**
 * A windowed list over rows of known heights: measures the scroller, follows its scroll position, and
 * says which rows to render (virtual-window.ts does the math). `followEnd` keeps the list pinned to the
 * bottom while it is there, so a live run's new steps scroll into view without stealing the scroll from
 * someone reading older steps.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { rowOffsets, scrollTopFor, visibleWindow, type VisibleWindow } from '../timeline/virtual-window.js';

export interface VirtualWindow extends VisibleWindow {
  scrollerRef: RefObject<HTMLDivElement | null>;
  offsets: number[];
  scrollToRow(index: number): void;
}

const PINNED_SLACK = 24;

export function useVirtualWindow(heights: readonly number[], options: { overscan?: number; followEnd?: boolean } = {}): VirtualWindow {
  const scrollerRef = useRef<HTMLDivElement | null>(null);
  const [viewport, setViewport] = useState({ scrollTop: 0, height: 800 });
  const pinnedToEnd = useRef(false);
  const offsets = useMemo(() => rowOffsets(heights), [heights]);
  const totalHeight = offsets[offsets.length - 1] ?? 0;

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller === null) return;
    const measure = () => {
      setViewport({ scrollTop: scroller.scrollTop, height: scroller.clientHeight });
      pinnedToEnd.current = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - PINNED_SLACK;
    };
    measure();
    scroller.addEventListener('scroll', measure, { passive: true });
    const resizes = new ResizeObserver(measure);
    resizes.observe(scroller);
    return () => {
      scroller.removeEventListener('scroll', measure);
      resizes.disconnect();
    };
  }, []);

  useEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller !== null && options.followEnd === true && pinnedToEnd.current) scroller.scrollTop = totalHeight;
  }, [totalHeight, options.followEnd]);

  const scrollToRow = useCallback(
    (index: number) => {
      const scroller = scrollerRef.current;
      if (scroller !== null) scroller.scrollTop = scrollTopFor(offsets, index);
    },
    [offsets],
  );

  const window = visibleWindow({ offsets, scrollTop: viewport.scrollTop, viewportHeight: viewport.height, overscan: options.overscan ?? 6 });
  return { ...window, scrollerRef, offsets, scrollToRow };
}
