// A big read that runs again and again with new values (the job page's comparison) as a NAMED statement on
// PostgreSQL: each connection parses it once and, after a few runs, keeps a generic plan when that costs no
// more than planning anew (PostgreSQL's own choice, plan_cache_mode auto). Measured on a 1M-ISBN job (issue
// 16): the page's statement took ~15 ms unnamed, almost all of it planning (the four lookup tables there
// were then, ~25 indexes each), and ~4 ms named. A connection keeps its statements until it closes (the
// pool closes idle ones after 10 s); the name is the text's hash, so the same text is one statement. PGlite
// takes the same call and ignores the name.
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

const dialect = new PgDialect();

/** The rows of `query`, run as a statement named after its text. */
export async function executeNamed<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  const name = `named_${createHash('sha1').update(built.sql).digest('hex').slice(0, 24)}`;
  const result = (await db._.session.prepareQuery(built, undefined, name, false).execute()) as { rows: T[] };
  return result.rows;
}
