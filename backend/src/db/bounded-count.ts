// The total of a list, counted exactly up to a bound and no further: past it the answer is "more
// than the bound", so a page of a million-row table costs the same as one of a thousand rows.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/** Lists count exactly up to this many rows. */
export const COUNT_BOUND = 10_000;

export interface BoundedCount {
  /** The exact total when count_exact, otherwise the bound. */
  count: number;
  /** False means "more than count". */
  count_exact: boolean;
}

/** `from` is "FROM … WHERE …". */
export async function countUpTo(db: Db, from: SQL, bound = COUNT_BOUND): Promise<BoundedCount> {
  const { rows } = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM (SELECT 1 ${from} LIMIT ${sql.raw(String(bound + 1))}) capped`,
  );
  return bounded(rows[0]?.n ?? 0, bound);
}

/** A total already known, answered as countUpTo would answer it. */
export const bounded = (n: number, bound = COUNT_BOUND): BoundedCount =>
  n > bound ? { count: bound, count_exact: false } : { count: n, count_exact: true };
