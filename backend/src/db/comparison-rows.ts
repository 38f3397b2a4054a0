// The empty stored comparison rows of a job (comparison/stored.ts keeps their values): here, below
// both the job's ingest and the comparison, so neither imports the other.
import { sql, type SQL } from 'drizzle-orm';
import { comparisonRows } from './schema.ts';

/**
 * The job's comparison row per base lookup: `inserted` is a query of (id, isbn) of the job's base
 * marketplace rows. Rows it already has are left as they are, unless `fresh` says there can be none:
 * the rows of lookups just inserted from a list of distinct ISBNs (a new job), written without
 * ON CONFLICT, whose check of both unique indexes before each row was a quarter of the rows' cost
 * (issue 29: 60k rows on PGlite, 1.70 → 1.33 s of CPU).
 */
export const insertEmptyComparisonRows = (jobId: number, inserted: SQL, opts: { fresh?: boolean } = {}) =>
  sql`INSERT INTO ${comparisonRows} (job_id, row_id, isbn) SELECT ${jobId}::int, id, isbn FROM ${inserted}${opts.fresh ? sql`` : sql` ON CONFLICT DO NOTHING`}`;
