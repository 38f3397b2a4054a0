// One Drizzle database over either engine: embedded PGlite (default) or a pg pool (DATABASE_URL).
// Features only ever see `Db`; the two things the engines do differently are chosen here, at open
// time: CSV export as a `CsvExporter` (db/csv-exporter.ts), big writes as `BulkWrites` (db/bulk-writes.ts).
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import * as schema from './schema.ts';
import { MIGRATIONS_FOLDER, migratedPglite } from './pglite-open.ts';
import { PgliteThread } from './pglite-thread.ts';
import type { EmbeddedEngine } from './embedded-engine.ts';
import type { SessionActivity } from './session-lock.ts';
import { copyExporter, pagedExporter, type CsvExporter, type PageRunner } from './csv-exporter.ts';
import type { Db } from './db-types.ts';
import { inSteps, oneTransaction, type BulkWrites } from './bulk-writes.ts';
import { consoleDbLog, type DbLog } from './log.ts';
import { pgListen, pgliteListen, type Listen } from './listen.ts';

export { MIGRATIONS_FOLDER };
export type { Db, RowsResultHKT, Tx } from './db-types.ts';

// node-postgres returns int8/numeric as strings by default; our counts and ids fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

/** How busy the connection pool is (pg's pool; PGlite is one connection, always in use). */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

export interface Database {
  db: Db;
  /** The API pool's connections right now, for the metrics scrape. */
  poolUse(): PoolUse;
  /** Streams query results as CSV: COPY on its own small pool (pg), COPY of keyset pages (PGlite). */
  exporter: CsvExporter;
  /** LISTEN on a channel: its own connection (pg), the same instance (PGlite). */
  listen: Listen;
  /** Big writes: ONE transaction (pg), committed steps that give way between them (PGlite). */
  bulk: BulkWrites;
  /** True for PGlite: one in-process engine, so a long statement or transaction holds every request. */
  embedded?: boolean;
  /**
   * PGlite on its own thread: what its one session is doing, read without a statement, so readiness
   * need not queue behind the work in progress (health/readiness.ts).
   */
  sessionActivity?: () => SessionActivity;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… to use a server; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  dataDir?: string;
  /**
   * PGlite: start from this copy of a data directory (`dumpPgliteSnapshot`) instead of an empty
   * one; its migrations already applied are skipped. Creating a database costs ~2.5 s of PGlite's
   * initdb; loading a copy ~1 s (the test suite opens one per app).
   */
  snapshot?: Blob;
  /**
   * PGlite: run it on a thread of its own (db/pglite-thread.ts), so that no statement blocks the
   * API's thread. The API does; tests and scripts that own their process run it in process.
   */
  thread?: boolean;
  poolSize?: number;
  /** Connections for CSV exports (pg only); at most this many run at once. */
  exportPoolSize?: number;
}

export async function openDatabase(opts: OpenOptions, log: DbLog = consoleDbLog): Promise<Database> {
  return opts.url
    ? openPg(opts.url, opts.poolSize ?? 10, opts.exportPoolSize ?? 4, log)
    : openPglite(opts.dataDir, log, opts.snapshot, opts.thread);
}

/** A migrated, empty in-memory PGlite database as a copy to start others from (OpenOptions.snapshot). */
export async function dumpPgliteSnapshot(): Promise<Blob> {
  const lite = await migratedPglite(undefined);
  try {
    return await lite.dumpDataDir('none');
  } finally {
    await lite.close();
  }
}

/**
 * A connection emits 'error' when the server drops it (restart, failover, pg_terminate_backend),
 * also while checked out of the pool; without a listener Node ends the process. The query in flight
 * rejects on its own and its caller answers 5xx, so a checked-out connection's error is only
 * logged; an idle one is dropped by the pool. pg-pool discards a broken connection on release.
 */
function newPool(config: pg.PoolConfig, name: string, log: DbLog): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', (err) => log.warn(`database: an idle connection of the ${name} pool broke and was dropped: ${err.message}`));
  pool.on('connect', (client) => client.on('error', (err) => log.warn(`database: a connection of the ${name} pool broke: ${err.message}`)));
  return pool;
}

async function openPg(url: string, max: number, exportMax: number, log: DbLog): Promise<Database> {
  const pool = newPool({ connectionString: url, max }, 'API', log);
  // Downloads are held open as long as their client reads, so they get a small pool of their own
  // and never take the connections the API needs. Waiting for one is bounded: a full pool answers
  // "busy", not a hung request.
  const exportPool = newPool(
    { connectionString: url, max: exportMax, connectionTimeoutMillis: 2_000, idleTimeoutMillis: 10_000 },
    'export',
    log,
  );
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const close = async () => {
    await Promise.all([pool.end(), exportPool.end()]);
  };
  try {
    await migrateOneAtATime(url, () => migratePg(db as never, { migrationsFolder: MIGRATIONS_FOLDER }));
  } catch (err) {
    await close();
    throw err;
  }
  const poolUse = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
  return { db, poolUse, exporter: copyExporter(exportPool, log), bulk: oneTransaction, listen: pgListen(url, log), close };
}

/** Any fixed key: every process of this app takes the same one. */
const MIGRATION_LOCK_KEY = 7_310_584_221;

/**
 * Runs the migrations while holding a session advisory lock on a connection of its own. Processes
 * starting together on a fresh database (API replicas and workers) would otherwise all create the
 * same tables at once and all but one fail; with the lock the others wait, then find nothing to do.
 */
async function migrateOneAtATime(url: string, migrate: () => Promise<void>): Promise<void> {
  const lock = new pg.Client({ connectionString: url });
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate();
  } finally {
    // Ending the session releases the lock, also when the migration failed.
    await lock.end();
  }
}

/** How an export's pages run on PGlite: COPY writes to a blob it hands back. */
export const pglitePages = (lite: EmbeddedEngine): PageRunner => ({
  rows: async (text) => (await lite.query<Record<string, unknown>>(text)).rows,
  copy: async (select) => {
    const { blob } = await lite.query(`COPY (${select}) TO '/dev/blob' WITH (FORMAT csv)`);
    return blob ? Buffer.from(await blob.arrayBuffer()) : Buffer.alloc(0);
  },
});

async function openPglite(dataDir: string | undefined, log: DbLog, snapshot?: Blob, thread = false): Promise<Database> {
  const lite: EmbeddedEngine = thread
    ? await PgliteThread.start({ dataDir, snapshot: snapshot ? new Uint8Array(await snapshot.arrayBuffer()) : undefined }, log)
    : await migratedPglite(dataDir, snapshot);
  const db = drizzlePglite({ client: lite as PGlite, schema }) as unknown as Db;
  const poolUse = () => ({ total: 1, idle: 0, waiting: 0 });
  return {
    db,
    poolUse,
    exporter: pagedExporter(pglitePages(lite), log),
    bulk: inSteps(),
    listen: pgliteListen(lite, log),
    embedded: true,
    sessionActivity: lite.activity?.bind(lite),
    close: () => lite.close(),
  };
}
