// Streams a query's rows as CSV in constant memory; the one place where the two engines differ,
// chosen when the database is opened (db/client.ts).
// PostgreSQL: the server writes the CSV itself (COPY … TO STDOUT) on the export pool and we pipe its
// bytes to the client: measured near COPY's own speed, several times the paged path's. Spreadsheet
// safety (a leading ' before = + - @) is done in the SELECT. COPY takes no bind parameters, so the
// filter values are inlined as escaped literals (they were validated and typed by lib/filter-sql.ts).
// PGlite: one connection that a long COPY would hold, so the export is pages, each a COPY of a
// short keyset range (db/keyset.ts) written by the database (nothing is held while a slow client
// reads). OFFSET pages re-read every row before each page: 18.8 s for a 150k-row comparison.
// Either way the query has started (its first rows are in hand) before the response begins, so
// an export that cannot run answers {detail} with a status, never a cut-off 200. Failures after
// that can only cut the download short; they are logged.
import { PassThrough, Readable, pipeline } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { to as copyTo } from 'pg-copy-streams';
import pg from 'pg';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { FieldDef } from '@app/domain/fields';
import { safeCsvCellSql } from '../lib/csv.ts';
import { orderBySql, type SortKey } from '../lib/filter-sql.ts';
import { HttpError } from '../lib/http-errors.ts';
import type { DbLog } from './log.ts';
import { tooManyDownloads } from './export-slots.ts';
import { Keyset } from './keyset.ts';

/**
 * Rows per page on PGlite: one keyset page of an indexed order takes a few tens of ms. Pages of
 * 5000 made the planner hash-join whole lookup tables for a comparison page; at 2000 it probes
 * their indexes (bench comparison: the 150k-row CSV 3.8 s against 2.4 s).
 */
const PAGE = 2000;

const whereOf = (where: SQL | undefined) => (where ? sql` WHERE ${where}` : sql``);

export interface CsvQuery {
  /** The exported columns, in order, with their header labels. */
  columns: readonly FieldDef[];
  /** The relation read (a table, or a subquery with its alias), each row with a unique `id`. */
  from: SQL;
  where?: SQL | undefined;
  /** The list's order, ending with `id` (lib/filter-sql.ts sortKeys). */
  sort: readonly SortKey[];
  /**
   * The same rows as `from` (with `where`), in the same order, by a cheaper relation that has the
   * sort's and the filters' columns (a job's stored comparison beside the joins that compute it):
   * the paged export finds each page's rows in it, then reads only those from `from`.
   */
  keys?: SQL;
}

export interface CsvExporter {
  /**
   * The CSV of a query, started: rejects (with a status) when it cannot run. Slots, and ending
   * downloads that stall or crawl, are db/export-slots.ts's.
   */
  stream(q: CsvQuery): Promise<Readable>;
}

