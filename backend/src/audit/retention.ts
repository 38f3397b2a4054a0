// Retention of the audit trail: events older than AUDIT_RETENTION are deleted by the worker in
// bounded batches (oldest first, on the created_at index), so pruning never holds a long lock.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { auditEvents } from '../db/schema.ts';

/** Most events one prune statement deletes. */
export const AUDIT_PRUNE_BATCH = 5000;

/** Deletes up to `batch` of the oldest events older than the retention; answers how many went. */
export async function pruneAuditEvents(db: Db, retentionMs: number, batch = AUDIT_PRUNE_BATCH): Promise<number> {
  const a = auditEvents;
  const { rows } = await db.execute<{ deleted: number }>(sql`
    WITH gone AS (
      DELETE FROM ${a} WHERE ${a.id} IN (
        SELECT ${a.id} FROM ${a} WHERE ${a.created_at} < now() - ${retentionMs} * interval '1 millisecond'
        ORDER BY ${a.created_at}, ${a.id} LIMIT ${batch}
      )
      RETURNING 1
    )
    SELECT count(*)::int AS deleted FROM gone`);
  return rows[0]?.deleted ?? 0;
}

/** One batch per tick of the worker's prune timer; retention 0 keeps every event. */
export class AuditPruner {
  constructor(
    private readonly db: Db,
    readonly retentionMs: number,
    private readonly batch = AUDIT_PRUNE_BATCH,
  ) {}

  async tick(): Promise<{ deleted: number } | null> {
    if (this.retentionMs <= 0) return null;
    return { deleted: await pruneAuditEvents(this.db, this.retentionMs, this.batch) };
  }
}
