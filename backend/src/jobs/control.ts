// Job control in the database: cancel, retry failed, re-price, delete, and the counts the actions
// menu shows. Every changed lookup moves its source's progress counter in the same statement, so
// the counters always match the rows. Each takes an optional `step` (TxStep: the route's audit
// event), given the count. Each is written once over the database's bulk writes (db/bulk-writes.ts):
// on PostgreSQL ONE transaction with its step last; on the embedded database the job's row goes
// first, then the lookups in committed steps over ranges of ids, giving way between them (one
// statement per marketplace held every request for seconds on a 150k job), then the step in its
// own transaction with the total; one action at a time per job (jobs/action-lock.ts).
import { and, count, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { FINISHED_STATUSES, type LookupStatus } from '@app/domain/status';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db, Tx } from '../db/client.ts';
import { idRanges as idRangesOf, oneTransaction, type BulkWrite, type BulkWrites, type IdRange } from '../db/bulk-writes.ts';
import type { TxStep } from '../db/tx-step.ts';
import { LOOKUP_TABLES, comparisonRows, jobDecisions, jobProgress, jobs } from '../db/schema.ts';
import { HttpError, validationError } from '../lib/http-errors.ts';
import { progressUpdate } from './progress.ts';
import type { JobRow } from './repository.ts';
import { oneActionAtATime } from './action-lock.ts';

/** What becomes of the moved rows: queued anew (retry, re-price) or stopped (cancel). */
const REQUEUE = sql.raw(`lookup_status = 'queued', attempts = 0, next_attempt_at = now(), last_error = NULL, lease_expires_at = NULL`);
const CANCEL = sql.raw(`lookup_status = 'cancelled', lease_expires_at = NULL`);

/** Statuses a retry queues again: failed lookups, and those a cancel stopped (docs/features/jobs.md, "Job control"). */
export const RETRYABLE_STATUSES: readonly LookupStatus[] = ['failed', 'cancelled'];

/**
 * Moves the job's lookups of one marketplace in `from` statuses (`set` says how) and its progress
 * counter by as many rows: forward when they become finished (cancel), back when queued again.
 */
