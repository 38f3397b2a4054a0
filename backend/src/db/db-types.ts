// The database's types, over whichever engine was opened (db/client.ts opens it). A module of their
// own, so that what client.ts wires in at open time (db/bulk-writes.ts) can name them without an
// import cycle.
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type * as schema from './schema.ts';

/**
 * What `db.execute(sql…)` resolves to on both engines: node-postgres' QueryResult and PGlite's
 * Results both carry `rows` (their row counts differ in name, so statements that need a count
 * return it as a column). Timestamps in raw results stay text; select through the query builder
 * (or `.mapWith(column)`) to get Dates.
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}
type RowsResult<R> = { rows: (R extends Record<string, unknown> ? R : Record<string, unknown>)[] };

/** The database, over whichever engine was opened. */
export type Db = PgDatabase<RowsResultHKT, typeof schema>;
/** A transaction handed to `db.transaction(async (tx) => …)`: the same API as `Db`. */
export type Tx = PgTransaction<RowsResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;
