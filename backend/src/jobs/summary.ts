// A job's run per marketplace for its own page: lookups by status, progress, when the run started
// and finished, throughput, lookups waiting to be retried and the last errors grouped by message.
import { and, asc, count, desc, eq, gt, isNotNull, max, sql } from 'drizzle-orm';
import { LOOKUP_STATUSES } from '@app/domain/status';
import { MARKETPLACE_LIST, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import { LOOKUP_TABLES, marketplaceDailyCalls } from '../db/schema.ts';
import { countProgress } from './progress.ts';
import type { JobRow } from './repository.ts';

/** Error messages shown per marketplace: the most frequent. */
export const TOP_ERRORS = 5;

/** Statuses a lookup still has to leave; any other (completed, failed, or one added later) is an end. */
const OPEN_STATUSES = new Set(['queued', 'pending']);

/** Known statuses in their lifecycle order, then any other by name. */
const statusOrder = (s: string) => {
  const i = (LOOKUP_STATUSES as readonly string[]).indexOf(s);
  return i === -1 ? LOOKUP_STATUSES.length : i;
};

async function sourceRun(db: Db, jobId: number, m: MarketplaceInfo) {
  const t = LOOKUP_TABLES[m.id];
  const ofJob = eq(t.isbn_lookup_job_id, jobId);
  const [byStatus, errors] = await Promise.all([
    // One pass over the job's rows (its job/status index range) for every figure.
    db
      .select({
        status: t.lookup_status,
        count: count(),
        // A claim sets attempts and updated_at, so the earliest touched row is when work began.
        first_touched: sql<Date | null>`min(${t.updated_at}) FILTER (WHERE ${t.attempts} > 0)`.mapWith(t.updated_at),
        last_updated: max(t.updated_at),
        retry_waiting: sql<number>`count(*) FILTER (WHERE ${t.attempts} > 0 AND ${t.next_attempt_at} > now())`.mapWith(Number),
      })
      .from(t)
      .where(ofJob)
      .groupBy(t.lookup_status),
    db
      .select({ message: t.last_error, count: count(), last_at: max(t.updated_at) })
      .from(t)
      .where(and(ofJob, isNotNull(t.last_error)))
      .groupBy(t.last_error)
      .orderBy(desc(count()), asc(t.last_error))
      .limit(TOP_ERRORS),
  ]);
  return { byStatus, errors };
}

const earliest = (dates: (Date | null)[]) => dates.reduce<Date | null>((a, d) => (d && (!a || d < a) ? d : a), null);
const latest = (dates: (Date | null)[]) => dates.reduce<Date | null>((a, d) => (d && (!a || d > a) ? d : a), null);

/** Marketplaces whose daily call budget is spent, with when it resets (worker/daily-budget.ts). */
async function spentQuotas(db: Db, now: Date): Promise<Map<string, Date>> {
  const t = marketplaceDailyCalls;
  const rows = await db.select({ marketplace: t.marketplace, resumes_at: t.resumes_at }).from(t).where(gt(t.resumes_at, now));
  return new Map(rows.flatMap((r) => (r.resumes_at ? [[r.marketplace, r.resumes_at] as const] : [])));
}

export async function jobSummary(db: Db, job: JobRow, now = new Date()) {
  const asked = MARKETPLACE_LIST.filter((m) => job[m.id]);
  const [progress, runs, quotas] = await Promise.all([
    countProgress(db, [job.id]),
    Promise.all(asked.map((m) => sourceRun(db, job.id, m))),
    spentQuotas(db, now),
  ]);
  const counters = progress.get(job.id);
  const sources = asked.map((m, i) => {
    const { byStatus, errors } = runs[i] ?? { byStatus: [], errors: [] };
    const { total, processed } = counters?.[m.id] ?? { total: 0, processed: 0 };
    const started = earliest(byStatus.map((s) => s.first_touched));
    const done = total > 0 && processed >= total;
    const finished = done ? latest(byStatus.filter((s) => !OPEN_STATUSES.has(s.status)).map((s) => s.last_updated)) : null;
    const minutes = started ? ((finished ?? now).getTime() - started.getTime()) / 60_000 : 0;
    return {
      marketplace: m.id,
      total,
      processed,
      statuses: byStatus
        .map((s) => ({ status: s.status, count: s.count }))
        .sort((a, b) => statusOrder(a.status) - statusOrder(b.status) || a.status.localeCompare(b.status)),
      retry_waiting: byStatus.find((s) => s.status === 'queued')?.retry_waiting ?? 0,
      started_at: started,
      finished_at: finished,
      // Lookups finished per minute over the run so far (or the whole run once it is over).
      throughput_per_minute: minutes > 0 ? Math.round((processed / minutes) * 10) / 10 : null,
      errors: errors.map((e) => ({ message: e.message ?? '', count: e.count, last_at: e.last_at })),
      quota_resumes_at: done ? null : (quotas.get(m.id) ?? null),
    };
  });
  return { job_id: job.id, cost_per_book: job.cost_per_book, sources };
}
