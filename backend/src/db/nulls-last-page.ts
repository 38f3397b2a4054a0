// A page sorted on a nullable column with empty values last, read so that an index serves it. The
// column's (column, id) index holds only the rows with a value (a partial index: a lookup's answer
// columns are empty until it is answered, and indexing the empty ones cost every ingest and claim),
// and walked backwards it would give NULLs first anyway, so `col DESC NULLS LAST` made PostgreSQL
// sort every matching row (~1 s on 1M rows). The same page is the rows with a value (`col DIR, id DIR`:
// the index walked either way, stopping after the page) followed by the empty ones (`id DIR`, the
// primary key), which are read only when the page reaches past the last row with a value.
import { sql, type SQL } from 'drizzle-orm';
import type { Page } from './page.ts';

export interface SplitPageReads<T> {
  /** The page's rows matching the list's conditions and `extra`, in `orderBy`, from `skip`. */
  rows: (extra: SQL, orderBy: SQL, skip: number, limit: number) => Promise<T[]>;
  /** How many rows match the conditions and `extra`, counted up to `bound`. */
  countUpTo: (extra: SQL, bound: number) => Promise<number>;
}

/** `column`: the sorted column; `id`: the tie-breaker. Same rows, same order as `column DIR NULLS LAST, id DIR`. */
export async function nullsLastPage<T>(
  reads: SplitPageReads<T>,
  column: SQL,
  id: SQL,
  direction: 'asc' | 'desc',
  page: Page,
): Promise<T[]> {
  const dir = sql.raw(direction === 'asc' ? 'ASC' : 'DESC');
  const valued = await reads.rows(sql`${column} IS NOT NULL`, sql`${column} ${dir}, ${id} ${dir}`, page.skip, page.limit);
  if (valued.length === page.limit) return valued;
  // Rows with a value before the empty ones: known from the page unless it starts past them all.
  const before =
    valued.length > 0 || page.skip === 0 ? page.skip + valued.length : await reads.countUpTo(sql`${column} IS NOT NULL`, page.skip);
  const empty = await reads.rows(sql`${column} IS NULL`, sql`${id} ${dir}`, Math.max(0, page.skip - before), page.limit - valued.length);
  return [...valued, ...empty];
}
