// Job progress per source, read from the job_progress counters: written at ingest and moved on by
// the worker in the same statement that finishes lookups, so a poll reads a few rows whatever the
// size of the jobs (no recount of their lookups).
import { MARKETPLACE_LIST, type MarketplaceId } from '@app/domain/marketplaces';
import type { Sql } from '../db/client.ts';

export type Counts = Record<MarketplaceId, { total: number; processed: number }>;

export async function countProgress(db: Sql, jobIds: number[]): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (jobIds.length === 0) return out;
  for (const id of jobIds) {
    out.set(id, Object.fromEntries(MARKETPLACE_LIST.map((m) => [m.id, { total: 0, processed: 0 }])) as Counts);
  }
  const { rows } = await db.query<{ job_id: number; source: MarketplaceId; total: number; processed: number }>(
    'SELECT job_id, source, total, processed FROM job_progress WHERE job_id = ANY($1)',
    [jobIds],
  );
  for (const r of rows) {
    const counts = out.get(r.job_id);
    if (counts && r.source in counts) counts[r.source] = { total: r.total, processed: r.processed };
  }
  return out;
}
