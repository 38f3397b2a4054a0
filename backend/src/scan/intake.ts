// A scan's ISBN joins its session's job: one lookup per marketplace the session asks, filled at once
// from the freshest answer the team already has (within the reuse window, as the worker's reuse
// would fill it: worker/reuse.ts), else queued for the worker, which serves scan sessions first
// (worker/interactive-jobs.ts). Its stored comparison row and the progress counters move in the same
// transaction, so the job page, its counts and the CSVs see the scan like any uploaded ISBN.
import { MARKETPLACE_LIST, dataFields, type MarketplaceInfo } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { insertEmptyComparisonRows } from '../db/comparison-rows.ts';
import { LOOKUP_TABLES, jobProgress, jobs, comparisonRows, jobDecisions } from '../db/schema.ts';
import { baseMarketplace } from '../comparison/query.ts';
import type { JobRow } from '../jobs/repository.ts';

/** The marketplaces a session's job asks, its base (whose lookup ids are the comparison's rows) first. */
export const askedBy = (job: JobRow): MarketplaceInfo[] => {
  const base = baseMarketplace(job);
  return [base, ...MARKETPLACE_LIST.filter((m) => job[m.id] && m.id !== base.id)];
};

/** Whether the job already has the ISBN (a copy scanned again adds a scan, not lookups). */
export async function jobHasIsbn(tx: Tx, job: JobRow, isbn: string): Promise<boolean> {
  const base = baseMarketplace(job);
  const { rows } = await tx.execute(
    sql`SELECT 1 FROM ${sql.identifier(base.table)} WHERE isbn_lookup_job_id = ${job.id} AND isbn = ${isbn} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Adds the ISBN to the job (which must not have it yet). Returns how many of its lookups were filled
 * from a recent answer and how many wait for the worker.
 */
export async function addIsbnToJob(tx: Tx, job: JobRow, isbn: string, reuseWindowMs: number): Promise<{ filled: number; queued: number }> {
  let filled = 0;
  let baseRowId: number | undefined;
  const finished: string[] = [];
  for (const m of askedBy(job)) {
    const t = LOOKUP_TABLES[m.id];
    const names = dataFields(m).map((f) => sql.identifier(f.name));
    const data = names.length ? sql`, ${sql.join(names, sql`, `)}` : sql``;
    const fromSource = names.length
      ? sql`, ${sql.join(
          names.map((n) => sql`s.${n}`),
          sql`, `,
        )}`
      : sql``;
    // Raw SQL on purpose: the freshest reusable answer (one probe of the reusable index) copied into
    // the new row in the same statement, or a queued row when there is none.
    const fresh =
      reuseWindowMs > 0
        ? sql`SELECT * FROM ${t} s
            WHERE s.isbn = ${isbn} AND s.lookup_status IN ('completed', 'no_offers_available') AND s.answered_at IS NOT NULL
              AND s.answered_at > now() - ${reuseWindowMs} * interval '1 millisecond'
              AND (${job.repriced_at?.toISOString() ?? null}::timestamptz IS NULL OR s.answered_at > ${job.repriced_at?.toISOString() ?? null}::timestamptz)
            ORDER BY s.answered_at DESC LIMIT 1`
        : sql`SELECT * FROM ${t} s WHERE false`;
    const insert = sql`
      INSERT INTO ${t} (isbn_lookup_job_id, isbn, input_filename, lookup_status, offers, offer_count, answered_at, reused_from,
                        previous_price, previous_currency${data})
      SELECT ${job.id}::int, ${isbn}, ${job.input_filename}, coalesce(s.lookup_status, 'queued'), s.offers, s.offer_count, s.answered_at,
             coalesce(s.reused_from, s.id), s.previous_price, s.previous_currency${fromSource}
      FROM (SELECT 1) one LEFT JOIN LATERAL (${fresh}) s ON true
      RETURNING id, isbn, lookup_status`;
    const isBase = baseRowId === undefined;
    const { rows } = await tx.execute<{ id: number; lookup_status: string }>(
      isBase
        ? sql`WITH inserted AS (${insert}), stored AS (${insertEmptyComparisonRows(job.id, sql`inserted`)}) SELECT id, lookup_status FROM inserted`
        : insert,
    );
    const row = rows[0];
    if (!row) continue;
    if (isBase) baseRowId = Number(row.id);
    if (row.lookup_status !== 'queued') {
      filled++;
      finished.push(m.id);
    }
  }
  // Every counter in one statement: one more lookup per marketplace, finished where it was filled.
  await tx
    .update(jobProgress)
    .set({
      total: sql`${jobProgress.total} + 1`,
      processed: sql`${jobProgress.processed} + CASE WHEN ${jobProgress.source} = ANY(${sql.param(finished)}::text[]) THEN 1 ELSE 0 END`,
    })
    .where(sql`${jobProgress.job_id} = ${job.id}`);
  // The stored comparison row is written by the caller from the verdict it judges next (verdict.ts
  // keepStoredRow): the same derived table's best price, source and spread, computed once.
  await tx.update(jobs).set({ updated_at: new Date() }).where(sql`${jobs.id} = ${job.id}`);
  const queued = askedBy(job).length - filled;
  return { filled, queued };
}

/**
 * Takes the ISBN out of the job (its last scan was removed): its lookups, stored comparison row and
 * decision, with the progress counters moved back as if it had never been added.
 */
export async function removeIsbnFromJob(tx: Tx, job: JobRow, isbn: string): Promise<void> {
  const base = baseMarketplace(job);
  const { rows: baseRows } = await tx.execute<{ id: number }>(
    sql`SELECT id FROM ${sql.identifier(base.table)} WHERE isbn_lookup_job_id = ${job.id} AND isbn = ${isbn}`,
  );
  const rowIds = baseRows.map((r) => String(r.id));
  if (rowIds.length) {
    await tx.execute(sql`DELETE FROM ${jobDecisions} WHERE job_id = ${job.id} AND row_id = ANY(${sql.param(rowIds)}::bigint[])`);
    await tx.execute(sql`DELETE FROM ${comparisonRows} WHERE job_id = ${job.id} AND row_id = ANY(${sql.param(rowIds)}::bigint[])`);
  }
  for (const m of askedBy(job)) {
    const { rows } = await tx.execute<{ total: number; finished: number }>(sql`
      WITH gone AS (
        DELETE FROM ${sql.identifier(m.table)} WHERE isbn_lookup_job_id = ${job.id} AND isbn = ${isbn} RETURNING lookup_status
      ) SELECT count(*)::int AS total, count(*) FILTER (WHERE lookup_status NOT IN ('queued', 'pending'))::int AS finished FROM gone`);
    const { total = 0, finished = 0 } = rows[0] ?? {};
    if (total)
      await tx
        .update(jobProgress)
        .set({ total: sql`${jobProgress.total} - ${total}`, processed: sql`${jobProgress.processed} - ${finished}` })
        .where(sql`${jobProgress.job_id} = ${job.id} AND ${jobProgress.source} = ${m.id}`);
  }
  await tx.update(jobs).set({ updated_at: new Date() }).where(sql`${jobs.id} = ${job.id}`);
}
