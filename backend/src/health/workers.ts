// The workers' heartbeats as the health page lists them: a worker is stale when it has not beaten
// for three of its own intervals (it died without a graceful stop, or it hangs).
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { workerHeartbeats as hb } from '../db/schema.ts';

/** Beats a worker may miss before it counts as stale. */
export const STALE_AFTER_BEATS = 3;

export function listWorkers(db: Db) {
  return db
    .select({
      id: hb.id,
      host: hb.host,
      pid: hb.pid,
      started_at: hb.started_at,
      last_seen: hb.last_seen,
      lookups_in_flight: hb.lookups_in_flight,
      stale: sql<boolean>`${hb.last_seen} < now() - ${STALE_AFTER_BEATS} * ${hb.beat_ms} * interval '1 millisecond'`,
    })
    .from(hb)
    .orderBy(hb.started_at, hb.id);
}