/** Dates as ISO 8601 UTC, the same text on both engines. */
const isoDate = (col: SQL) => sql`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The header line COPY does not write, quoted by csv-stringify like every other line. */
const headerLine = (columns: readonly FieldDef[]) => stringifySync([columns.map((f) => f.label)]);

function copySelect(columns: readonly FieldDef[]): SQL {
  return sql.join(
    columns.map((f) => {
      const col = sql.identifier(f.name);
      if (f.type === 'date') return isoDate(sql`${col}`);
      // Money to the cent, as exact decimal text (31.50, never 31.500000000000004 or 17.4665).
      if (f.format === 'money') return sql`round(${col}::numeric, 2)`;
      if (f.type === 'number') return sql`${col}`;
      return safeCsvCellSql(sql`${col}`);
    }),
    sql`, `,
  );
}

const dialect = new PgDialect();

/** A statement with its parameters written in as literals (COPY cannot bind them). */
function inlined(statement: SQL): string {
  const { sql: text, params } = dialect.sqlToQuery(statement);
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (v instanceof Date) return `${pg.escapeLiteral(v.toISOString())}::timestamptz`;
    return pg.escapeLiteral(String(v));
  });
}

async function connectForExport(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    // pg-pool's wait for a free connection timed out: every export slot is busy.
    if (/timeout/i.test((err as Error).message)) {
      throw tooManyDownloads();
    }
    throw new HttpError(503, 'The database is unavailable. Please try again in a moment.');
  }
}

/** Resolves with the stream's first chunk (null when it ends empty), or rejects with its error. */
function firstChunk(stream: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const done = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
    };
    const onReadable = () => {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        done();
        resolve(chunk);
      }
    };
    const onEnd = () => {
      done();
      resolve(null);
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
  });
}

const cutShort = (log: DbLog) => (err: Error | null | undefined) => {
  if (err) log.warn(`CSV download ended early: ${err.message}`);
};

/** PostgreSQL: COPY on a connection of the export pool. */
export function copyExporter(pool: pg.Pool, log: DbLog): CsvExporter {
  return {
    async stream(q) {
      const client = await connectForExport(pool);
      let released = false;
      const release = (err?: Error) => {
        if (released) return;
        released = true;
        // With an error (the client went away, the connection broke) the pool discards the
        // connection, which also ends an unfinished COPY on the server.
        client.release(err);
      };
      const statement = sql`COPY (SELECT ${copySelect(q.columns)} FROM ${q.from}${whereOf(q.where)} ORDER BY ${orderBySql(q.sort)}) TO STDOUT WITH (FORMAT csv)`;
      const copy = client.query(copyTo(inlined(statement)));
      let first: Buffer | null;
      try {
        first = await firstChunk(copy);
      } catch (err) {
        log.warn(`CSV export could not start: ${(err as Error).message}`);
        release(err as Error);
        throw new HttpError(503, 'The export could not run. Please try again in a moment.');
      }
      const out = new PassThrough();
      out.write(headerLine(q.columns));
      if (first === null) {
        release();
        out.end();
        return out;
      }
      out.write(first);
      pipeline(copy, out, (err) => {
        cutShort(log)(err);
        release(err ?? undefined);
      });
      return out;
    },
  };
}

/** How the embedded database runs an export's statements (db/client.ts gives PGlite's). */
export interface PageRunner {
  /** The rows of a query. */
  rows(text: string): Promise<Record<string, unknown>[]>;
  /** A SELECT's rows as CSV written by the database (COPY … WITH (FORMAT csv)). */
  copy(select: string): Promise<Buffer>;
}

/**
 * PGlite: keyset pages (db/keyset.ts), each written as CSV by the database itself, like COPY on
 * PostgreSQL and with the same SELECT, so both engines give the same bytes. Turning 150k rows into
 * JavaScript values and back into CSV text cost ~25× the COPY (measured: bench exports). A page is
 * two short statements: its last row (the cursor), then COPY of the rows up to it.
 */
export function pagedExporter(runner: PageRunner, log: DbLog, pageRows = PAGE): CsvExporter {
  return {
    async stream(q) {
      const keyset = new Keyset(q.sort);
      const where = (...parts: (SQL | undefined)[]) =>
        sql.join(
          [q.where && sql`(${q.where})`, ...parts].filter((p): p is SQL => p !== undefined),
          sql` AND `,
        );
      const page = async (after: SQL): Promise<Buffer> => {
        const orderBy = keyset.orderBy();
        const [last] = await runner.rows(
          inlined(
            sql`SELECT ${keyset.columns} FROM ${q.keys ?? q.from} WHERE ${where(after)} ORDER BY ${orderBy} OFFSET ${pageRows - 1} LIMIT 1`,
          ),
        );
        // With `keys`, the page's rows are found there and only those read from `from` (by id).
        const rows = q.keys
          ? sql`id IN (SELECT id FROM ${q.keys} WHERE ${where(after, keyset.upTo(last))})`
          : where(after, keyset.upTo(last));
        const csv = await runner.copy(inlined(sql`SELECT ${copySelect(q.columns)} FROM ${q.from} WHERE ${rows} ORDER BY ${orderBy}`));
        keyset.advance(last);
        return csv;
      };
      async function* pages(first: Buffer): AsyncGenerator<Buffer> {
        yield Buffer.from(headerLine(q.columns));
        yield first;
        for (let after = keyset.next(); after; after = keyset.next()) {
          // Each page is its own statements on the connection everything shares: others go between.
          await nextTurn();
          yield await page(after);
        }
      }
      const first = await page(keyset.next() ?? sql`TRUE`);
      const out = new PassThrough();
      pipeline(Readable.from(pages(first)), out, cutShort(log));
      return out;
    },
  };
}
