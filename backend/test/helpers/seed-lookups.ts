// Jobs and lookup rows written straight into the tables, for tests that need exact prices and
// statuses (the comparison, the job page, estimated profit) without running the worker.
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';

/** A lookup row: its status, attempts, age, retry and error, then any data columns by name. */
export interface Seeded {
  status?: string;
  attempts?: number;
  minutesAgo?: number;
  retryInMinutes?: number;
  error?: string;
  [column: string]: unknown;
}

/** A job asking the marketplaces named by `flags` (their ids), with no lookups yet. */
export async function seedComparisonJob(db: Db, ownerId: string, flags: string[]): Promise<number> {
  const cols = sql.join(
    flags.map((f) => sql.identifier(f)),
    sql`, `,
  );
  const values = sql.join(
    flags.map(() => sql`true`),
    sql`, `,
  );
  const { rows } = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id, ${cols}) VALUES ('compare', 'in.csv', ${ownerId}, ${values}) RETURNING id`,
  );
  return rows[0]!.id;
}

export async function seedLookup(db: Db, table: string, job: number, isbn: string, row: Seeded) {
  const { status = 'completed', attempts = 1, minutesAgo = 5, retryInMinutes = 0, error = null, ...data } = row;
  const names = Object.keys(data);
  const extra = names.length
    ? sql`, ${sql.join(
        names.map((n) => sql.identifier(n)),
        sql`, `,
      )}`
    : sql``;
  const extraValues = names.length
    ? sql`, ${sql.join(
        names.map((n) => sql`${data[n]}`),
        sql`, `,
      )}`
    : sql``;
  await db.execute(
    sql`INSERT INTO ${sql.identifier(table)} (isbn_lookup_job_id, isbn, lookup_status, attempts, last_error, updated_at, next_attempt_at${extra})
        VALUES (${job}, ${isbn}, ${status}, ${attempts}, ${error}, now() - ${minutesAgo}::int * interval '1 minute',
                now() + ${retryInMinutes}::int * interval '1 minute'${extraValues})`,
  );
}
