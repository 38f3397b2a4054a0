// What Keepa said, stored: per ISBN when it was asked (keepa_books) and its Amazon history as points
// of price_observations under marketplace 'keepa' (the book page's chart and velocity read them).
// Keepa answers the whole history each time, so an ISBN's Keepa points are replaced, not appended;
// Keepa's own stats (its rank drops, average ranks, current prices) ride on the keepa_books row.
import { KEEPA_SOURCE } from '@app/domain/velocity';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { jobs, keepaBooks, LOOKUP_TABLES, priceObservations } from '../db/schema.ts';
import { isbnArray, refreshVelocitySql } from '../velocity/compute.ts';
import type { KeepaProduct, KeepaStats } from './wire.ts';

/** Keepa's stats as keepa_books' columns: all null when the answer had none. */
function statsColumns(stats: KeepaStats | null) {
  return {
    stats_at: stats?.at ?? null,
    stats_rank_drops_30: stats?.rankDrops30 ?? null,
    stats_rank_drops_90: stats?.rankDrops90 ?? null,
    stats_rank_drops_180: stats?.rankDrops180 ?? null,
    stats_avg_rank_90: stats?.avgRank90 ?? null,
    stats_avg_rank_180: stats?.avgRank180 ?? null,
    stats_current_rank: stats?.currentRank ?? null,
    stats_used_price: stats?.usedPrice ?? null,
    stats_new_price: stats?.newPrice ?? null,
  };
}

/** Run in an ISBN's transaction once its series and velocity are stored (the worker evaluates its watches). */
export type AfterKeepaBook = (tx: Tx, isbn: string) => Promise<unknown>;

/**
 * Stores one answer, one transaction per ISBN asked: it is dated (found or not), a found one's points
 * replace its earlier Keepa points, its velocity is recomputed and `afterBook` runs. Per ISBN, not per
 * batch: a batch of 100 long histories is ~30,000 points, about 5 s of writing on the embedded
 * database, whose one connection every request waits for; an ISBN's few hundred points take tens of
 * milliseconds.
 */
export async function storeKeepaHistory(db: Db, answers: Map<string, KeepaProduct | null>, afterBook?: AfterKeepaBook): Promise<void> {
  for (const [isbn, product] of answers) {
    await db.transaction(async (tx) => {
      const row = { isbn, found: product !== null, asin: product?.asin.slice(0, 10) ?? null, ...statsColumns(product?.stats ?? null) };
      await tx
        .insert(keepaBooks)
        .values({ ...row, fetched_at: sql`now()` })
        .onConflictDoUpdate({
          target: keepaBooks.isbn,
          // Every column the answer gives, so an answer without stats clears the earlier ones.
          set: Object.fromEntries(
            ['fetched_at', ...Object.keys(row).filter((c) => c !== 'isbn')].map((c) => [c, sql.raw(`excluded.${c}`)]),
          ),
        });
      await tx.execute(sql`DELETE FROM ${priceObservations} WHERE marketplace = ${KEEPA_SOURCE} AND isbn = ${isbn}`);
      const points = (product?.points ?? []).map((pt) => ({ at: pt.at.toISOString(), rank: pt.salesRank, used: pt.used, new: pt.new }));
      // Raw SQL: the points travel as one jsonb parameter (drizzle's .values() spends seconds building
      // big inserts; docs/architecture.md, house habit 7). The headline is Amazon's own: used, else new.
      if (points.length > 0) {
        await tx.execute(sql`
          INSERT INTO ${priceObservations} (marketplace, isbn, observed_at, status, price, currency, offer_count, sales_rank, lowest_used_price, lowest_new_price)
          SELECT ${KEEPA_SOURCE}, ${isbn}, r.at, 'completed', coalesce(r.used, r.new),
                 CASE WHEN coalesce(r.used, r.new) IS NOT NULL THEN 'USD' END, 0, r.rank, r.used, r.new
          FROM jsonb_to_recordset(${JSON.stringify(points)}::jsonb)
            AS r(at timestamptz, rank integer, used double precision, new double precision)`);
      }
      await tx.execute(refreshVelocitySql(isbnArray([isbn])));
      // The velocity fields moved: a watch on them hears it now, not at the book's next answer.
      await afterBook?.(tx, isbn);
    });
  }
}

/** Jobs that ask Amazon, newest first, not yet known to be done in this process. */
export async function amazonJobsNewestFirst(db: Db, skip: ReadonlySet<number>, limit: number): Promise<number[]> {
  const rows = await db.select({ id: jobs.id }).from(jobs).where(sql`${jobs.amazon}`).orderBy(sql`${jobs.id} DESC`);
  return rows
    .map((r) => r.id)
    .filter((id) => !skip.has(id))
    .slice(0, limit);
}

/** Up to `limit` ISBNs of a job that Keepa was not asked about within `refreshMs`. */
export async function isbnsNeedingKeepa(db: Db, jobId: number, refreshMs: number, limit: number): Promise<string[]> {
  const t = LOOKUP_TABLES.amazon;
  const rows = await db
    .select({ isbn: t.isbn })
    .from(t)
    .where(
      sql`${t.isbn_lookup_job_id} = ${jobId} AND NOT EXISTS (
        SELECT 1 FROM ${keepaBooks} k WHERE k.isbn = ${t.isbn} AND k.fetched_at > now() - ${refreshMs} * interval '1 millisecond')`,
    )
    .limit(limit);
  return [...new Set(rows.map((r) => r.isbn))];
}
