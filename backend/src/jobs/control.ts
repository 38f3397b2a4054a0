// Job control in the database: cancel, retry failed, re-price, delete, and the counts the actions
// menu shows. Every changed lookup moves its source's progress counter in the same statement, so
// the counters always match the rows. Each takes an optional `step` (TxStep: the route's audit
// event), given the count. On PostgreSQL an action is ONE transaction with its step last. On the
// embedded database (`stepRows`) the job's row goes first, then the lookups in committed steps over
// ranges of ids, giving way between them (one statement per marketplace held every request for
// seconds on a 150k job), then the step in its own transaction with the total; one action at a
// time per job (jobs/action-lock.ts).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, count, eq, gte, inArray, lt, max, min, sql, type SQL } from 'drizzle-orm';
import { FINISHED_STATUSES, type LookupStatus } from '@app/domain/status';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db, Tx } from '../db/client.ts';
import type { TxStep } from '../db/tx-step.ts';
import { LOOKUP_TABLES, comparisonRows, jobDecisions, jobProgress, jobs } from '../db/schema.ts';
import { HttpError, validationError } from '../lib/http-errors.ts';
import { progressUpdate } from './progress.ts';
import type { JobRow } from './repository.ts';
import { oneActionAtATime } from './action-lock.ts';
import { inBackground } from '../db/work-lane.ts';

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

async function sumOver(targets: MarketplaceInfo[], move: (m: MarketplaceInfo) => Promise<number>): Promise<number> {
  let n = 0;
  for (const m of targets) n += await move(m);
  return n;
}

export interface ControlOptions {
  /**
   * Move the lookups in committed steps over ranges of this many ids, giving way between them (the
   * embedded database). Unset: ONE transaction.
   */
  stepRows?: number;
  /** Called after each committed step (live updates: the job's progress moved). */
  onStep?: () => void;
  /**
   * A re-price the job's schedule runs (worker/scheduled-reprice.ts): its rows are dealt behind
   * other work (jobs.queued_by_schedule). Unset: a person's action, whose rows rank as fresh work.
   */
  bySchedule?: boolean;
}

/**
 * Ids per step on the embedded database. Changing a lookup's status rewrites the row and every
 * index entry of it, several times the cost of the insert (ingest's steps are 2,500 rows): this
 * many rows hold PGlite for a few tens of ms on a quiet machine (npm run bench -- abuse).
 */
export const EMBEDDED_CONTROL_STEP_ROWS = 1_000;

/** How a route should run an action on this context's database; `onStep` hears of each step. */
export const controlOptions = (ctx: { embedded: boolean }, onStep?: () => void): ControlOptions =>
  ctx.embedded ? { stepRows: EMBEDDED_CONTROL_STEP_ROWS, ...(onStep ? { onStep } : {}) } : {};

/** What a stepped action does: its move per marketplace, and a write run with a step's rows. */
interface Move {
  from: readonly LookupStatus[];
  set: SQL;
  progress: 'forward' | 'back';
  /** Runs in the transaction of each step that moved rows (e.g. the job runs again: cancelled_at cleared). */
  withRows?: (tx: Tx) => Promise<void>;
}

/**
 * Moves the job's lookups in committed steps: each step one id range of one marketplace, so each
 * statement reads at most `stepRows` rows by primary key whatever the job's size. Each row is
 * visited once, so a row the worker finishes behind the steps is not moved again.
 */
function moveInSteps(db: Db, jobId: number, targets: MarketplaceInfo[], move: Move, opts: ControlOptions): Promise<number> {
  // Background work on the one session: a person's page goes before each next step.
  return inBackground(() => moveEachStep(db, jobId, targets, move, opts));
}

async function moveEachStep(db: Db, jobId: number, targets: MarketplaceInfo[], move: Move, opts: ControlOptions): Promise<number> {
  const stepRows = opts.stepRows ?? Number.POSITIVE_INFINITY;
  let moved = 0;
  for (const m of targets) {
    const t = LOOKUP_TABLES[m.id];
    for await (const ids of idRanges(db, m, and(eq(t.isbn_lookup_job_id, jobId), inArray(t.lookup_status, [...move.from])), stepRows)) {
      moved += await db.transaction(async (tx) => {
        const n = await moveLookups(tx, jobId, m, move.from, move.set, move.progress, ids);
        if (n > 0) await move.withRows?.(tx);
        return n;
      });
      opts.onStep?.();
      // PGlite runs one statement at a time: other requests (and the worker) go between steps.
      await nextTurn();
    }
  }
  return moved;
}

/**
 * The id ranges of `stepRows` ids covering one marketplace's lookups matching `where`, each read
 * by primary key in its step whatever the job's size (the bounds are read once, before the steps).
 */
export async function* idRanges(db: Db, m: MarketplaceInfo, where: SQL | undefined, stepRows: number) {
  const t = LOOKUP_TABLES[m.id];
  const [bounds] = await db
    .select({ lo: min(t.id), hi: max(t.id) })
    .from(t)
    .where(where);
  if (bounds?.lo == null || bounds.hi == null) return;
  for (let lo = Number(bounds.lo); lo <= Number(bounds.hi); lo += stepRows) yield { from: lo, to: lo + stepRows };
}

