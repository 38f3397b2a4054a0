// A marketplace's daily call quota (eBay: 5,000 Browse calls a day per application), shared by every
// worker: the day's count lives in PostgreSQL (marketplace_daily_calls), one row per marketplace,
// taken one call at a time in a single statement, so N workers together never send more than the
// budget. The day is the quota's own: eBay resets at midnight US Pacific time (America/Los_Angeles,
// so PST or PDT as the date has it). Once the day's budget is spent, the worker keeps that in memory
// until the reset, so it defers lookups without a round trip each, and notes the reset in the row
// for the job page's hint.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { marketplaceDailyCalls } from '../db/schema.ts';

/** Where the quota's day begins and ends. */
export const QUOTA_TIME_ZONE = 'America/Los_Angeles';

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: QUOTA_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: QUOTA_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' });

/** The quota day of an instant ('2026-11-24', in Pacific time) and the instant the next one begins. */
export function quotaDay(at: Date): { day: string; resetsAt: Date } {
  const day = dayFormat.format(at);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  // Midnight Pacific is 08:00 UTC in standard time and 07:00 in daylight time; DST changes at 02:00,
  // never at midnight, so one look at the hour 08:00 UTC falls on tells which.
  const at8Utc = Date.UTC(y, m - 1, d + 1, 8);
  const hour = Number(hourFormat.format(new Date(at8Utc)));
  return { day, resetsAt: new Date(at8Utc - hour * 3_600_000) };
}

export type BudgetAnswer = { ok: true } | { ok: false; resumesAt: Date };

export class DailyCallBudget {
  /** Spent until this instant (the next reset), as this worker last found. */
  private spentUntil: Date | undefined;

  constructor(
    private readonly db: Db,
    private readonly marketplace: string,
    private readonly budget: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Counts one call against today's budget, or says when the next day's begins. */
  async take(): Promise<BudgetAnswer> {
    const at = this.now();
    if (this.spentUntil && at < this.spentUntil) return { ok: false, resumesAt: this.spentUntil };
    const { day, resetsAt } = quotaDay(at);
    const t = marketplaceDailyCalls;
    // A new day starts the count again; a worker whose clock lags behind another's counts on the newer day.
    const newer = sql`${t.day} < excluded.day`;
    const taken = await this.db
      .insert(t)
      .values({ marketplace: this.marketplace, day, used: 1 })
      .onConflictDoUpdate({
        target: t.marketplace,
        set: {
          used: sql`CASE WHEN ${newer} THEN 1 ELSE ${t.used} + 1 END`,
          day: sql`greatest(${t.day}, excluded.day)`,
          resumes_at: sql`CASE WHEN ${newer} THEN NULL ELSE ${t.resumes_at} END`,
        },
        setWhere: sql`${newer} OR ${t.used} < ${this.budget}`,
      })
      .returning({ used: t.used });
    if (taken.length > 0) return { ok: true };
    this.spentUntil = resetsAt;
    await this.db.update(t).set({ resumes_at: resetsAt }).where(sql`${t.marketplace} = ${this.marketplace} AND ${t.day} = ${day}`);
    return { ok: false, resumesAt: resetsAt };
  }
}

/** The hint a deferred lookup carries (and the job page shows). */
export const quotaNote = (resumesAt: Date) => `daily quota reached, resumes at ${resumesAt.toISOString()}`;
