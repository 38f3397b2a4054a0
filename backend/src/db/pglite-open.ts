// Opening embedded PGlite, migrated: shared by the in-process engine (tests, scripts) and the thread
// the API runs it on (pglite-thread-body.ts).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** PGlite at `dataDir` (or in memory, from `snapshot` if given), planned as in memory, migrated. */
export async function migratedPglite(dataDir: string | undefined, snapshot?: Blob): Promise<PGlite> {
  // Owner-only, like all of DATA_DIR (core/private-dir.ts).
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const lite = await PGlite.create({
    dataDir,
    loadDataDir: snapshot,
    extensions: { pg_trgm },
    // Same value shapes as node-postgres (db/client.ts): int8 and numeric as JS numbers.
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
  });
  // Its pages live in this process's memory, so a random read costs about a sequential one. At
  // PostgreSQL's default (4, a spinning disk) the planner read all 150k rows of each marketplace's
  // table to join a CSV page of a few thousand (bench comparison: 5.0 s against 2.4 s at 1.1).
  await lite.exec('SET random_page_cost = 1.1');
  await migratePglite(drizzlePglite(lite) as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return lite;
}
