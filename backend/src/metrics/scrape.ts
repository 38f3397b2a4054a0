// What a scrape reads at the moment it happens: the queue's depth and oldest queued lookup per
// marketplace (one bounded statement over every marketplace's lookup table, on their queued-rows index) and
// the database pool's use; then the registry's text.
import { sql } from 'drizzle-orm';
import { MARKETPLACE_IDS, MARKETPLACES } from '@app/domain/marketplaces';
import type { Db, PoolUse } from '../db/client.ts';
import { databasePool, lookupQueueDepth, lookupQueueOldestAge, registry } from './instruments.ts';

/** The depth is counted up to this many rows, so a scrape costs the same on a huge backlog. */
export const QUEUE_DEPTH_BOUND = 100_000;

const queueStatement = sql.join(
  MARKETPLACE_IDS.map((id) => {
    const table = sql.identifier(MARKETPLACES[id].table);
    const queued = sql`FROM ${table} WHERE lookup_status = 'queued'`;
    return sql`SELECT ${id}::text AS marketplace,
      (SELECT count(*)::int FROM (SELECT 1 ${queued} LIMIT ${sql.raw(String(QUEUE_DEPTH_BOUND))}) capped) AS depth,
      (SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 ${queued}) AS oldest_age`;
  }),
  sql` UNION ALL `,
);

/** Per marketplace: its queued lookups (up to QUEUE_DEPTH_BOUND) and the oldest one's age in seconds (0 when none). */
export async function readQueue(db: Db): Promise<{ marketplace: string; depth: number; oldest_age: number }[]> {
  return (await db.execute<{ marketplace: string; depth: number; oldest_age: number }>(queueStatement)).rows;
}

export async function readQueueGauges(db: Db): Promise<void> {
  for (const row of await readQueue(db)) {
    lookupQueueDepth.set({ marketplace: row.marketplace }, row.depth);
    lookupQueueOldestAge.set({ marketplace: row.marketplace }, Math.max(0, row.oldest_age));
  }
}

export function readPoolGauges(use: PoolUse): void {
  databasePool.set({ state: 'total' }, use.total);
  databasePool.set({ state: 'idle' }, use.idle);
  databasePool.set({ state: 'waiting' }, use.waiting);
}

/** The API's scrape: database gauges, then every metric of this process as Prometheus text. */
export async function scrape(db: Db, poolUse: () => PoolUse): Promise<string> {
  await readQueueGauges(db);
  return scrapeProcess(poolUse);
}

/** A worker process's scrape: its own figures and pool (the queue is the API's to report, once). */
export function scrapeProcess(poolUse: () => PoolUse): Promise<string> {
  readPoolGauges(poolUse());
  return registry.metrics();
}
