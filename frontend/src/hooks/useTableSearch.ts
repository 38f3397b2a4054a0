// Table state of a filtered, sorted, paged page, read from and written to the URL (design:
// "the URL holds table state"). Filter and sort changes replace history and go back to page 1.
import type { FieldDef } from '@app/domain/fields';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { decodeFilters, encodeFilters, type Filter } from '../lib/filters';
import { nextSort, type SortState } from '../lib/sort';
import type { TableSearch } from '../lib/table-search';
import { usePageParam } from './usePageParam';

export function useTableSearch(search: TableSearch, fields: readonly FieldDef[]) {
  const navigate = useNavigate();
  const [page, setPage] = usePageParam(search.page);
  // The route already validated the text, so this does not fail.
  const filters = useMemo(() => decodeFilters(search.filters, fields), [search.filters, fields]);
  const sort: SortState = useMemo(
    () => ({ sort_by: search.sort_by, sort_direction: search.sort_direction }),
    [search.sort_by, search.sort_direction],
  );

  const replace = useCallback(
    (patch: Partial<TableSearch>) =>
      // resetScroll false: a filter or sort applied mid-page keeps the reader where they are (a new
      // page of the list, by contrast, starts at the top).
      void navigate({
        to: '.',
        search: (prev: Record<string, unknown>) => ({ ...prev, ...patch, page: 1 }),
        replace: true,
        resetScroll: false,
      }),
    [navigate],
  );
  const setFilters = useCallback((next: Filter[]) => replace({ filters: encodeFilters(next) }), [replace]);
  const toggleSort = useCallback(
    (column: string) => {
      const s = nextSort(sort, column);
      replace({ sort_by: s.sort_by, sort_direction: s.sort_direction });
    },
    [replace, sort],
  );

  return { page, setPage, filters, setFilters, sort, toggleSort };
}
