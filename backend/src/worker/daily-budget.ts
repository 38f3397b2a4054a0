// A marketplace's daily call quota (eBay: 5,000 Browse calls a day per application), shared by every
// worker and, fairly, by the users: the day's count lives in PostgreSQL (marketplace_daily_calls),
// one row per marketplace, taken one call at a time in a single statement on that row, so N workers
// together never send more than the budget. The day is the quota's own, in the time zone its registry
// entry declares (`quotaTimeZone`): eBay resets at midnight US Pacific time (America/Los_Angeles, so
// PST or PDT as the date has it).
//
// How the day is shared (issue 29: one user's 5,000-ISBN job spent the team's whole day):
// - `reserve` calls are kept for interactive jobs (worker/interactive-jobs.ts: "Price it now"):
//   batch jobs stop at budget − reserve; interactive ones may use the whole budget.
// - Batch calls are split between the users with batch work left on this marketplace, recomputed
//   at every call as users come and go: the users with work share what the others (whose work is
//   done) did not use, equally, counted from the day's start. A user past that share waits, and
//   tries again shortly (SHARE_RECHECK_MS): a share grows when another user's work is done.
//   Interactive calls count towards the day only, not towards a user's share.
// Once the whole budget is spent the worker keeps that in memory until the reset, so it defers
// lookups without a round trip each, and notes the reset in the row for the job page's hint.
import type { MarketplaceId } from '@app/domain/marketplaces';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { jobProgress, jobs, marketplaceDailyCalls } from '../db/schema.ts';
import { marketplaceRegistry } from '../marketplaces/registry.ts';
import { isInteractiveJob } from './interactive-jobs.ts';

/** Where a marketplace's quota day begins and ends: its entry's `quotaTimeZone`, else UTC. */
export const quotaTimeZoneOf = (id: MarketplaceId): string => marketplaceRegistry[id].quotaTimeZone ?? 'UTC';

/** The part of the budget kept for interactive jobs when no reserve is set (the spec names no figure). */
export const DEFAULT_RESERVE_SHARE = 0.05;

/** How long a user past their share waits before their lookups are tried again (the spec names no figure). */
export const SHARE_RECHECK_MS = 60_000;

const formats = new Map<string, Intl.DateTimeFormat>();
/** The wall clock of a time zone, as 'YYYY-MM-DD, HH:MM:SS' (en-CA, 24 hours). */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    const parts = { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' } as const;
    f = new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', ...parts });
    formats.set(timeZone, f);
  }
  return f;
}

/** The zone's wall clock at an instant, in milliseconds as if it were UTC. */
function wallMs(instant: number, timeZone: string): number {
  const n = (type: string) =>
    Number(
      wallClock(timeZone)
        .formatToParts(new Date(instant))
        .find((p) => p.type === type)?.value,
    );
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
}

/** The quota day of an instant in a time zone ('2026-11-24') and the instant the next one begins. */
export function quotaDay(at: Date, timeZone: string): { day: string; resetsAt: Date } {
  const wall = new Date(wallMs(at.getTime(), timeZone));
  const day = wall.toISOString().slice(0, 10);
  // The next midnight on the zone's clock, read as UTC, less the zone's offset there; the offset is
  // looked at twice since it may change (daylight saving) between the first guess and the answer.
  const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1);
  const guess = midnight - (wallMs(midnight, timeZone) - midnight);
  return { day, resetsAt: new Date(midnight - (wallMs(guess, timeZone) - guess)) };
}

export type BudgetAnswer = { ok: true } | { ok: false; resumesAt: Date; note: string };

export class DailyCallBudget {
  /** Spent until this instant (the next reset), as this worker last found. */
  private spentUntil: Date | undefined;
  private readonly reserve: number;

  constructor(
    private readonly db: Db,
    private readonly marketplace: MarketplaceId,
    private readonly budget: number,
    reserve: number | undefined,
    private readonly now: () => Date = () => new Date(),
    private readonly timeZone: string = quotaTimeZoneOf(marketplace),
  ) {
    this.reserve = Math.min(reserve ?? Math.floor(budget * DEFAULT_RESERVE_SHARE), budget);
  }