/** The action's step (its audit event) in a transaction of its own, once the steps are done. */
async function finish(db: Db, step: TxStep<number> | undefined, n: number): Promise<number> {
  if (step) await db.transaction((tx) => step(tx, n));
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
  if (opts.stepRows) {
    return oneActionAtATime(db, job.id, async () => {
      // Nothing left to do answers 409 as one transaction would (a queued lookup is one left).
      await db.transaction(async (tx) => {
        if (!(await hasLookupsLeft(tx, job.id))) throw new HttpError(409, 'This job has already finished: there is nothing to cancel.');
        // First, so the worker claims no more of its rows and its put-backs are cancelled.
        await tx.update(jobs).set({ cancelled_at: sql`now()`, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
      });
      const targets = targetMarketplaces(job, undefined);
      return finish(db, step, await moveInSteps(db, job.id, targets, { from: ['queued'], set: CANCEL, progress: 'forward' }, opts));
    });
  }
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
export async function retryFailed(
  db: Db,
  job: JobRow,
  market: MarketplaceInfo | undefined,
  step?: TxStep<number>,
  opts: ControlOptions = {},
): Promise<number> {
  const targets = targetMarketplaces(job, market);
  if (opts.stepRows) {
    return oneActionAtATime(db, job.id, async () => {
      const runsAgain = (tx: Tx) =>
        tx
          .update(jobs)
          .set({ cancelled_at: null, queued_by_schedule: false, updated_at: sql`now()` })
          .where(eq(jobs.id, job.id))
          .then(() => {});
      const retried = await moveInSteps(
        db,
        job.id,
        targets,
        { from: RETRYABLE_STATUSES, set: REQUEUE, progress: 'back', withRows: runsAgain },
        opts,
      );
      return finish(db, step, retried);
    });
  }
  return db.transaction(async (tx) => {
    const retried = await sumOver(targets, (m) => moveLookups(tx, job.id, m, RETRYABLE_STATUSES, REQUEUE, 'back'));
    if (retried > 0)
      await tx.update(jobs).set({ cancelled_at: null, queued_by_schedule: false, updated_at: sql`now()` }).where(eq(jobs.id, job.id));
    await step?.(tx, retried);
    return retried;
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
  if (opts.stepRows) {
    return oneActionAtATime(db, job.id, async () => {
      await db.update(jobs).set(newRun).where(eq(jobs.id, job.id));
      const requeued = await moveInSteps(db, job.id, targets, { from: FINISHED_STATUSES, set: REQUEUE, progress: 'back' }, opts);
      return finish(db, step, requeued);
    });
  }
  return db.transaction(async (tx) => {
    const requeued = await sumOver(targets, (m) => moveLookups(tx, job.id, m, FINISHED_STATUSES, REQUEUE, 'back'));
    await tx.update(jobs).set(newRun).where(eq(jobs.id, job.id));
    await step?.(tx, requeued);
    return requeued;
  });
}

/**
 * Deletes the job; its lookups, progress counters, decisions and rejected cells go with it
 * (ON DELETE CASCADE). On the embedded database the lookups go first in committed steps over id
 * ranges (one cascade of a 150k job's 600k rows held every request for seconds), each step taking
 * its rows off the progress counters in the same statement, then its decisions and stored comparison; the job's row goes last.
 */
export async function deleteJob(db: Db, job: JobRow, step?: TxStep<undefined>, opts: ControlOptions = {}): Promise<void> {
  const remove = () =>
    db.transaction(async (tx) => {
      await tx.delete(jobs).where(eq(jobs.id, job.id));
      await step?.(tx, undefined);
    });
  if (!opts.stepRows) return remove();
  const stepRows = opts.stepRows;
  // Not in the middle of another action's steps (they would go on moving rows of a deleted job).
  await oneActionAtATime(db, job.id, () =>
    inBackground(async () => {
      for (const m of MARKETPLACE_LIST.filter((x) => job[x.id])) {
        for await (const ids of idRanges(db, m, eq(LOOKUP_TABLES[m.id].isbn_lookup_job_id, job.id), stepRows)) {
          await deleteLookups(db, job.id, m, ids);
          await nextTurn();
        }
      }
      // Its rows per ISBN besides the lookups (a judged job's decisions, its stored comparison), in steps too.
      for (const perIsbn of [jobDecisions, comparisonRows]) {
        let n: number;
        do {
          const { rows } = await db.execute<{ n: number }>(sql`
          WITH gone AS (DELETE FROM ${perIsbn} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${perIsbn} WHERE job_id = ${job.id} LIMIT ${stepRows})) RETURNING 1)
          SELECT count(*)::int AS n FROM gone`);
          n = rows[0]?.n ?? 0;
          await nextTurn();
        } while (n > 0);
      }
      await remove();
    }),
  );
}

/** Deletes one id range of the job's lookups of one marketplace and takes them off its counters, in one statement. */
async function deleteLookups(db: Db, jobId: number, m: MarketplaceInfo, ids: { from: number; to: number }): Promise<void> {
  const t = LOOKUP_TABLES[m.id];
  const finished = sql.join(
    FINISHED_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  await db.execute(sql`
    WITH gone AS (
      DELETE FROM ${t} WHERE ${and(eq(t.isbn_lookup_job_id, jobId), gte(t.id, ids.from), lt(t.id, ids.to))}
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
