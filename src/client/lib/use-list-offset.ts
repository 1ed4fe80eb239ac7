/**
 * Where a window-scrolled list starts on the page, for a window virtualizer's `scrollMargin`: measured before paint
 * and again whenever the page's layout changes height (a filter panel above the list opening, the portrait layout).
 */
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

export function useListOffset<E extends HTMLElement>(): { listRef: RefObject<E | null>; offset: number } {
  const listRef = useRef<E>(null);
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const update = () => setOffset(list.getBoundingClientRect().top + window.scrollY);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);
  return { listRef, offset };
}
