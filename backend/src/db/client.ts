// One database interface over both engines: embedded PGlite (default) or a pg pool (DATABASE_URL).
// Drizzle serves typed CRUD; `query`/`transaction` serve raw SQL for bulk and queue paths.
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';

// node-postgres returns int8/numeric as strings by default; our counts and ids fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export type Orm = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database extends Sql {
  kind: 'pglite' | 'pg';
  orm: Orm;
  /** Runs fn in one transaction; rolls back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** The API's pool (pg only). */
  pool?: pg.Pool;
  /**
   * A small pool of its own for CSV exports (pg only): a download is held open as long as its
   * client reads, so slow or stalled downloads must never take the connections the API needs.
   */
  exportPool?: pg.Pool;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgres://… to use a server; otherwise PGlite. */
  url?: string;
  /** PGlite data directory; undefined means in memory. */
  dataDir?: string;
  poolSize?: number;
  /** Connections for CSV exports (pg only); at most this many run at once. */
  exportPoolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  const db = opts.url ? openPg(opts.url, opts.poolSize ?? 10, opts.exportPoolSize ?? 4) : await openPglite(opts.dataDir);
  // Each migrator wants its own driver's database type; `Orm` is the shape both share (see below).
  if (db.kind === 'pg') await migratePg(db.orm as never, { migrationsFolder: MIGRATIONS_FOLDER });
  else await migratePglite(db.orm as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return db;
}

/**
 * A connection emits 'error' when the server drops it (restart, failover, pg_terminate_backend),
 * also while checked out of the pool; without a listener Node ends the process. The query in flight
 * rejects on its own and its caller answers 5xx, so every connection gets a listener for its whole
 * life; the pool discards a broken connection when it is released with the error.
 */
function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  pool.on('error', () => {}); // an idle connection that broke: the pool has already dropped it
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

function openPg(url: string, max: number, exportMax: number): Database {
  const pool = newPool({ connectionString: url, max });
  // Waiting for a free export connection is bounded: a full pool answers "busy", not a hung request.
  const exportPool = newPool({ connectionString: url, max: exportMax, connectionTimeoutMillis: 2_000, idleTimeoutMillis: 10_000 });
  // node-postgres' and PGlite's databases differ only in their result type parameter; one `Orm` type serves both.
  const orm = drizzlePg(pool, { schema }) as unknown as Orm;
  return {
    kind: 'pg',
    orm,
    pool,
    exportPool,
    async query<T>(text: string, params?: unknown[]) {
      const r = await pool.query(text, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const tx: Sql = {
          async query<R>(text: string, params?: unknown[]) {
            const r = await client.query(text, params as unknown[]);
            return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
          },
        };
        const out = await fn(tx);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        // A ROLLBACK that fails means the connection itself is gone: discard it.
        await client.query('ROLLBACK').catch((rollbackErr: Error) => (broken = rollbackErr));
        throw err;
      } finally {
        client.release(broken);
      }
    },
    close: async () => {
      await Promise.all([pool.end(), exportPool.end()]);
    },
  };
}

async function openPglite(dataDir?: string): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create({
    dataDir,
    extensions: { pg_trgm },
    // Same value shapes as node-postgres above: int8 and numeric as JS numbers.
    parsers: { 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
  });
  // As above: PGlite's database seen through the shared `Orm` type.
  const orm = drizzlePglite(lite, { schema }) as unknown as Orm;
  const toResult = <T>(r: { rows: unknown[]; affectedRows?: number }): QueryResult<T> => ({
    rows: r.rows as T[],
    rowCount: r.affectedRows ?? r.rows.length,
  });
  return {
    kind: 'pglite',
    orm,
    async query<T>(text: string, params?: unknown[]) {
      return toResult<T>(await lite.query(text, params as unknown[]));
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>) {
      return lite.transaction(async (t) =>
        fn({ query: async <R,>(text: string, params?: unknown[]) => toResult<R>(await t.query(text, params as unknown[])) }),
      );
    },
    close: () => lite.close(),
  };
}