  /** Counts one call of job `jobId`'s against today's budget, or says when to try again. */
  async take(jobId: number): Promise<BudgetAnswer> {
    const at = this.now();
    if (this.spentUntil && at < this.spentUntil) return { ok: false, resumesAt: this.spentUntil, note: quotaNote(this.spentUntil) };
    const { day, resetsAt } = quotaDay(at, this.timeZone);
    const t = marketplaceDailyCalls;
    // A new day starts the count again; a worker whose clock lags behind another's counts on the newer day.
    await this.db
      .insert(t)
      .values({ marketplace: this.marketplace, day, used: 0, per_user: {} })
      .onConflictDoUpdate({
        target: t.marketplace,
        set: { used: 0, per_user: {}, day, resumes_at: null },
        setWhere: sql`${t.day} < excluded.day`,
      });
    const batchBudget = this.budget - this.reserve;
    // One UPDATE of the day's row: under concurrent workers PostgreSQL re-checks its WHERE (the
    // share's sums included) on the row as the previous taker left it, so counts stay exact.
    const { rows } = await this.db.execute<{ used: number }>(sql`
      WITH caller AS (
        SELECT j.owner_id::text AS user_id, ${isInteractiveJob(sql`j`)} AS interactive FROM ${jobs} j WHERE j.id = ${jobId}
      ),
      -- Users with batch work left on this marketplace (the caller is one when its job is a batch).
      busy AS (
        SELECT j.owner_id::text AS user_id FROM ${jobProgress} p JOIN ${jobs} j ON j.id = p.job_id
        WHERE p.source = ${this.marketplace} AND p.processed < p.total AND j.cancelled_at IS NULL
          AND NOT ${isInteractiveJob(sql`j`)}
        UNION SELECT user_id FROM caller WHERE NOT interactive
      )
      UPDATE ${t} d
      SET used = d.used + 1,
          per_user = CASE WHEN c.interactive THEN d.per_user
                     ELSE d.per_user || jsonb_build_object(c.user_id, coalesce((d.per_user ->> c.user_id)::int, 0) + 1) END
      FROM caller c
      WHERE d.marketplace = ${this.marketplace} AND d.day >= ${day} AND d.used < ${this.budget}
        AND (c.interactive OR (
          d.used < ${batchBudget}
          -- used by the caller × users with work < the batch budget − what users without work used
          AND coalesce((d.per_user ->> c.user_id)::int, 0) * (SELECT count(*) FROM busy)
            < ${batchBudget} - (SELECT coalesce(sum(u.value::int), 0) FROM jsonb_each_text(d.per_user) u WHERE u.key NOT IN (SELECT user_id FROM busy))
        ))
      RETURNING d.used`);
    if (rows.length > 0) return { ok: true };
    return this.refused(jobId, day, resetsAt, at);
  }

  /** Why the call was refused: the whole day spent, the batch part of it, or only the user's share. */
  private async refused(jobId: number, day: string, resetsAt: Date, at: Date): Promise<BudgetAnswer> {
    const t = marketplaceDailyCalls;
    const { rows } = await this.db.execute<{ used: number; interactive: boolean }>(sql`
      SELECT d.used, coalesce((SELECT ${isInteractiveJob(sql`j`)} FROM ${jobs} j WHERE j.id = ${jobId}), false) AS interactive
      FROM ${t} d WHERE d.marketplace = ${this.marketplace} AND d.day >= ${day}`);
    const used = rows[0]?.used ?? 0;
    if (used >= this.budget) {
      this.spentUntil = resetsAt;
      await this.db.update(t).set({ resumes_at: resetsAt }).where(sql`${t.marketplace} = ${this.marketplace} AND ${t.day} = ${day}`);
      return { ok: false, resumesAt: resetsAt, note: quotaNote(resetsAt) };
    }
    // Only batch calls are refused below the budget: past budget − reserve they wait for the reset.
    if (used >= this.budget - this.reserve) return { ok: false, resumesAt: resetsAt, note: quotaNote(resetsAt) };
    const recheck = new Date(Math.min(at.getTime() + SHARE_RECHECK_MS, resetsAt.getTime()));
    return { ok: false, resumesAt: recheck, note: shareNote(recheck) };
  }
}

/** The hint a lookup deferred to the reset carries (and the job page shows). */
export const quotaNote = (resumesAt: Date) => `daily quota reached, resumes at ${resumesAt.toISOString()}`;

/** The hint of a lookup whose user has used their share of the day for now. */
export const shareNote = (retryAt: Date) =>
  `this user's share of the daily quota is used for now (shared with other users' jobs), next try at ${retryAt.toISOString()}`;
