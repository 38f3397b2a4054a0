// Planner statistics after a big write. The queue's claim, the worker's write-back and the pages are
// planned from pg_class estimates; a table that just grew from nothing to a million rows is still
// planned as empty until it is analyzed. Measured on a 100k-ISBN job (issue 16): unanalyzed, the
// claim sorted every queued row on disk (~250 ms a claim) and the write-back scanned them all
// (~350 ms); analyzed, 4 ms and 30 ms. PostgreSQL's autovacuum would analyze within a minute or so
// (when it is on); PGlite has no autovacuum at all, so without this its estimates never move.
import { sql } from 'drizzle-orm';
import type { Db } from './db-types.ts';

/**
 * autovacuum's own default (autovacuum_analyze_scale_factor): analyze once the rows written reach a
 * tenth of what the planner believes the table holds.
 */
const GROWTH_SHARE = 0.1;
/** Below this many rows a misestimate costs nothing worth an ANALYZE. */
const MIN_ROWS = 1_000;

/**
 * ANALYZEs each of `tables` that `addedRows` just grew by a tenth or more of its estimated size
 * (or that was never analyzed). Best effort: statistics only speed plans up, so a failure is
 * logged, never thrown over a write that has committed.
 */
export async function analyzeIfGrown(
  db: Db,
  tables: readonly string[],
  addedRows: number,
  log?: { warn(details: object, message: string): void },
  /** default_statistics_target for these ANALYZEs (its sample is 300 × this many rows); the server's own when undefined. */
  statisticsTarget?: number,
): Promise<void> {
  if (addedRows < MIN_ROWS || tables.length === 0) return;
  try {
    // reltuples is -1 for a table never analyzed (PostgreSQL 14+).
    const { rows } = await db.execute<{ relname: string; reltuples: number }>(
      sql`SELECT relname, reltuples::float8 AS reltuples FROM pg_class
          WHERE relkind = 'r' AND relname = ANY(${sql.param([...tables])}::text[]) AND relnamespace = current_schema()::regnamespace`,
    );
    const stale = rows.filter((r) => r.reltuples < 0 || addedRows >= GROWTH_SHARE * r.reltuples).map((r) => r.relname);
    // One table per statement: on PGlite each holds the one connection, so others go between.
    for (const table of stale) {
      if (statisticsTarget === undefined) await db.execute(sql`ANALYZE ${sql.identifier(table)}`);
      else
        await db.transaction(async (tx) => {
          await tx.execute(sql`SELECT set_config('default_statistics_target', ${String(statisticsTarget)}, true)`);
          await tx.execute(sql`ANALYZE ${sql.identifier(table)}`);
        });
    }
  } catch (err) {
    log?.warn({ err, tables }, 'refreshing planner statistics failed; plans use the old estimates until autovacuum runs');
  }
}
