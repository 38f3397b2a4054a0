// Each test file gets its own database: a fresh in-memory PGlite, or a new PostgreSQL database
// on the test server (dropped afterwards), so runs never see each other's rows. Both start from the
// run's migrated copy (global-setup.ts); opening them still runs the migrations, which find nothing to do.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/db/client.ts';
import { createDatabase } from './pg-admin.ts';

export type Engine = 'pglite' | 'pg';
export const ENGINES: Engine[] = ['pglite', 'pg'];
/**
 * The one engine of suites whose subject is the HTTP contract alone (which routes are guarded, who may
 * call what): that is decided in the route and guard code, the same on both engines, while every suite
 * about stored data, SQL, exports, live events or concurrency runs on both. PostgreSQL, as deployed; its
 * work runs in the server's process, beside the test's.
 */
export const HTTP_CONTRACT_ENGINE: Engine = 'pg';

export function adminUrl(): string {
  const url = inject('pgAdminUrl');
  if (!url) throw new Error('No PostgreSQL server for tests (global setup did not run)');
  return url;
}

/** Creates an empty database on the test server (unmigrated) and returns its URL and a drop function. */
export async function createPgDatabase(prefix = 'test'): Promise<{ url: string; drop: () => Promise<void> }> {
  return createDatabase(adminUrl(), prefix);
}

let snapshot: Blob | undefined;
/** The run's migrated PGlite database (global-setup.ts), read once per test file. */
function migratedSnapshot(): Blob {
  snapshot ??= new Blob([readFileSync(inject('pgliteSnapshotFile'))]);
  return snapshot;
}

export interface TestDatabase {
  db: Db;
  /** The opened database with its exporter, for an app context. */
  database: Database;
  /** postgres://… of the database, for other processes; undefined on PGlite. */
  url?: string;
  cleanup(): Promise<void>;
}

export async function openTestDatabase(
  engine: Engine,
  opts: { prefix?: string; poolSize?: number; exportPoolSize?: number } = {},
): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ snapshot: migratedSnapshot() });
    return { db: database.db, database, cleanup: () => database.close() };
  }
  const { url, drop } = await createDatabase(adminUrl(), opts.prefix ?? 'test', inject('pgTemplate'));
  const database = await openDatabase({ url, poolSize: opts.poolSize ?? 5, exportPoolSize: opts.exportPoolSize });
  return {
    db: database.db,
    database,
    url,
    cleanup: async () => {
      await database.close();
      await drop();
    },
  };
}

/** How many rows a table holds now. */
export async function countRows(db: Db, table: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
  return rows[0]?.n ?? 0;
}
