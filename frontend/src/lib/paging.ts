// Paging rules (docs/requirements.md, Tables), as pure functions shared by every paged table.

/** The `page` search param: a positive integer, anything else means page 1. */
export function parsePage(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : 1;
}

/** `validateSearch` for routes whose only table state is the page. */
export function validatePageSearch(search: Record<string, unknown>): { page: number } {
  return { page: parsePage(search.page) };
}

export function skipFor(page: number, pageSize: number): number {
  return (page - 1) * pageSize;
}

export interface PagingState {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
}

/**
 * Next only when the page is full and the rows are real (not the previous page kept as a
 * placeholder while the new one loads); Previous everywhere but page 1.
 */
export function pagingState(args: {
  page: number;
  pageSize: number;
  rowsOnPage: number | undefined;
  isPlaceholderData: boolean;
}): PagingState {
  return {
    hasNextPage: !args.isPlaceholderData && args.rowsOnPage === args.pageSize,
    hasPreviousPage: args.page > 1,
  };
}

const grouped = new Intl.NumberFormat('en-US');

/**
 * "1–10 of 5,432" under a paged table; "of more than 10,000" when the server only estimated the
 * total (`count_exact: false`; a missing flag means exact). "0 of 0" for an empty list.
 */
export function pageRangeText(args: { page: number; pageSize: number; rowsOnPage: number; count: number; countExact?: boolean }): string {
  const total = args.countExact === false ? `more than ${grouped.format(args.count)}` : grouped.format(args.count);
  if (args.rowsOnPage === 0) return `0 of ${total}`;
  const first = skipFor(args.page, args.pageSize) + 1;
  return `${grouped.format(first)}–${grouped.format(first + args.rowsOnPage - 1)} of ${total}`;
}
