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
  // Raw SQL on purpose: one statement for every marketplace (a scan waits on it): per marketplace the
  // freshest reusable answer (one probe of the reusable index) copied into the new row, or a queued
  // row when there is none; and the base marketplace's empty stored comparison row.
  const asked = askedBy(job);
  const repricedAt = job.repriced_at?.toISOString() ?? null;
  const inserts = asked.map((m, i) => {
    const t = LOOKUP_TABLES[m.id];
    const names = dataFields(m).map((f) => sql.identifier(f.name));
    const data = names.length ? sql`, ${sql.join(names, sql`, `)}` : sql``;
    const fromSource = names.length
      ? sql`, ${sql.join(
          names.map((n) => sql`s.${n}`),
          sql`, `,
        )}`
      : sql``;
    const fresh =
      reuseWindowMs > 0
        ? sql`SELECT * FROM ${t} s
            WHERE s.isbn = ${isbn} AND s.lookup_status IN ('completed', 'no_offers_available') AND s.answered_at IS NOT NULL
              AND s.answered_at > now() - ${reuseWindowMs} * interval '1 millisecond'
              AND (${repricedAt}::timestamptz IS NULL OR s.answered_at > ${repricedAt}::timestamptz)
            ORDER BY s.answered_at DESC LIMIT 1`
        : sql`SELECT * FROM ${t} s WHERE false`;
    return sql`${sql.identifier(`m${i}`)} AS (
      INSERT INTO ${t} (isbn_lookup_job_id, isbn, input_filename, lookup_status, offers, offer_count, answered_at, reused_from,
                        previous_price, previous_currency${data})
      SELECT ${job.id}::int, ${isbn}, ${job.input_filename}, coalesce(s.lookup_status, 'queued'), s.offers, s.offer_count, s.answered_at,
             coalesce(s.reused_from, s.id), s.previous_price, s.previous_currency${fromSource}
      FROM (SELECT 1) one LEFT JOIN LATERAL (${fresh}) s ON true
      RETURNING id, isbn, lookup_status)`;
  });
  const { rows } = await tx.execute<{ source: string; id: number; lookup_status: string }>(sql`
    WITH ${sql.join(inserts, sql`, `)},
    stored AS (${insertEmptyComparisonRows(job.id, sql`m0`)})
    ${sql.join(
      asked.map((m, i) => sql`SELECT ${m.id}::text AS source, id, lookup_status FROM ${sql.identifier(`m${i}`)}`),
      sql` UNION ALL `,
    )}`);
  const finished = rows.filter((r) => r.lookup_status !== 'queued').map((r) => r.source);
  const filled = finished.length;
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
  const queued = asked.length - filled;
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
