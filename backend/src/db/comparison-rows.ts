// The empty stored comparison rows of a job (comparison/stored.ts keeps their values): here, below
// both the job's ingest and the comparison, so neither imports the other.
import { sql, type SQL } from 'drizzle-orm';
import { comparisonRows } from './schema.ts';

/** The job's comparison row per base lookup: `inserted` is a query of (id, isbn) of the job's base marketplace rows. */
export const insertEmptyComparisonRows = (jobId: number, inserted: SQL) =>
  sql`INSERT INTO ${comparisonRows} (job_id, row_id, isbn) SELECT ${jobId}::int, id, isbn FROM ${inserted} ON CONFLICT DO NOTHING`;
