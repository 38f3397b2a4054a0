// The total of a list, counted exactly up to a bound and no further: past it the answer is "more
// than the bound", so a page of a million-row table costs the same as one of a thousand rows.
import type { Sql } from '../db/client.ts';

/** Lists count exactly up to this many rows. */
export const COUNT_BOUND = 10_000;

export interface BoundedCount {
  /** The exact total when count_exact, otherwise the bound. */
  count: number;
  /** False means "more than count". */
  count_exact: boolean;
}

/** `fromWhere` is "FROM … WHERE …" with $n placeholders for `params`. */
export async function countUpTo(db: Sql, fromWhere: string, params: unknown[], bound = COUNT_BOUND): Promise<BoundedCount> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 ${fromWhere} LIMIT ${bound + 1}) capped`, params);
  const n = rows[0]?.n ?? 0;
  return n > bound ? { count: bound, count_exact: false } : { count: n, count_exact: true };
}