async function moveLookups(
  tx: Db | Tx,
  jobId: number,
  m: MarketplaceInfo,
  from: readonly LookupStatus[],
  set: SQL,
  progress: 'forward' | 'back',
  ids?: { from: number; to: number },
): Promise<number> {
  const t = LOOKUP_TABLES[m.id];
  const range = ids ? and(gte(t.id, ids.from), lt(t.id, ids.to)) : undefined;
  // Raw SQL on purpose: the rows and their counter move in one statement (a data-modifying CTE,
  // which the query builder cannot express), so a poll never sees one without the other.
  const { rows } = await tx.execute<{ n: number }>(sql`
    WITH moved AS (
      UPDATE ${t} SET ${set}, updated_at = now()
      WHERE ${and(eq(t.isbn_lookup_job_id, jobId), inArray(t.lookup_status, [...from]), range)}
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

export interface ControlOptions {
  /** How the action's big write runs on this database (db/bulk-writes.ts); one transaction when unset. */
  bulk?: BulkWrites;
  /** Called after each committed step (live updates: the job's progress moved). */
  onStep?: () => void;
  /**
   * A re-price the job's schedule runs (worker/scheduled-reprice.ts): its rows are dealt behind
   * other work (jobs.queued_by_schedule). Unset: a person's action, whose rows rank as fresh work.
   */
  bySchedule?: boolean;
}

/** How a route should run an action on this context's database; `onStep` hears of each committed step. */
export const controlOptions = (ctx: { bulk: BulkWrites }, onStep?: () => void): ControlOptions => ({
  bulk: ctx.bulk,
  ...(onStep ? { onStep } : {}),
});

/**
 * Runs an action's write as the database runs big writes: in steps, one action at a time per job
 * (jobs/action-lock.ts), each committed step told to `onStep`.
 */
const runAction = <T>(db: Db, jobId: number, opts: ControlOptions, write: (w: BulkWrite) => Promise<T>): Promise<T> =>
  (opts.bulk ?? oneTransaction).run(db, write, {
    whileStepping: (stepped) => oneActionAtATime(db, jobId, stepped),
    ...(opts.onStep ? { afterStep: opts.onStep } : {}),
  });

/** What an action does per marketplace: the statuses it moves, how, and a write run with a step's rows. */
interface Move {
  from: readonly LookupStatus[];
  set: SQL;
  progress: 'forward' | 'back';
  /** Runs in the transaction of each step that moved rows (e.g. the job runs again: cancelled_at cleared). */
  withRows?: (tx: Tx) => Promise<void>;
}

/**
 * Moves the job's lookups, a step per id range of one marketplace, so each statement reads at most
 * a step's rows by primary key whatever the job's size. Each row is visited once, so a row the
 * worker finishes behind the steps is not moved again.
 */
async function moveEachStep(w: BulkWrite, jobId: number, targets: MarketplaceInfo[], move: Move): Promise<number> {
  let moved = 0;
  for (const m of targets) {
    const t = LOOKUP_TABLES[m.id];
    for await (const ids of w.ranges(t, t.id, and(eq(t.isbn_lookup_job_id, jobId), inArray(t.lookup_status, [...move.from])))) {
      moved += await w.step(async (tx) => {
        const n = await moveLookups(tx, jobId, m, move.from, move.set, move.progress, ids);
        if (n > 0) await move.withRows?.(tx);
        return n;
      });
    }
  }
  return moved;
}

/**
 * The id ranges of `stepRows` ids covering one marketplace's lookups matching `where`, each read
 * by primary key in its step whatever the job's size (the bounds are read once, before the steps).
 */
export const idRanges = (db: Db, m: MarketplaceInfo, where: SQL | undefined, stepRows: number) =>
  idRangesOf(db, LOOKUP_TABLES[m.id], LOOKUP_TABLES[m.id].id, where, stepRows);

/** The action's step (its audit event), last: with the total, once the lookups have moved. */
async function finish(w: BulkWrite, step: TxStep<number> | undefined, n: number): Promise<number> {
  if (step) await w.part((tx) => step(tx, n));
  return n;
}

/**
 * Stops the job: its queued lookups (those waiting for a retry too) become cancelled and count as
 * processed; lookups in flight finish normally (the worker cancels them if they would be queued
 * again, see worker/queue.ts). Cancelling a cancelled job changes nothing; a job with nothing left
 * to do answers 409.
 */
export async function cancelJob(db: Db, job: JobRow, step?: TxStep<number>, opts: ControlOptions = {}): Promise<number> {
  if (job.cancelled_at) return 0;
  return runAction(db, job.id, opts, async (w) => {
    await w.part(async (tx) => {
      // Nothing left to do answers 409 (a queued lookup is one left).
      if (!(await hasLookupsLeft(tx, job.id))) throw new HttpError(409, 'This job has already finished: there is nothing to cancel.');
      // First, so the worker claims no more of its rows and its put-backs are cancelled.
      await tx.update(jobs).set({ cancelled_at: sql`now()`, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
    });
    const targets = targetMarketplaces(job, undefined);
    return finish(w, step, await moveEachStep(w, job.id, targets, { from: ['queued'], set: CANCEL, progress: 'forward' }));
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
export async function retryFailed(
  db: Db,
  job: JobRow,
  market: MarketplaceInfo | undefined,
  step?: TxStep<number>,
  opts: ControlOptions = {},
): Promise<number> {
  const targets = targetMarketplaces(job, market);
  const runsAgain = async (tx: Tx) => {
    await tx.update(jobs).set({ cancelled_at: null, queued_by_schedule: false, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
  };
  return runAction(db, job.id, opts, async (w) => {
    const retried = await moveEachStep(w, job.id, targets, {
      from: RETRYABLE_STATUSES,
      set: REQUEUE,
      progress: 'back',
      withRows: runsAgain,
    });
    return finish(w, step, retried);
  });
}

/**
 * A new run of the job's ISBNs (all marketplaces or one): every finished lookup is queued again with
 * its data and offers kept, so the old prices stay visible until the worker writes the new ones.
 * Lookups still queued or in flight are left as they are: they are about to get a fresh answer.
 */
export async function repriceJob(
  db: Db,
  job: JobRow,
  market: MarketplaceInfo | undefined,
  step?: TxStep<number>,
  opts: ControlOptions = {},
): Promise<number> {
  const targets = targetMarketplaces(job, market);
  // A new run: not cancelled, old answers not reused, and ranked as the schedule's or a person's.
  const newRun = { cancelled_at: null, repriced_at: sql`now()`, queued_by_schedule: opts.bySchedule ?? false, updated_at: sql`now()` };
  return runAction(db, job.id, opts, async (w) => {
    await w.part((tx) => tx.update(jobs).set(newRun).where(eq(jobs.id, job.id)));
    const requeued = await moveEachStep(w, job.id, targets, { from: FINISHED_STATUSES, set: REQUEUE, progress: 'back' });
    return finish(w, step, requeued);
  });
}

/**
 * Deletes the job; its lookups, progress counters, decisions and rejected cells go with it. In
 * steps (the embedded database: one cascade of a 150k job's 600k rows held every request for
 * seconds) the lookups go first over id ranges, each step taking its rows off the progress counters
 * in the same statement, then its decisions and stored comparison; the job's row goes last. In one
 * transaction, the same statements each take all the job's rows at once.
 */
export async function deleteJob(db: Db, job: JobRow, step?: TxStep<undefined>, opts: ControlOptions = {}): Promise<void> {
  // Not in the middle of another action's steps (they would go on moving rows of a deleted job).
  await runAction(db, job.id, opts, async (w) => {
    for (const m of MARKETPLACE_LIST.filter((x) => job[x.id])) {
      const t = LOOKUP_TABLES[m.id];
      for await (const ids of w.ranges(t, t.id, eq(t.isbn_lookup_job_id, job.id))) await w.step((tx) => deleteLookups(tx, job.id, m, ids));
    }
    // Its rows per ISBN besides the lookups (a judged job's decisions, its stored comparison), in steps too.
    // LIMIT NULL is no limit: one transaction takes them all in one statement.
    const limit = Number.isFinite(w.stepRows) ? w.stepRows : null;
    for (const perIsbn of [jobDecisions, comparisonRows]) {
      let n: number;
      do {
        n = await w.step(async (tx) => {
          const { rows } = await tx.execute<{ n: number }>(sql`
            WITH gone AS (DELETE FROM ${perIsbn} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${perIsbn} WHERE job_id = ${job.id} LIMIT ${limit})) RETURNING 1)
            SELECT count(*)::int AS n FROM gone`);
          return rows[0]?.n ?? 0;
        });
      } while (n > 0);
    }
    await w.part(async (tx) => {
      await tx.delete(jobs).where(eq(jobs.id, job.id));
      await step?.(tx, undefined);
    });
  });
}

/** Deletes one id range of the job's lookups of one marketplace (all of them: undefined) and takes them off its counters, in one statement. */
async function deleteLookups(tx: Tx, jobId: number, m: MarketplaceInfo, ids: IdRange): Promise<void> {
  const t = LOOKUP_TABLES[m.id];
  const finished = sql.join(
    FINISHED_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const range = ids ? and(gte(t.id, ids.from), lt(t.id, ids.to)) : undefined;
  await tx.execute(sql`
    WITH gone AS (
      DELETE FROM ${t} WHERE ${and(eq(t.isbn_lookup_job_id, jobId), range)}
      RETURNING lookup_status
    )
    UPDATE ${jobProgress} p SET total = p.total - d.n, processed = p.processed - d.done
    FROM (SELECT count(*)::int AS n, (count(*) FILTER (WHERE lookup_status IN (${finished})))::int AS done FROM gone) d
    WHERE p.job_id = ${jobId} AND p.source = ${m.id}`);
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
