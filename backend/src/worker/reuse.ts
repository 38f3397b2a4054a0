// Reuse of recent answers: a claimed lookup whose ISBN this marketplace answered within the
// freshness window is filled from that answer instead of a new request. Dealers re-upload
// overlapping lists, and every request spends their marketplace quota.
import { sql, type SQL } from 'drizzle-orm';
import { dataFields, type MarketplaceInfo } from '@app/domain/marketplaces';
import { refreshBooksWritten } from './books-written.ts';
import type { Db } from '../db/client.ts';
import { LOOKUP_TABLES, jobs, type LookupTable } from '../db/schema.ts';
import { moveProgress, type ClaimedRow } from './queue.ts';

export class AnswerReuse {
  private readonly table: LookupTable;
  private readonly source: string;
  /** `, col = src.col` for every data column, and the source's data columns as src reads them. */
  private readonly setData: SQL;
  private readonly sourceData: SQL;

  constructor(
    private readonly db: Db,
    marketplace: MarketplaceInfo,
    /** How old an answer may be and still be reused; 0 turns reuse off. */
    readonly windowMs: number,
  ) {
    this.table = LOOKUP_TABLES[marketplace.id];
    this.source = marketplace.id;
    const names = dataFields(marketplace).map((f) => sql.identifier(f.name));
    this.setData = sql.join(
      names.map((n) => sql`, ${n} = src.${n}`),
      sql``,
    );
    this.sourceData = sql.join(
      names.map((n) => sql`, s.${n}`),
      sql``,
    );
  }

  /**
   * Fills the claimed rows that have a reusable answer: the freshest completed or no-offers answer
   * (a failure is asked again) for the same ISBN in this marketplace's table, answered within the window and after the row's
   * job was last re-priced. Copies its status, data, offers and answer time, notes the row it came
   * from, gives back the claim's attempt (no request was made) and moves the progress counters as
   * finishing does. Nobody looked again, so no price observation is written; the row takes the
   * source's previous price, so its change since the previous look is the source's. Returns the ids filled (the others still need asking) and their jobs.
   */
  async fill(claimed: ClaimedRow[]): Promise<{ ids: Set<number>; jobIds: number[] }> {
    if (this.windowMs <= 0 || claimed.length === 0) return { ids: new Set(), jobIds: [] };
    const t = this.table;
    const targets = claimed.map(({ id, attempts }) => ({ id, attempts }));
    // Raw SQL on purpose: the search (one index probe per row, via the reusable index) and the copy
    // in one statement per claimed batch, so a big list already answered costs a statement per
    // batch, not one per ISBN. The stored comparison of the rows filled, then the progress counters
    // and the jobs' updated_at, move in the same transaction (moveProgress).
    const filled = await this.db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ id: number; job_id: number }>(sql`
      WITH claimed AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(targets)}::jsonb) AS c(id bigint, attempts int)),
      src AS (
        SELECT r.id AS target_id, r.attempts AS target_attempts, coalesce(s.reused_from, s.id) AS origin_id,
               s.lookup_status, s.offers, s.offer_count, s.answered_at, s.previous_price, s.previous_currency${this.sourceData}
        FROM claimed c
        JOIN ${t} r ON r.id = c.id AND r.attempts = c.attempts AND r.lookup_status = 'pending'
        JOIN ${jobs} j ON j.id = r.isbn_lookup_job_id
        CROSS JOIN LATERAL (
          SELECT * FROM ${t} s
          WHERE s.isbn = r.isbn AND s.lookup_status IN ('completed', 'no_offers_available') AND s.answered_at IS NOT NULL
            AND s.answered_at > now() - ${this.windowMs} * interval '1 millisecond'
            AND (j.repriced_at IS NULL OR s.answered_at > j.repriced_at)
          ORDER BY s.answered_at DESC NULLS LAST
          LIMIT 1
        ) s
      ),
      done AS (
        UPDATE ${t} t
        SET lookup_status = src.lookup_status, offers = src.offers, offer_count = src.offer_count, answered_at = src.answered_at,
            reused_from = src.origin_id, last_error = NULL, lease_expires_at = NULL,
            previous_price = src.previous_price, previous_currency = src.previous_currency,
            attempts = t.attempts - 1, updated_at = now()${this.setData}
        FROM src
        WHERE t.id = src.target_id AND t.attempts = src.target_attempts AND t.lookup_status = 'pending'
        RETURNING t.id, t.isbn_lookup_job_id
      )
      SELECT id, isbn_lookup_job_id AS job_id FROM done`);
      const ids = rows.map((r) => Number(r.id));
      // A reused answer changes the job's books as a new one does: their stored comparison and watches too.
      await refreshBooksWritten(tx, t, ids);
      await moveProgress(
        tx,
        this.source,
        rows.map((r) => Number(r.job_id)),
      );
      return rows;
    });
    return { ids: new Set(filled.map((r) => Number(r.id))), jobIds: [...new Set(filled.map((r) => Number(r.job_id)))] };
  }
}
