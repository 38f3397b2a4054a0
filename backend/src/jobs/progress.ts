// Job progress per source, read from the job_progress counters: written at ingest and moved on by
// the worker in the same statement that finishes lookups, so a poll reads a few rows whatever the
// size of the jobs (no recount of their lookups).
import { inArray, sql, type SQL } from 'drizzle-orm';
import { MARKETPLACE_LIST, type MarketplaceId } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import { jobProgress } from '../db/schema.ts';

export type Counts = Record<MarketplaceId, { total: number; processed: number }>;

export async function countProgress(db: Db, jobIds: number[]): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (jobIds.length === 0) return out;
  for (const id of jobIds) {
    out.set(id, Object.fromEntries(MARKETPLACE_LIST.map((m) => [m.id, { total: 0, processed: 0 }])) as Counts);
  }
  const rows = await db
    .select({ job_id: jobProgress.job_id, source: jobProgress.source, total: jobProgress.total, processed: jobProgress.processed })
    .from(jobProgress)
    .where(inArray(jobProgress.job_id, jobIds));
  for (const r of rows) {
    const counts = out.get(r.job_id);
    if (counts && r.source in counts) counts[r.source as MarketplaceId] = { total: r.total, processed: r.processed };
  }
  return out;
}

/**
 * The statement that moves one source's processed counters by the number of rows `moved` (rows
 * carrying isbn_lookup_job_id) holds per job: forward as lookups finish (worker/queue.ts,
 * worker/reuse.ts, a cancel), back as finished ones are queued again (retry, re-price). Meant as a
 * data-modifying CTE beside the statement that moves the rows, so counters and rows move together.
 */
export const progressUpdate = (moved: SQL, source: string, direction: 'forward' | 'back' = 'forward') => sql`
  UPDATE ${jobProgress} p SET processed = p.processed ${sql.raw(direction === 'forward' ? '+' : '-')} d.n
  FROM (SELECT isbn_lookup_job_id AS job_id, count(*)::int AS n FROM ${moved} GROUP BY 1) d
  WHERE p.job_id = d.job_id AND p.source = ${source}`;
