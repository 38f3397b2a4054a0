// Velocity per ISBN (docs/features/velocity.md), computed in SQL from the sales ranks kept in
// price_observations and stored in book_velocity, so the comparison, the rules and the CSV read one
// row per ISBN instead of the history on every page. Recomputed when Keepa's series are written
// (keepa/repository.ts) and when Amazon answers are written (worker/queue.ts), in that transaction.
import { AVERAGE_WINDOWS, DROP_WINDOWS, KEEPA_SOURCE, SALE_DAYS_WINDOW, SALE_RANK_IMPROVEMENT } from '@app/domain/velocity';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { bookVelocity, priceObservations } from '../db/schema.ts';

const LONGEST_DAYS = Math.max(...DROP_WINDOWS, ...AVERAGE_WINDOWS, SALE_DAYS_WINDOW);
const days = (n: number) => sql.raw(`interval '${n} days'`);

/**
 * Recomputes book_velocity for `isbns` (a text[] SQL value) as of `asOf` (default the transaction's
 * now()). Each ISBN reads Keepa's points when it has any, else our Amazon looks. A step is a drop
 * when both it and the point before it have a rank and it is better than the previous rank by more
 * than SALE_RANK_IMPROVEMENT; averages (whole ranks) weight each rank by how long it held within the window (a
 * rankless stretch, Keepa's -1, counts for nothing). `skipKeepa`: leave out ISBNs that have Keepa's
 * series (an Amazon write-back: reading a long Keepa series per answer would slow the hot path).
 */
export function refreshVelocitySql(isbns: SQL, asOf: SQL = sql`now()`, opts: { skipKeepa?: boolean } = {}): SQL {
  const o = priceObservations;
  const inWindow = (n: number) => sql`p.at > ${asOf} - ${days(n)} AND p.at <= ${asOf}`;
  const drop = sql`p.rank IS NOT NULL AND p.prev_rank IS NOT NULL AND p.rank < p.prev_rank * ${1 - SALE_RANK_IMPROVEMENT}::float8`;
  const held = (n: number) => sql`extract(epoch FROM least(p.until, ${asOf}) - greatest(p.at, ${asOf} - ${days(n)}))`;
  // Rounded to a whole rank (a rank is a position).
  const avg = (n: number) =>
    sql`round((sum(p.rank * ${held(n)}) FILTER (WHERE p.rank IS NOT NULL AND ${held(n)} > 0)
        / nullif(sum(${held(n)}) FILTER (WHERE p.rank IS NOT NULL AND ${held(n)} > 0), 0))::numeric)::double precision`;
  const since = sql`${asOf} - ${days(LONGEST_DAYS)}`;
  // Raw SQL: window functions over each ISBN's points and an upsert in one statement, run in the
  // write-back's transaction (worker/queue.ts), so it is one round trip per batch.
  return sql`
    WITH sourced AS (
      SELECT DISTINCT i.isbn,
             CASE WHEN EXISTS (SELECT 1 FROM ${o} k WHERE k.isbn = i.isbn AND k.marketplace = ${KEEPA_SOURCE})
                  THEN ${KEEPA_SOURCE} ELSE 'amazon' END AS source
      FROM unnest(${isbns}) AS i(isbn)${
        // Our looks leave a book with Keepa's series alone: Keepa's refresh recomputes it.
        opts.skipKeepa ? sql` WHERE NOT EXISTS (SELECT 1 FROM ${o} k WHERE k.isbn = i.isbn AND k.marketplace = ${KEEPA_SOURCE})` : sql``
      }
    ),
    -- Each book's first point to read: the one before the window (the rank holding at its start, and
    -- the first step's previous rank), one index probe per book.
    books AS (
      SELECT s.*, coalesce(
        (SELECT e.observed_at FROM ${o} e WHERE e.isbn = s.isbn AND e.marketplace = s.source AND e.observed_at <= ${since}
         ORDER BY e.observed_at DESC LIMIT 1),
        '-infinity') AS first_at
      FROM sourced s
    ),
    p AS (
      SELECT b.isbn, b.source, o.observed_at AS at, o.sales_rank AS rank,
             lag(o.sales_rank) OVER w AS prev_rank,
             coalesce(lead(o.observed_at) OVER w, greatest(${asOf}, o.observed_at)) AS until
      FROM books b JOIN ${o} o ON o.isbn = b.isbn AND o.marketplace = b.source
      WHERE o.observed_at <= ${asOf} AND o.observed_at >= b.first_at
      WINDOW w AS (PARTITION BY b.isbn ORDER BY o.observed_at, o.id)
    )
    INSERT INTO ${bookVelocity} (isbn, source, observations, ${sql.join(
      DROP_WINDOWS.map((n) => sql.identifier(`rank_drops_${n}`)),
      sql`, `,
    )}, ${sql.join(
      AVERAGE_WINDOWS.map((n) => sql.identifier(`avg_rank_${n}`)),
      sql`, `,
    )}, sale_days_180, computed_at)
    SELECT b.isbn, b.source,
           count(*) FILTER (WHERE p.rank IS NOT NULL AND ${inWindow(SALE_DAYS_WINDOW)})::int,
           ${sql.join(
             DROP_WINDOWS.map((n) => sql`count(*) FILTER (WHERE ${drop} AND ${inWindow(n)})::int`),
             sql`, `,
           )},
           ${sql.join(
             AVERAGE_WINDOWS.map((n) => avg(n)),
             sql`, `,
           )},
           count(DISTINCT (p.at AT TIME ZONE 'UTC')::date) FILTER (WHERE ${drop} AND ${inWindow(SALE_DAYS_WINDOW)})::int,
           ${asOf}
    FROM books b LEFT JOIN p ON p.isbn = b.isbn
    GROUP BY b.isbn, b.source
    ON CONFLICT (isbn) DO UPDATE SET
      source = excluded.source, observations = excluded.observations,
      rank_drops_30 = excluded.rank_drops_30, rank_drops_90 = excluded.rank_drops_90, rank_drops_180 = excluded.rank_drops_180,
      avg_rank_90 = excluded.avg_rank_90, avg_rank_180 = excluded.avg_rank_180,
      sale_days_180 = excluded.sale_days_180, computed_at = excluded.computed_at`;
}

/** ISBNs as one text[] parameter. */
export const isbnArray = (isbns: readonly string[]): SQL => sql`string_to_array(${isbns.join(',')}, ',')`;

/** Recomputes the velocity of some ISBNs (Keepa's store, tests). */
export async function refreshVelocity(db: Db, isbns: readonly string[], asOf?: Date): Promise<void> {
  if (isbns.length === 0) return;
  await db.execute(refreshVelocitySql(isbnArray(isbns), asOf ? sql`${asOf.toISOString()}::timestamptz` : undefined));
}
