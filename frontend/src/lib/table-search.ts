// Validated search params of a filtered, sorted, paged table (/jobs and each marketplace's
// page): page (invalid → 1), filters (JSON text, garbage → none), sort_by / sort_direction.
import type { FieldDef } from '@app/domain/fields';
import { decodeFilters, encodeFilters } from './filters';
import { parsePage } from './paging';
import { parseSort, type SortState } from './sort';

export interface TableSearch extends SortState {
  page: number;
  /** Encoded JSON list of filters; absent when there are none. */
  filters?: string;
}

// validateSearch runs on every navigation; say once per bad value, not every time.
let lastReported: unknown;
function logOnce(...args: unknown[]): void {
  if (args[1] === lastReported) return;
  lastReported = args[1];
  console.error(...args);
}

export function validateTableSearch(fields: readonly FieldDef[]) {
  return (search: Record<string, unknown>): TableSearch => {
    // Re-encoding gives one canonical text whatever form the router handed over.
    const filters = encodeFilters(decodeFilters(search.filters, fields, logOnce));
    return { page: parsePage(search.page), ...(filters ? { filters } : {}), ...parseSort(search, fields) };
  };
}

/** A table's search params as the URL has them, before the field table that checks them is known. */
export type RawTableSearch = {
  page: number;
  filters?: unknown;
  sort_by?: unknown;
  sort_direction?: unknown;
};

/**
 * `validateSearch` of a route whose field table depends on its path (every marketplace's page is
 * one route, `$market`): keeps the table's params as they are, for validateTableSearch with the
 * marketplace's fields once the page knows them.
 */
export function rawTableSearch(search: Record<string, unknown>): RawTableSearch {
  const { filters, sort_by, sort_direction } = search;
  return {
    page: parsePage(search.page),
    ...(filters === undefined ? {} : { filters }),
    ...(sort_by === undefined ? {} : { sort_by }),
    ...(sort_direction === undefined ? {} : { sort_direction }),
  };
}
