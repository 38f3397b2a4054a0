// Job control in the database: cancel, retry failed, re-price, delete, and the counts the actions
// menu shows. Each action is one transaction in which every changed lookup moves its source's
// progress counter in the same statement, so the counters always match the rows. Each takes an
// optional `step` (TxStep: the route's audit event) run last in the same transaction, given the count.
import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { FINISHED_STATUSES, type LookupStatus } from '@app/domain/status';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db, Tx } from '../db/client.ts';
import type { TxStep } from '../db/tx-step.ts';
import { LOOKUP_TABLES, jobProgress, jobs } from '../db/schema.ts';
import { HttpError, validationError } from '../lib/http-errors.ts';
import { progressUpdate } from './progress.ts';
import type { JobRow } from './repository.ts';

/** What becomes of the moved rows: queued anew (retry, re-price) or stopped (cancel). */
const REQUEUE = sql.raw(`lookup_status = 'queued', attempts = 0, next_attempt_at = now(), last_error = NULL, lease_expires_at = NULL`);
const CANCEL = sql.raw(`lookup_status = 'cancelled', lease_expires_at = NULL`);

/** Statuses a retry queues again: failed lookups, and those a cancel stopped (README "Job control"). */
export const RETRYABLE_STATUSES: readonly LookupStatus[] = ['failed', 'cancelled'];

/**
 * Moves the job's lookups of one marketplace in `from` statuses (`set` says how) and its progress
 * counter by as many rows: forward when they become finished (cancel), back when queued again.
 */
async function moveLookups(
  tx: Tx,
  jobId: number,
  m: MarketplaceInfo,
  from: readonly LookupStatus[],
  set: SQL,
  progress: 'forward' | 'back',
): Promise<number> {
  const t = LOOKUP_TABLES[m.id];
  // Raw SQL on purpose: the rows and their counter move in one statement (a data-modifying CTE,
  // which the query builder cannot express), so a poll never sees one without the other.
  const { rows } = await tx.execute<{ n: number }>(sql`
    WITH moved AS (
      UPDATE ${t} SET ${set}, updated_at = now()
      WHERE ${and(eq(t.isbn_lookup_job_id, jobId), inArray(t.lookup_status, [...from]))}
      RETURNING isbn_lookup_job_id
    ),
    progress AS (${progressUpdate(sql`moved`, m.id, progress)})
    SELECT count(*)::int AS n FROM moved`);
  return rows[0]?.n ?? 0;
}

/** The job's enabled marketplaces, or the one named (422 naming `market` when the job does not use it). */
export function targetMarketplaces(job: JobRow, market: MarketplaceInfo | undefined): MarketplaceInfo[] {
  if (!market) return MARKETPLACE_LIST.filter((m) => job[m.id]);
  if (!job[market.id]) throw validationError(['query', 'market'], `${market.label} is not enabled on this job`);
  return [market];
}

async function sumOver(targets: MarketplaceInfo[], move: (m: MarketplaceInfo) => Promise<number>): Promise<number> {
  let n = 0;
  for (const m of targets) n += await move(m);
  return n;
}

/**
 * Stops the job: its queued lookups (those waiting for a retry too) become cancelled and count as
 * processed; lookups in flight finish normally (the worker cancels them if they would be queued
 * again, see worker/queue.ts). Cancelling a cancelled job changes nothing; a job with nothing left
 * to do answers 409.
 */
export async function cancelJob(db: Db, job: JobRow, step?: TxStep<number>): Promise<number> {
  if (job.cancelled_at) return 0;
  return db.transaction(async (tx) => {
    // First, so the worker's put-backs that run after this commits see the job cancelled.
    await tx.update(jobs).set({ cancelled_at: sql`now()`, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
    const cancelled = await sumOver(targetMarketplaces(job, undefined), (m) => moveLookups(tx, job.id, m, ['queued'], CANCEL, 'forward'));
    if (cancelled === 0 && !(await hasLookupsLeft(tx, job.id))) {
      throw new HttpError(409, 'This job has already finished: there is nothing to cancel.');
    }
    await step?.(tx, cancelled);
    return cancelled;
  });
}

async function hasLookupsLeft(tx: Tx, jobId: number): Promise<boolean> {
  const [left] = await tx
    .select({ n: count() })
    .from(jobProgress)
    .where(and(eq(jobProgress.job_id, jobId), sql`${jobProgress.processed} < ${jobProgress.total}`));
  return (left?.n ?? 0) > 0;
}

/** Queues the job's failed and cancelled lookups again (all marketplaces or one), with fresh attempts; the job runs again. */
export async function retryFailed(db: Db, job: JobRow, market: MarketplaceInfo | undefined, step?: TxStep<number>): Promise<number> {
  const targets = targetMarketplaces(job, market);
  return db.transaction(async (tx) => {
    const retried = await sumOver(targets, (m) => moveLookups(tx, job.id, m, RETRYABLE_STATUSES, REQUEUE, 'back'));
    if (retried > 0) await tx.update(jobs).set({ cancelled_at: null, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
    await step?.(tx, retried);
    return retried;
  });
}

/**
 * A new run of the job's ISBNs (all marketplaces or one): every finished lookup is queued again with
 * its data and offers kept, so the old prices stay visible until the worker writes the new ones.
 * Lookups still queued or in flight are left as they are: they are about to get a fresh answer.
 */
export async function repriceJob(db: Db, job: JobRow, market: MarketplaceInfo | undefined, step?: TxStep<number>): Promise<number> {
  const targets = targetMarketplaces(job, market);
  return db.transaction(async (tx) => {
    const requeued = await sumOver(targets, (m) => moveLookups(tx, job.id, m, FINISHED_STATUSES, REQUEUE, 'back'));
    await tx.update(jobs).set({ cancelled_at: null, repriced_at: sql`now()`, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
    await step?.(tx, requeued);
    return requeued;
  });
}

/** Deletes the job; its lookups, progress counters and rejected cells go with it (ON DELETE CASCADE). */
export async function deleteJob(db: Db, job: JobRow, step?: TxStep<undefined>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(jobs).where(eq(jobs.id, job.id));
    await step?.(tx, undefined);
  });
}

/** Per marketplace, how many of the job's lookups failed and how many were cancelled (what a retry would queue). */
export async function countRetryable(db: Db, job: JobRow) {
  const counts = byMarketplace(() => ({ failed: 0, cancelled: 0 }));
  await Promise.all(
    MARKETPLACE_LIST.filter((m) => job[m.id]).map(async (m) => {
      const t = LOOKUP_TABLES[m.id];
      // Served by the (job, status) index: only the job's failed and cancelled entries are read.
      const rows = await db
        .select({ status: t.lookup_status, n: count() })
        .from(t)
        .where(and(eq(t.isbn_lookup_job_id, job.id), inArray(t.lookup_status, [...RETRYABLE_STATUSES])))
        .groupBy(t.lookup_status);
      for (const r of rows) if (r.status === 'failed' || r.status === 'cancelled') counts[m.id][r.status] = r.n;
    }),
  );
  return counts;
}
