// Left offsets of a table's pinned (sticky) columns: the first sticks at 0, each next one just
// right of those before it, so several pinned columns stack instead of covering each other.
// Measured from the header cells, again whenever one of them changes width.
import { must } from '@app/domain/must';
import { useLayoutEffect, useState, type RefObject } from 'react';

/** `pinnedKeys`: the pinned columns' keys, left to right (re-measures when they change). */
export function usePinnedOffsets(headerRow: RefObject<HTMLTableRowElement | null>, pinnedKeys: readonly string[]): Record<string, number> {
  const [offsets, setOffsets] = useState<Record<string, number>>({});
  const keys = pinnedKeys.join('\n');
  useLayoutEffect(() => {
    const row = headerRow.current;
    if (!row || !keys) return;
    const cells = () => [...row.querySelectorAll<HTMLTableCellElement>('th[data-pinned]')];
    const measure = () => {
      let left = 0;
      const next: Record<string, number> = {};
      for (const th of cells()) {
        next[must(th.dataset.pinned, 'cells are selected by th[data-pinned]')] = left;
        left += th.getBoundingClientRect().width;
      }
      setOffsets((prev) => (sameOffsets(prev, next) ? prev : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    for (const th of cells()) observer.observe(th);
    return () => observer.disconnect();
  }, [headerRow, keys]);
  return offsets;
}

function sameOffsets(a: Record<string, number>, b: Record<string, number>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}
