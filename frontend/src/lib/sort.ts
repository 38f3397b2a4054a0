// Sorting by header click (docs/requirements.md, Tables): ascending → descending → no sort; another column
// starts ascending. No sort means the server default, created_at descending, so no sort_by is sent.
import type { FieldDef, SortDirection } from '@app/domain/fields';

export interface SortState {
  sort_by?: string;
  sort_direction?: SortDirection;
}

export function nextSort(current: SortState, column: string): SortState {
  if (current.sort_by !== column) return { sort_by: column, sort_direction: 'asc' };
  if (current.sort_direction !== 'desc') return { sort_by: column, sort_direction: 'desc' };
  return {};
}

/** Sort params from the URL, kept only when the field is sortable in this table. */
export function parseSort(search: Record<string, unknown>, fields: readonly FieldDef[]): SortState {
  const by = search.sort_by;
  if (typeof by !== 'string' || !fields.some((f) => f.name === by && f.sortable)) return {};
  return { sort_by: by, sort_direction: search.sort_direction === 'desc' ? 'desc' : 'asc' };
}

/** aria-sort of a column header. */
export function ariaSort(current: SortState, column: string): 'ascending' | 'descending' | 'none' {
  if (current.sort_by !== column) return 'none';
  return current.sort_direction === 'desc' ? 'descending' : 'ascending';
}
