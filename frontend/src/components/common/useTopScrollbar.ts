// A second horizontal scrollbar above a wide table, where people look first: it scrolls the
// table and follows it when the table is scrolled (bottom scrollbar, keyboard, trackpad). Shown
// only while the table is wider than its box.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';

export function useTopScrollbar() {
  const viewport = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const [widths, setWidths] = useState({ content: 0, box: 0 });
  const [scrolled, setScrolled] = useState(false);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () =>
      setWidths((w) => (w.content === el.scrollWidth && w.box === el.clientWidth ? w : { content: el.scrollWidth, box: el.clientWidth }));
    measure();
    // The box changes with the window; the content with the columns shown and the rows loaded.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    for (const child of el.querySelectorAll('table')) observer.observe(child);
    return () => observer.disconnect();
  }, []);

  const overflowing = widths.content > widths.box + 1;

  // When the top bar appears, start it where the table already is.
  // biome-ignore lint/correctness/useExhaustiveDependencies: widths.content re-syncs the bar when the table's width changes.
  useLayoutEffect(() => {
    if (overflowing && top.current && viewport.current) top.current.scrollLeft = viewport.current.scrollLeft;
  }, [overflowing, widths.content]);

  // Each side only writes when the other differs, so the two never bounce scroll events forever.
  const onViewportScroll = useCallback(() => {
    const v = viewport.current;
    if (!v) return;
    if (top.current && top.current.scrollLeft !== v.scrollLeft) top.current.scrollLeft = v.scrollLeft;
    setScrolled(v.scrollLeft > 0);
  }, []);
  const onTopScroll = useCallback(() => {
    const t = top.current;
    if (t && viewport.current && viewport.current.scrollLeft !== t.scrollLeft) viewport.current.scrollLeft = t.scrollLeft;
  }, []);

  return { viewport, top, overflowing, contentWidth: widths.content, scrolled, onViewportScroll, onTopScroll };
}
