// Each test file gets its own database: a fresh in-memory PGlite, or a new PostgreSQL database
// on the test server (dropped afterwards), so runs never see each other's rows. Both start from the
// run's migrated copy (global-setup.ts); opening them still runs the migrations, which find nothing to do.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/db/client.ts';
import { createDatabase } from './pg-admin.ts';

export type Engine = 'pglite' | 'pg';

// Which engines a suite runs on is one line at its top, `describe.each(ENGINES)` or
// `describe.each(ONE_ENGINE)`; docs/development.md lists every file's choice, and
// test-tiers.test.ts checks the list against the files.
/**
 * Both engines: suites whose subject the engines could do differently. Hand-written SQL (the queue,
 * ingest, the comparison, velocity), exports (COPY on PostgreSQL, keyset pages on PGlite), live events
 * (NOTIFY), the embedded database's thread and committed steps, the planner, migrations, and anything
 * counted or claimed concurrently (a pool of connections against PGlite's one).
 */
export const ENGINES: Engine[] = ['pglite', 'pg'];
/**
 * The one engine of engine-neutral suites: the HTTP contract (who may call what, which 422), and
 * records written and read through the query builder alone (accounts, sessions, rule sets, fee
 * schedules, the registry's tables), the same statements on both engines. PostgreSQL, as deployed: a
 * test database is a template copy (~0.2 s against ~1 s for a PGlite copy), and its work runs in the
 * server's processes beside the test's. PGlite meets these routes in the browser suite, whose app
 * (`npm start`) runs on it.
 */
export const ONE_ENGINE: Engine[] = ['pg'];

/**
 * Inside a suite on ENGINES, a block about the HTTP layer alone (a body's size or pace, a path's
 * length, an access rule), which no engine-specific code reaches: defined on ONE_ENGINE's pass only.
 */
export function onOneEngine(engine: Engine, define: () => void): void {
  if (ONE_ENGINE.includes(engine)) define();
}

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
