// Retention of the price history: observations older than PRICE_HISTORY_RETENTION are deleted in
// bounded batches, so pruning never holds a long lock or a long transaction. What is kept:
// - the latest observation of every (marketplace, ISBN), however old (it is the "previous look");
// - the offers a kept observation reads: observations store offers only when they changed, and a
//   reader takes the latest non-null offers at or before an observation, so an old row holding
//   offers stays while a kept row reads them (a newer row without offers and no newer offers before it).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { priceObservations } from '../db/schema.ts';

/** Most observations one prune statement looks at (and so at most deletes). */
export const PRUNE_BATCH = 5000;

/** Where a pass over the old observations has got to, in (observed_at, id) order; null: from the start. */
export type PruneCursor = { observedAt: string; id: number } | null;

export interface PruneResult {
  /** Observations looked at and deleted by this statement. */
  scanned: number;
  deleted: number;
  /** Where the next statement goes on from; null once a pass reached the end (the next one starts over). */
  next: PruneCursor;
}

/**
 * One bounded prune: looks at the next `batch` observations older than the retention after `cursor`
 * and deletes those the rules above let go. Scanning in (observed_at, id) order with a cursor keeps
 * each statement's work bounded even when most old rows must stay (an ISBN looked up once, long ago).
 */
export async function pruneObservations(db: Db, retentionMs: number, cursor: PruneCursor, batch = PRUNE_BATCH): Promise<PruneResult> {
  const o = priceObservations;
  const after = cursor ? sql`AND (observed_at, id) > (${cursor.observedAt}::timestamptz, ${cursor.id}::bigint)` : sql``;
  const cutoff = sql`now() - ${retentionMs} * interval '1 millisecond'`;
  // Raw SQL: the scan, the keep rules (correlated probes on the (isbn, marketplace, observed_at) index)
  // and the delete in one statement.
  const { rows } = await db.execute<{ scanned: number; deleted: number; last_at: string | null; last_id: number | null }>(sql`
    WITH scanned AS (
      SELECT id, marketplace, isbn, observed_at, offers IS NOT NULL AS has_offers FROM ${o}
      WHERE observed_at < ${cutoff} ${after}
      ORDER BY observed_at, id LIMIT ${batch}
    ),
    gone AS (
      DELETE FROM ${o} p USING scanned s
      WHERE p.id = s.id AND EXISTS (
        -- A newer look (so s is not the latest) which, when s holds offers, holds its own offers
        -- with no look still within the retention in between (none of those reads s's offers).
        SELECT 1 FROM ${o} n
        WHERE n.isbn = s.isbn AND n.marketplace = s.marketplace AND n.observed_at > s.observed_at
          AND (NOT s.has_offers OR (n.offers IS NOT NULL AND NOT EXISTS (
            SELECT 1 FROM ${o} m
            WHERE m.isbn = s.isbn AND m.marketplace = s.marketplace AND m.observed_at > s.observed_at
              AND m.observed_at < n.observed_at AND m.observed_at >= ${cutoff})))
      )
      RETURNING p.id
    ),
    last AS (SELECT observed_at, id FROM scanned ORDER BY observed_at DESC, id DESC LIMIT 1)
    SELECT (SELECT count(*) FROM scanned)::int AS scanned, (SELECT count(*) FROM gone)::int AS deleted,
           (SELECT observed_at::text FROM last) AS last_at,
           (SELECT id FROM last) AS last_id`);
  const r = rows[0];
  const scanned = r?.scanned ?? 0;
  const next = r && scanned >= batch && r.last_at !== null && r.last_id !== null ? { observedAt: r.last_at, id: Number(r.last_id) } : null;
  return { scanned, deleted: r?.deleted ?? 0, next };
}

/**
 * Prunes at most one batch per `intervalMs` (the worker calls `tick` on its timer): a pass over the
 * old observations spreads over as many ticks as it needs and then starts over, since a row kept
 * today may go once a newer observation arrives. Retention 0 keeps everything.
 */
export class HistoryPruner {
  private cursor: PruneCursor = null;

  constructor(
    private readonly db: Db,
    readonly retentionMs: number,
    private readonly batch = PRUNE_BATCH,
  ) {}

  async tick(): Promise<PruneResult | null> {
    if (this.retentionMs <= 0) return null;
    const result = await pruneObservations(this.db, this.retentionMs, this.cursor, this.batch);
    this.cursor = result.next;
    return result;
  }
}
