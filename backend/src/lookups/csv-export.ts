// Streams a lookup query as CSV in constant memory.
// PostgreSQL: the server writes the CSV itself (COPY … TO STDOUT) and we pipe its bytes to the
// client, so an export runs near COPY's speed. Spreadsheet safety (a leading ' before = + - @)
// and ISO timestamps are done in the SELECT. COPY takes no bind parameters, so the filter values
// are inlined as escaped literals (they were validated and typed by filtersToSql).
// PGlite: one connection that a long COPY would hold, so pages of rows go through csv-stringify.
import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { to as copyTo } from 'pg-copy-streams';
import type pg from 'pg';
import type { FieldDef } from '@app/domain/fields';
import type { Database } from '../db/client.ts';
import { safeCsvCell } from '../lib/csv.ts';
import { quoteIdent } from '../lib/filter-sql.ts';

const PAGE = 5000;

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

function copyStream(pool: pg.Pool, q: ExportQuery): Readable {
  const out = new PassThrough();
  out.write(csvLine(columnsOf(q.fields).map((f) => f.label)));
  pool.connect().then(
    (client) => {
      const sql = `COPY (SELECT ${copySelect(q.fields)} ${q.fromWhere} ORDER BY ${q.orderBy}) TO STDOUT WITH (FORMAT csv)`;
      const copy = client.query(copyTo(inlineParams(sql, q.params, client)));
      // On error (a client that went away mid-download) the connection may hold an unfinished COPY:
      // releasing it with the error makes the pool discard it.
      pipeline(copy, out, (err) => client.release(err ?? undefined));
    },
    (err) => out.destroy(err),
  );
  return out;
}

async function* pagedRows(db: Database, sql: string, params: unknown[]): AsyncGenerator<Record<string, unknown>> {
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await db.query(`${sql} OFFSET ${offset} LIMIT ${PAGE}`, params);
    yield* rows;
    if (rows.length < PAGE) return;
  }
}

function pagedStream(db: Database, q: ExportQuery): Readable {
  const columns = columnsOf(q.fields);
  const csv = stringify({
    header: true,
    columns: columns.map((f) => ({ key: f.name, header: f.label })),
    cast: { string: safeCsvCell, date: (d) => d.toISOString(), number: (n) => String(n) },
  });
  const sql = `SELECT ${columns.map((f) => quoteIdent(f.name)).join(', ')} ${q.fromWhere} ORDER BY ${q.orderBy}`;
  pipeline(Readable.from(pagedRows(db, sql, q.params)), csv, () => {});
  return csv;
}

export function csvStream(db: Database, q: ExportQuery): Readable {
  return db.kind === 'pg' && db.pool ? copyStream(db.pool, q) : pagedStream(db, q);
}
