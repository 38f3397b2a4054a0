// Whether this process can serve. On PostgreSQL that is one statement on a pool connection. The
// embedded database is one session: a readiness statement queues behind the step or page running
// now, and waited up to 200 ms during a 150k-ISBN paste while everything else answered (issue 29).
// So there, once its migrations were seen applied (no other process shares its files, so that
// cannot change), readiness reads the session's own activity: a session that began or finished
// work within the last few seconds is ready; one idle longer than that is asked (it answers at once),
// and one held longer than that is asked with a deadline, because it may be stuck.
import type { SessionActivity } from '../db/session-lock.ts';
import type { MigrationCheck } from './migrations.ts';

/** Work begun or finished this recently shows the embedded session serving. */
export const PROGRESS_WINDOW_MS = 5_000;
/** How long an asked readiness statement may take before the database counts as not answering. */
export const READY_DEADLINE_MS = 5_000;

export type Readiness = { ready: true } | { ready: false; detail: string; cause?: unknown };

/** True when the session began or finished work within the window: no statement needed. */
export function showsProgress(activity: SessionActivity, now: number, windowMs = PROGRESS_WINDOW_MS): boolean {
  const recent = (at: number | null) => at !== null && now - at < windowMs;
  return recent(activity.busySince) || recent(activity.lastDoneAt);
}

export class ReadinessCheck {
  private migrationsSeenApplied = false;

  constructor(
    private readonly migrations: Pick<MigrationCheck, 'missing'>,
    /** The embedded session's activity; absent on PostgreSQL, where each check asks. */
    private readonly activity?: () => SessionActivity,
    private readonly deadlineMs = READY_DEADLINE_MS,
  ) {}

  async check(): Promise<Readiness> {
    if (this.activity && this.migrationsSeenApplied && showsProgress(this.activity(), performance.now())) return { ready: true };
    let missing: number;
    try {
      missing = await withDeadline(this.migrations.missing(), this.deadlineMs);
    } catch (cause) {
      return { ready: false, detail: 'The database is unreachable', cause };
    }
    if (missing > 0) return { ready: false, detail: `${missing} database migration(s) not applied yet` };
    this.migrationsSeenApplied = true;
    return { ready: true };
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
