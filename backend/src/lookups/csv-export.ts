// Streams a lookup query as CSV in constant memory: a server-side cursor (pg-query-stream) on
// PostgreSQL; pages of rows on PGlite, which has a single connection that a long cursor would hold.
import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import QueryStream from 'pg-query-stream';
import type { FieldDef } from '@app/domain/fields';
import type { Database } from '../db/client.ts';
import { safeCsvCell } from '../lib/csv.ts';

const PAGE = 5000;

async function* pagedRows(db: Database, sql: string, params: unknown[]): AsyncGenerator<Record<string, unknown>> {
  for (let offset = 0; ; offset += PAGE) {
    const { rows } = await db.query(`${sql} OFFSET ${offset} LIMIT ${PAGE}`, params);
    yield* rows;
    if (rows.length < PAGE) return;
  }
}

function rowSource(db: Database, sql: string, params: unknown[]): Readable {
  if (db.kind !== 'pg' || !db.pool) return Readable.from(pagedRows(db, sql, params));
  const out = new PassThrough({ objectMode: true });
  db.pool.connect().then(
    (client) => {
      const cursor = client.query(new QueryStream(sql, params, { batchSize: 2000 }));
      let released = false;
      const release = () => {
        if (!released) client.release();
        released = true;
      };
      cursor.on('end', release);
      cursor.on('error', (err) => {
        release();
        out.destroy(err);
      });
      // A client that disconnects mid-download closes the cursor and frees the connection.
      out.on('close', () => {
        cursor.destroy();
        release();
      });
      cursor.pipe(out);
    },
    (err) => out.destroy(err),
  );
  return out;
}

export function csvStream(db: Database, fields: readonly FieldDef[], sql: string, params: unknown[]): Readable {
  const columns = fields.filter((f) => f.column);
  const csv = stringify({
    header: true,
    columns: columns.map((f) => ({ key: f.name, header: f.label })),
    cast: { string: safeCsvCell, date: (d) => d.toISOString(), number: (n) => String(n) },
  });
  pipeline(rowSource(db, sql, params), csv, () => {});
  return csv;
}
