// A statement that runs again and again with new values (the job page's comparison, a scan's verdict,
// the write-back's refresh of the stored comparison) as a NAMED statement on PostgreSQL: each
// connection parses it once and, after a few runs, keeps a generic plan when that costs no more than
// planning anew (PostgreSQL's own choice, plan_cache_mode auto). Measured on a 1M-ISBN job (issue 16):
// the page's statement took ~15 ms unnamed, almost all of it planning, and ~4 ms named. The name is the
// text's hash, so one text is one statement and a name never stands for another text.
//
// How long a connection keeps them: node-postgres keeps every name it prepared until the connection
// closes, and has no call to drop one (brianc/node-postgres#1889). On a pool's connection handed to a
// request the pool closes idle ones after 10 s. A transaction's connection (a worker's, busy for hours)
// keeps at most NAMED_PER_CONNECTION: past that the least recently run is deallocated on the server
// and forgotten by the client (the workaround that issue names: DEALLOCATE, then its entry in
// `connection.parsedStatements`). A write-back's text varies with its watches' conditions, so an
// unbounded cache would grow for as long as the worker runs. PGlite takes the same call and ignores
// the name: it has no statements to keep.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Db, Tx } from './db-types.ts';

const dialect = new PgDialect();

/** Named statements a transaction's connection keeps (each holds its parse tree and plans on the server). */
export const NAMED_PER_CONNECTION = 32;

/** What node-postgres' client keeps of the names it prepared (not in its types: see the head of this file). */
type PgClientInternals = pg.ClientBase & { connection?: { parsedStatements?: Record<string, string> } };

/** Per connection: the names it prepared, least recently run first (a Map keeps insertion order). */
const namesOf = new WeakMap<object, Map<string, true>>();

/** The rows of `query`, run as a statement named after its text. */
export async function executeNamed<T extends Record<string, unknown>>(
  db: Db | Tx,
  query: SQL,
  keep: number = NAMED_PER_CONNECTION,
): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `named_${createHash('sha1').update(built.sql).digest('hex').slice(0, 24)}`;
  const client = connectionOf(db);
  let ran = false;
  try {
    const result = (await db._.session.prepareQuery(built, undefined, name, false).execute()) as { rows: T[] };
    ran = true;
    return result.rows;
  } finally {
    // Recorded once the server parsed it, also when it then failed (it holds a statement from then on);
    // nothing is dropped after a failure, which leaves the transaction unable to run a DEALLOCATE.
    if (client?.connection?.parsedStatements?.[name] !== undefined) await remember(client, name, ran ? keep : Number.POSITIVE_INFINITY);
  }
}

/** The one connection behind `db` when it is a transaction's on PostgreSQL (a pool's client); otherwise none to keep track of. */
function connectionOf(db: Db | Tx): PgClientInternals | undefined {
  const client = (db._.session as unknown as { client?: unknown }).client;
  return client instanceof pg.Client ? (client as PgClientInternals) : undefined;
}

/** Marks `name` the most recently run on `client` and drops the least recently run past `keep`. */
async function remember(client: PgClientInternals, name: string, keep: number): Promise<void> {
  let names = namesOf.get(client);
  if (!names) {
    names = new Map();
    namesOf.set(client, names);
  }
  names.delete(name);
  names.set(name, true);
  for (const [oldest] of names) {
    if (names.size <= keep) break;
    names.delete(oldest);
    const parsed = client.connection?.parsedStatements;
    if (!parsed || parsed[oldest] === undefined) continue;
    await client.query(`DEALLOCATE ${client.escapeIdentifier(oldest)}`);
    delete parsed[oldest];
  }
}
