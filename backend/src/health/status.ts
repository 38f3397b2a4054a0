// The superusers' system status page in one read: per marketplace the queue (depth and oldest
// queued lookup, the statement the metrics scrape runs), the shared rate limit's next free slot,
// this process's rate-limit waits and refusals (the registry /metrics exports), the daily budget
// left and the newest failed lookups; and every worker's heartbeat (as /health/workers lists them).
// Each part is bounded: the queue as the scrape counts it, errors read from the status index.
import { MARKETPLACE_IDS, MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { LOOKUP_TABLES, marketplaceDailyCalls, marketplaceRateSlots } from '../db/schema.ts';
import { marketplaceRegistry } from '../marketplaces/registry.ts';
import { marketplaceRefusals, rateLimitWait } from '../metrics/instruments.ts';
import { QUEUE_DEPTH_BOUND, readQueue } from '../metrics/scrape.ts';
import { quotaDay, quotaTimeZoneOf } from '../worker/daily-budget.ts';
import { listWorkers } from './workers.ts';

/** Failed lookups shown per marketplace. */
export const LAST_ERRORS = 5;

/** The budget each marketplace's workers keep: the settings given, else the marketplace's default. */
function budgetOf(id: MarketplaceId, budgets: Readonly<Record<string, number>> | undefined): number | undefined {
  return budgets ? budgets[id] : marketplaceRegistry[id].defaultDailyCallBudget;
}

/** This process's histogram or counter values by marketplace label (prom-client's `get()`). */
async function byMarketplace(metric: { get(): Promise<{ values: { value: number; labels: object; metricName?: string }[] }> }) {
  const out = new Map<string, Map<string, number>>();
  for (const v of (await metric.get()).values) {
    const m = (v.labels as { marketplace?: string }).marketplace;
    if (!m) continue;
    const name = v.metricName ?? '';
    out.set(m, (out.get(m) ?? new Map()).set(name, v.value));
  }
  return out;
}

/** The newest failed lookups of one marketplace (the highest ids, read on its (status, id) index). */
function lastErrors(db: Db, id: MarketplaceId) {
  const t = LOOKUP_TABLES[id];
  return db
    .select({ job_id: t.isbn_lookup_job_id, isbn: t.isbn, message: t.last_error, at: t.updated_at })
    .from(t)
    .where(and(eq(t.lookup_status, 'failed'), isNotNull(t.last_error)))
    .orderBy(desc(t.id))
    .limit(LAST_ERRORS);
}

export async function readSystemStatus(db: Db, budgets: Readonly<Record<string, number>> | undefined, now = new Date()) {
  const [queue, workers, slots, calls, waits, refusals, errors] = await Promise.all([
    readQueue(db),
    listWorkers(db),
    db
      .select({
        marketplace: marketplaceRateSlots.marketplace,
        wait: sql<number>`greatest(0, extract(epoch FROM ${marketplaceRateSlots.next_at} - now()))::float8`,
      })
      .from(marketplaceRateSlots),
    db.select().from(marketplaceDailyCalls),
    byMarketplace(rateLimitWait),
    byMarketplace(marketplaceRefusals),
    Promise.all(MARKETPLACE_IDS.map((id) => lastErrors(db, id))),
  ]);
  const marketplaces = MARKETPLACE_IDS.map((id, i) => {
    const q = queue.find((r) => r.marketplace === id);
    const budget = budgetOf(id, budgets);
    const row = calls.find((c) => c.marketplace === id);
    // A row from an earlier quota day counts nothing today.
    const today = quotaDay(now, quotaTimeZoneOf(id)).day;
    const used = row && row.day >= today ? row.used : 0;
    const w = waits.get(id);
    return {
      id,
      label: MARKETPLACES[id].label,
      queued: q?.depth ?? 0,
      queued_capped: (q?.depth ?? 0) >= QUEUE_DEPTH_BOUND,
      oldest_queued_seconds: Math.max(0, q?.oldest_age ?? 0),
      next_request_wait_seconds: slots.find((s) => s.marketplace === id)?.wait ?? 0,
      rate_limit_waits: {
        count: w?.get('marketplace_rate_limit_wait_seconds_count') ?? 0,
        seconds: w?.get('marketplace_rate_limit_wait_seconds_sum') ?? 0,
      },
      refusals: refusals.get(id)?.values().next().value ?? 0,
      daily_budget:
        budget === undefined
          ? null
          : {
              budget,
              used,
              left: Math.max(0, budget - used),
              resumes_at: row && row.day >= today && row.resumes_at && row.resumes_at > now ? row.resumes_at : null,
            },
      last_errors: (errors[i] ?? []).map((e) => ({ ...e, message: e.message ?? '' })),
    };
  });
  return { checked_at: now, marketplaces, workers };
}
