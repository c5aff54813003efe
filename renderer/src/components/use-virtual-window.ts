import { useCallback, useEffect, useMemo, useState, type RefObject, type UIEvent } from 'react';

const OVERSCAN = 12;

/**
 * Which rows of a fixed-height list are in view of a scrolling element: the tree and the
 * resource table render only those, whatever the length of the list.
 */
export function useVirtualWindow(scroller: RefObject<HTMLElement | null>, count: number, rowHeight: number, headerHeight = 0) {
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(600);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return undefined;
    const measure = (): void => setHeight(element.clientHeight || 600);
    measure();
    // Where ResizeObserver is missing (test DOMs), a window resize is the next best signal.
    if (typeof ResizeObserver === 'undefined') {
      window.addEventListener('resize', measure);
      return () => window.removeEventListener('resize', measure);
    }
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [scroller]);

  const onScroll = useCallback((event: UIEvent<HTMLElement>) => setScrollTop(event.currentTarget.scrollTop), []);

  const scrollIntoView = useCallback(
    (index: number) => {
      const element = scroller.current;
      if (!element) return;
      const top = headerHeight + index * rowHeight;
      if (top < element.scrollTop + headerHeight) element.scrollTop = top - headerHeight;
      else if (top + rowHeight > element.scrollTop + element.clientHeight) element.scrollTop = top + rowHeight - element.clientHeight;
    },
    [scroller, rowHeight, headerHeight],
  );

  return useMemo(() => {
    const first = Math.max(0, Math.floor((scrollTop - headerHeight) / rowHeight) - OVERSCAN);
    const last = Math.min(count, Math.ceil((scrollTop + height) / rowHeight) + OVERSCAN);
    return { first, last, onScroll, scrollIntoView };
  }, [scrollTop, height, rowHeight, headerHeight, count, onScroll, scrollIntoView]);
}
