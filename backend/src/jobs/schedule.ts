// A job's re-pricing schedule in the database (docs/features/jobs.md, "Scheduled re-pricing"): set,
// change, pause, resume and remove it (the routes: jobs/schedule-routes.ts), and the worker's claim
// of the schedules that are due (worker/scheduled-reprice.ts runs them).
import { nextRunOnSet, type ScheduleState } from '@app/domain/schedule';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobProgress, jobs } from '../db/schema.ts';
import type { TxStep } from '../db/tx-step.ts';
import { notFound } from '../lib/http-errors.ts';

/** A job's row (repository.ts's JobRow, named here so the two files do not import each other). */
type JobRow = typeof jobs.$inferSelect;

/** The schedule a job row holds, as the API shows it; null when it has none. */
export function scheduleOf(job: JobRow) {
  if (job.schedule_every_days === null || job.schedule_next_run_at === null) return null;
  return {
    every_days: job.schedule_every_days,
    paused: job.schedule_paused,
    next_run_at: job.schedule_next_run_at,
    set_by: job.schedule_set_by,
  };
}

const stateOf = (job: JobRow): ScheduleState | null => scheduleOf(job);

/** A change of a job's schedule: what it was and what it is (null: none), for the audit trail. */
export interface ScheduleChange {
  job: JobRow;
  before: ScheduleState | null;
  after: ScheduleState | null;
}

/**
 * Sets the job's schedule to every `every_days` days, paused or not (`paused` left out keeps it as
 * it was; a new schedule runs), and the caller as who set it. The job's row is locked while it is
 * read and written, so two changes at once each see the other's result. `step` (the audit event)
 * runs in the transaction.
 */
export function setSchedule(
  db: Db,
  job: JobRow,
  input: { every_days: number; paused?: boolean | undefined },
  userId: string,
  step?: TxStep<ScheduleChange>,
): Promise<void> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(jobs).where(eq(jobs.id, job.id)).for('update');
    if (!current) throw notFound('Job');
    const before = stateOf(current);
    const after: ScheduleState = {
      every_days: input.every_days,
      paused: input.paused ?? before?.paused ?? false,
      next_run_at: nextRunOnSet(before, input.every_days, new Date()),
    };
    // The same schedule again changes nothing, not even who set it (and records no event).
    if (before?.every_days === after.every_days && before.paused === after.paused) return step?.(tx, { job: current, before, after });
    await tx
      .update(jobs)
      .set({
        schedule_every_days: after.every_days,
        schedule_paused: after.paused,
        schedule_next_run_at: after.next_run_at,
        schedule_set_by: userId,
        updated_at: sql`now()`,
      })
      .where(eq(jobs.id, job.id));
    await step?.(tx, { job: current, before, after });
  });
}

/** Removes the job's schedule (404 when it has none); lookups a run queued go on. */
export function removeSchedule(db: Db, job: JobRow, step?: TxStep<ScheduleChange>): Promise<void> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(jobs).where(eq(jobs.id, job.id)).for('update');
    const before = current && stateOf(current);
    if (!current || !before) throw notFound('Schedule');
    await tx
      .update(jobs)
      .set({ schedule_every_days: null, schedule_paused: false, schedule_next_run_at: null, schedule_set_by: null, updated_at: sql`now()` })
      .where(eq(jobs.id, job.id));
    await step?.(tx, { job: current, before, after: null });
  });
}

/** A due schedule this process claimed: its job, and whether the job still had lookups left (the run is skipped). */
export interface ClaimedSchedule {
  id: number;
  busy: boolean;
}

/**
 * Claims up to `limit` due schedules and moves each one's next run on, in one statement: the rows
 * are locked (FOR UPDATE SKIP LOCKED) and updated together, so two workers never claim the same
 * run; a worker that started looking before another's claim committed re-reads the row and finds it
 * no longer due. The next run keeps the time of day: it steps by whole intervals past now, so runs
 * missed while no worker ran are not made up one after another. `busy`: the job still has lookups
 * left (the previous run, or a person's), so this run is skipped.
 */
export async function claimDueSchedules(db: Db, limit: number): Promise<ClaimedSchedule[]> {
  // Raw SQL on purpose: claim and move in one statement (SKIP LOCKED in a CTE, UPDATE … RETURNING).
  const { rows } = await db.execute<{ id: number; busy: boolean }>(sql`
    WITH due AS (
      SELECT id FROM ${jobs}
      WHERE schedule_every_days IS NOT NULL AND NOT schedule_paused AND schedule_next_run_at <= now()
      ORDER BY schedule_next_run_at
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${jobs} j
    SET schedule_next_run_at = j.schedule_next_run_at
      + (floor(extract(epoch FROM now() - j.schedule_next_run_at) / (j.schedule_every_days * 86400)) + 1)
        * j.schedule_every_days * interval '1 day'
    FROM due
    WHERE j.id = due.id
    RETURNING j.id, EXISTS (SELECT 1 FROM ${jobProgress} p WHERE p.job_id = j.id AND p.processed < p.total) AS busy`);
  return rows.map((r) => ({ id: Number(r.id), busy: Boolean(r.busy) }));
}
