// Scheduled re-pricing of a job (docs/features/jobs.md, "Scheduled re-pricing"): the bounds of its
// interval, when it next runs once set or changed, and which audit action a change is.

/** A schedule re-prices every N days, N a whole number in these bounds (a year at most: a longer gap is a manual re-price). */
export const SCHEDULE_MIN_EVERY_DAYS = 1;
export const SCHEDULE_MAX_EVERY_DAYS = 365;

const DAY_MS = 86_400_000;

/** A job's schedule as stored: its interval, whether it is paused, and when it runs next. */
export interface ScheduleState {
  every_days: number;
  paused: boolean;
  next_run_at: Date;
}

/**
 * When a schedule set to `everyDays` runs next. A new schedule runs `everyDays` from now (the job
 * was just priced, or its owner re-prices it by hand when they want it now). A changed interval
 * counts from the last run (the old next run less the old interval), never earlier than now: going
 * from 7 to 3 days two days after a run gives the next run in one day. Pausing and resuming keep
 * the next run; one that passed while paused runs at the worker's next look.
 */
export function nextRunOnSet(before: ScheduleState | null, everyDays: number, now: Date): Date {
  if (!before) return new Date(now.getTime() + everyDays * DAY_MS);
  if (before.every_days === everyDays) return before.next_run_at;
  const lastRun = before.next_run_at.getTime() - before.every_days * DAY_MS;
  return new Date(Math.max(now.getTime(), lastRun + everyDays * DAY_MS));
}

export type ScheduleAction = 'job.schedule_set' | 'job.schedule_paused' | 'job.schedule_resumed';

/**
 * The audit action a PUT of the schedule is: setting it (new, or a new interval: the event keeps
 * both, and whether it is paused), else pausing or resuming it; null when nothing changed.
 */
export function scheduleChangeAction(
  before: Pick<ScheduleState, 'every_days' | 'paused'> | null,
  after: Pick<ScheduleState, 'every_days' | 'paused'>,
): ScheduleAction | null {
  if (!before || before.every_days !== after.every_days) return 'job.schedule_set';
  if (before.paused === after.paused) return null;
  return after.paused ? 'job.schedule_paused' : 'job.schedule_resumed';
}
