// Job progress comes from counting lookup rows by status (index on job id + status), never from
// stored counters that could drift.
import { MARKETPLACE_LIST, type MarketplaceId } from '@app/domain/marketplaces';
import { FINISHED_STATUSES } from '@app/domain/status';
import type { Sql } from '../db/client.ts';

export type Counts = Record<MarketplaceId, { total: number; processed: number }>;

export async function countProgress(db: Sql, jobIds: number[]): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (jobIds.length === 0) return out;
  for (const id of jobIds) {
    out.set(id, Object.fromEntries(MARKETPLACE_LIST.map((m) => [m.id, { total: 0, processed: 0 }])) as Counts);
  }
  const union = MARKETPLACE_LIST.map(
    (m) => `SELECT '${m.id}' AS source, isbn_lookup_job_id AS job_id, count(*)::int AS total,
              count(*) FILTER (WHERE lookup_status = ANY($2))::int AS processed
            FROM ${m.table} WHERE isbn_lookup_job_id = ANY($1) GROUP BY isbn_lookup_job_id`,
  ).join(' UNION ALL ');
  const { rows } = await db.query<{ source: MarketplaceId; job_id: number; total: number; processed: number }>(union, [
    jobIds,
    FINISHED_STATUSES,
  ]);
  for (const r of rows) out.get(r.job_id)![r.source] = { total: r.total, processed: r.processed };
  return out;
}
