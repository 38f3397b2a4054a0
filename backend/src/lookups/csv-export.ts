// Streams a lookup query as CSV in constant memory.
// PostgreSQL: the server writes the CSV itself (COPY … TO STDOUT) and we pipe its bytes to the
// client, so an export runs near COPY's speed. Spreadsheet safety (a leading ' before = + - @)
// and ISO timestamps are done in the SELECT. COPY takes no bind parameters, so the filter values
// are inlined as escaped literals (they were validated and typed by filtersToSql).
// PGlite: one connection that a long COPY would hold, so pages of rows go through csv-stringify,
// each page its own query (nothing is held while a slow client reads).
// Either way the query has started (its first rows are in hand) before the response begins, so
// an export that cannot run answers {detail} with a status, never a cut-off 200.
import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { to as copyTo } from 'pg-copy-streams';
import type pg from 'pg';
import type { FieldDef } from '@app/domain/fields';
import type { Database } from '../db/client.ts';
import { safeCsvCell } from '../lib/csv.ts';
import { HttpError } from '../lib/http-errors.ts';
import { quoteIdent } from '../lib/filter-sql.ts';

const PAGE = 5000;

export interface ExportOptions {
  /** A download whose client reads nothing for this long is ended, freeing its connection. */
  stallTimeoutMs: number;
}

export interface ExportQuery {
  fields: readonly FieldDef[];
  /** FROM … WHERE … with $n placeholders. */
  fromWhere: string;
  orderBy: string;
  params: unknown[];
}

const columnsOf = (fields: readonly FieldDef[]) => fields.filter((f) => f.column);

/** RFC 4180 quoting for the header line we write ourselves. */
const csvLine = (cells: string[]) => `${cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')}\n`;

function copySelect(fields: readonly FieldDef[]): string {
  return columnsOf(fields)
    .map((f) => {
      const col = quoteIdent(f.name);
      if (f.type === 'date') return `to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
      if (f.type === 'number') return col;
      return `CASE WHEN ${col} ~ '^[=+@\\t\\r-]' THEN '''' || ${col} ELSE ${col} END`;
    })
    .join(', ');
}

function inlineParams(sql: string, params: unknown[], client: pg.PoolClient): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (v instanceof Date) return `${client.escapeLiteral(v.toISOString())}::timestamptz`;
    return client.escapeLiteral(String(v));
  });
}

async function connectForExport(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return await pool.connect();
  } catch (err) {
    // pg-pool's wait for a free connection timed out: every export slot is busy.
    if (/timeout/i.test((err as Error).message)) {
      throw new HttpError(503, 'Too many CSV downloads are running. Please try again in a moment.', { 'retry-after': '10' });
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

/** Ends `out` with an error when nothing has passed through it for `ms` (a client that stopped reading). */
function endWhenStalled(out: PassThrough, ms: number): void {
  let last = Date.now();
  out.on('data', () => (last = Date.now()));
  const timer = setInterval(() => {
    if (Date.now() - last > ms) out.destroy(new Error(`CSV download stalled for ${ms} ms`));
  }, Math.max(50, Math.floor(ms / 4)));
  timer.unref();
  out.once('close', () => clearInterval(timer));
}

async function copyStream(pool: pg.Pool, q: ExportQuery, opts: ExportOptions): Promise<Readable> {
  const client = await connectForExport(pool);
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    // With an error (the client went away, the connection broke) the pool discards the connection,
    // which also ends an unfinished COPY on the server.
    client.release(err);
  };
  const sql = `COPY (SELECT ${copySelect(q.fields)} ${q.fromWhere} ORDER BY ${q.orderBy}) TO STDOUT WITH (FORMAT csv)`;
  const copy = client.query(copyTo(inlineParams(sql, q.params, client)));
  let first: Buffer | null;
  try {
    first = await firstChunk(copy);
  } catch (err) {
    release(err as Error);
    throw new HttpError(503, 'The export could not run. Please try again in a moment.');
  }
  const out = new PassThrough();
  out.write(csvLine(columnsOf(q.fields).map((f) => f.label)));
  if (first === null) {
    release();
    out.end();
    return out;
  }
  out.write(first);
  endWhenStalled(out, opts.stallTimeoutMs);
  pipeline(copy, out, (err) => release(err ?? undefined));
  return out;
}

const page = (db: Database, sql: string, params: unknown[], offset: number) =>
  db.query(`${sql} OFFSET ${offset} LIMIT ${PAGE}`, params).then((r) => r.rows);

async function* pagedRows(db: Database, sql: string, params: unknown[], first: Record<string, unknown>[]): AsyncGenerator<Record<string, unknown>> {
  let rows = first;
  for (let offset = 0; ; ) {
    yield* rows;
    if (rows.length < PAGE) return;
    offset += PAGE;
    rows = await page(db, sql, params, offset);
  }
}

async function pagedStream(db: Database, q: ExportQuery): Promise<Readable> {
  const columns = columnsOf(q.fields);
  const csv = stringify({
    header: true,
    columns: columns.map((f) => ({ key: f.name, header: f.label })),
    cast: { string: safeCsvCell, date: (d) => d.toISOString(), number: (n) => String(n) },
  });
  const sql = `SELECT ${columns.map((f) => quoteIdent(f.name)).join(', ')} ${q.fromWhere} ORDER BY ${q.orderBy}`;
  const first = await page(db, sql, q.params, 0);
  // A failure after the first page can only cut the download short; the client sees it end early.
  pipeline(Readable.from(pagedRows(db, sql, q.params, first)), csv, () => {});
  return csv;
}

/** The CSV of a lookup query, started: rejects (with a status) when it cannot run. */
export function csvStream(db: Database, q: ExportQuery, opts: ExportOptions): Promise<Readable> {
  return db.kind === 'pg' && db.exportPool ? copyStream(db.exportPool, q, opts) : pagedStream(db, q);
}
