// What Keepa said, stored: per ISBN when it was asked (keepa_books) and its Amazon history as points
// of price_observations under marketplace 'keepa' (the book page's chart and velocity read them).
// Keepa answers the whole history each time, so an ISBN's Keepa points are replaced, not appended.
import { KEEPA_SOURCE } from '@app/domain/velocity';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobs, keepaBooks, LOOKUP_TABLES, priceObservations } from '../db/schema.ts';
import { isbnArray, refreshVelocitySql } from '../velocity/compute.ts';
import type { KeepaProduct } from './wire.ts';

/** Rows per INSERT of points (a long history is thousands of points). */
const INSERT_CHUNK = 1000;

/** Stores one answer: every ISBN asked is dated, found ones get their points, and their velocity is recomputed. */
export async function storeKeepaHistory(db: Db, answers: Map<string, KeepaProduct | null>): Promise<void> {
  if (answers.size === 0) return;
  const isbns = [...answers.keys()];
  await db.transaction(async (tx) => {
    await tx
      .insert(keepaBooks)
      .values([...answers].map(([isbn, p]) => ({ isbn, found: p !== null, asin: p?.asin.slice(0, 10) ?? null, fetched_at: sql`now()` })))
      .onConflictDoUpdate({
        target: keepaBooks.isbn,
        set: { found: sql`excluded.found`, asin: sql`excluded.asin`, fetched_at: sql`excluded.fetched_at` },
      });
    await tx.execute(sql`DELETE FROM ${priceObservations} WHERE marketplace = ${KEEPA_SOURCE} AND isbn = ANY(${isbnArray(isbns)})`);
    const rows = [...answers].flatMap(([isbn, p]) =>
      (p?.points ?? []).map((pt) => ({
        marketplace: KEEPA_SOURCE,
        isbn,
        observed_at: pt.at,
        status: 'completed',
        // The headline, as Amazon's own: the lowest used, else new.
        price: pt.used ?? pt.new,
        currency: (pt.used ?? pt.new) ? 'USD' : null,
        sales_rank: pt.salesRank,
        lowest_used_price: pt.used,
        lowest_new_price: pt.new,
      })),
    );
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await tx.insert(priceObservations).values(rows.slice(i, i + INSERT_CHUNK));
    await tx.execute(refreshVelocitySql(isbnArray(isbns)));
  });
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
