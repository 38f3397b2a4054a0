// The stored comparison (comparison_rows): best price, best source and spread per ISBN of a job, as
// comparisonTable computes them, kept so that a page sorted or filtered on them walks an index.
//
// Kept by the code that writes prices, in the same transaction as the write (no triggers: they would
// fire on every insert and status change, and PGlite runs them on the one thread every request waits
// for). Only two writers change a price: the worker's finish and its reuse of a recent answer
// (worker/queue.ts, worker/reuse.ts); cancel, retry and re-price change statuses, which are not
// stored. A job's rows are written empty with its lookups (jobs/ingest.ts).
//
// Two workers may finish the same ISBN on two marketplaces at once. Each locks the ISBN's stored
// row after writing its lookup, then computes the row in a NEW statement: the lock waits for the
// other transaction to commit, and a new statement's snapshot then sees its price, so the last one
// to commit computes from both (one statement that locked and computed would compute from the
// snapshot it took before waiting). Locks are taken in (job, row) order, so two batches never deadlock.
import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { insertEmptyComparisonRows } from '../db/comparison-rows.ts';
import { executeNamed } from '../db/named-statement.ts';
import { LOOKUP_TABLES, comparisonRows, jobs, type LookupTable } from '../db/schema.ts';
import { idRanges } from '../jobs/control.ts';
import type { JobRow } from '../jobs/repository.ts';
import { baseMarketplace, comparisonTable, type ComparisonOptions } from './query.ts';

/** The comparison columns computed across marketplaces, which a sort or filter would compute for every row without comparison_rows. */
export const COMPUTED_FIELDS: ReadonlySet<string> = new Set(['best_price', 'best_source', 'spread', 'estimated_profit']);

/**
 * The stored columns with an index of their own, which holds only the rows with a value (db/schema.ts):
 * a page sorted on one is read in two parts, the rows with a value then the empty ones.
 */
export const PARTIAL_INDEXED_FIELDS: ReadonlySet<string> = new Set(['best_price', 'best_source', 'spread']);

/** The comparison fields comparison_rows answers alone (estimated profit is computed from two of its columns). */
export const STORED_FIELDS: ReadonlySet<string> = new Set(['id', 'isbn', ...COMPUTED_FIELDS]);

/** The columns a refresh writes, and the row id it writes them by. */
const STORED_COLUMNS = ['id', 'best_price', 'best_source', 'spread'];

/** A job's stored rows to refresh, by both their keys (see refreshStoredRowsOf). */
export type StoredKeys = { rowIds: number[]; isbns: string[] };

/**
 * Locks the stored rows of the ISBNs of `lookupIds` (rows of `table` just written in `tx`), in
 * (job, row) order, and returns their keys by job. Compute them in a later statement (head of file).
 */
export async function lockStoredRows(tx: Tx, table: LookupTable, lookupIds: readonly number[]): Promise<Map<number, StoredKeys>> {
  const byJob = new Map<number, StoredKeys>();
  if (lookupIds.length === 0) return byJob;
  const { rows: locked } = await tx.execute<{ job_id: number; row_id: number; isbn: string }>(sql`
    SELECT cr.job_id, cr.row_id, cr.isbn FROM ${table} t
    JOIN ${comparisonRows} cr ON cr.job_id = t.isbn_lookup_job_id AND cr.isbn = t.isbn
    WHERE t.id = ANY(${sql.param(lookupIds.map(String))}::bigint[])
    ORDER BY cr.job_id, cr.row_id
    FOR UPDATE OF cr`);
  for (const r of locked) {
    const keys = byJob.get(Number(r.job_id)) ?? { rowIds: [], isbns: [] };
    keys.rowIds.push(Number(r.row_id));
    keys.isbns.push(r.isbn);
    byJob.set(Number(r.job_id), keys);
  }
  return byJob;
}

/**
 * Work that rides the refresh of a job's stored rows in its one statement (one round trip, and the
 * rows computed once for both): CTEs over the computed rows (`rows`, a FROM item named `comparison`),
 * the columns they add to the statement's one result row, and the comparison options they need.
 * The watches' evaluation is one (watches/evaluate.ts).
 */
export interface RefreshRider<Result> {
  options: Pick<ComparisonOptions, 'fees' | 'decisions'>;
  /** The comparison columns its CTEs read: only these are computed (beside the stored ones), as a page computes only what it shows. */
  reads: readonly string[];
  ctes: (rows: SQL) => SQL;
  columns: SQL;
  read: (row: Record<string, unknown>) => Result;
}

/**
 * Recomputes the job's stored rows `keys` (locked by lockStoredRows in this transaction) and runs
 * `rider` in the same statement; returns what the rider read from its result.
 */
export async function refreshStoredRowsOf<Result>(
  tx: Tx,
  job: JobRow,
  keys: StoredKeys,
  rider?: RefreshRider<Result>,
): Promise<Result | undefined> {
  // By row id (the base lookup's primary key, and the stored row's): the rows are found by their
  // keys whatever the planner believes of the job. Picked by (job, ISBN), a job written since its
  // tables were last analyzed was planned as one row, and each write-back read the job's stored
  // rows against all its lookups (quadratic: over a minute per batch at 30k rows; issue 29).
  // Their ISBNs too (without a rider: see computeInto): both keys of a stored row bound it, whichever
  // of its two indexes the planner picks (with the job unseen, every index led by job_id costs it the
  // same; issue 29).
  const { row } = await computeInto(tx, job, keys, rider);
  return rider && row ? rider.read(row) : undefined;
}

/** The stored rows computeInto writes: a range of the base lookups, or the rows' two keys (see the write-back above). */
type StoredRowsPick = Required<Pick<ComparisonOptions, 'only'>> | StoredKeys;

/**
 * Writes the computed columns of the job's rows that `pick` picks into their stored rows (which must
 * exist and be locked), with `rider`'s CTEs over the same computed rows. Picked by keys, the stored
 * rows are bounded by both of them (by row id alone with a rider, below). Returns the rows changed
 * and the statement's result row.
 */
async function computeInto(
  db: Db | Tx,
  job: JobRow,
  pick: StoredRowsPick,
  rider?: RefreshRider<unknown>,
): Promise<{ n: number; row: Record<string, unknown> | undefined }> {
  const byKeys = 'rowIds' in pick;
  // Fees are left out unless the rider needs them: profit is not stored (it is computed from the best price and source when read).
  const computed = comparisonTable(job, {
    fees: {},
    decisions: false,
    ...rider?.options,
    ...(byKeys ? { rowIds: pick.rowIds } : { only: pick.only }),
  });
  // With a rider, by row id alone: both bounds made the planner expect one stored row and scan the
  // shared rows once per stored row (50 × 50 a batch, ~0.6 ms), where one bound lets it hash them.
  // The row ids alone still bound the scan: they are the second key of the primary key.
  const bounds = byKeys
    ? sql` AND cr.row_id = ANY(${sql.param(pick.rowIds.map(String))}::bigint[])${rider ? sql`` : sql` AND cr.isbn = ANY(${sql.param(pick.isbns)}::text[])`}`
    : sql``;
  // With a rider the computed rows are a CTE both read (computed once, only the columns read: a CTE
  // read twice is computed whole, and all of a row's columns cost ~1 ms a batch of 50 where the
  // stored ones and a condition's cost a fraction); without, the statement is as small as it can be.
  const shared = rider && [...new Set([...STORED_COLUMNS, ...rider.reads])].map((name) => sql.identifier(name));
  const statement = sql`
    WITH ${shared ? sql`c AS (SELECT ${sql.join(shared, sql`, `)} FROM ${computed}), ` : sql``}updated AS (
      UPDATE ${comparisonRows} cr SET best_price = c.best_price, best_source = c.best_source, spread = c.spread
      FROM ${shared ? sql`c` : sql`(SELECT id, best_price, best_source, spread FROM ${computed}) c`}
      WHERE cr.job_id = ${job.id} AND cr.row_id = c.id${bounds}
        AND (cr.best_price, cr.best_source, cr.spread) IS DISTINCT FROM (c.best_price, c.best_source, c.spread)
      RETURNING 1
    )${rider ? sql`, ${rider.ctes(sql`c AS comparison`)}` : sql``}
    SELECT (SELECT count(*) FROM updated)::int AS n${rider ? sql`, ${rider.columns}` : sql``}`;
  // The write-back's refresh (by keys) runs once per batch with the same text (a rider's text depends
  // only on its watches' condition shapes: watches/evaluate.ts), so it runs named and PostgreSQL keeps
  // its plan: 2.8 ms a batch of 50 instead of 5.1 (5.8 instead of 9.2 with watches riding it; 30k rows,
  // named and plain alternating in one run of npm run bench -- watches).
  // A step of storeComparison runs once per 5,000 rows: planned each time, it keeps a plain statement.
  type Row = { n: number } & Record<string, unknown>;
  const rows = byKeys ? await executeNamed<Row>(db, statement) : (await db.execute<Row>(statement)).rows;
  return { n: rows[0]?.n ?? 0, row: rows[0] };
}

/** Rows per committed step when storing an existing job's comparison. */
export const STORE_STEP_ROWS = 5_000;

/**
 * Stores the comparison of a job that has none yet (one created before comparison_rows existed, or
 * written straight into the tables): its empty rows, then each step of `stepRows` rows locked and
 * computed in a transaction of its own (so the worker may finish rows of the job meanwhile), then
 * the job marked as stored. Returns the rows stored.
 */
export async function storeComparison(db: Db, job: JobRow, stepRows = STORE_STEP_ROWS): Promise<number> {
  const base = baseMarketplace(job);
  const t = LOOKUP_TABLES[base.id];
  await db.execute(insertEmptyComparisonRows(job.id, sql`(SELECT id, isbn FROM ${t} WHERE ${t.isbn_lookup_job_id} = ${job.id}) base`));
  // The comparison's row ids are the base marketplace's lookup ids.
  for await (const ids of idRanges(db, base, eq(t.isbn_lookup_job_id, job.id), stepRows)) {
    await db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT 1 FROM ${comparisonRows} WHERE job_id = ${job.id} AND row_id >= ${ids.from} AND row_id < ${ids.to} ORDER BY row_id FOR UPDATE`,
      );
      await computeInto(tx, job, { only: ({ id }) => sql`${id} >= ${ids.from} AND ${id} < ${ids.to}` });
    });
  }
  await db.update(jobs).set({ comparison_stored: true }).where(eq(jobs.id, job.id));
  const [stored] = await db.select({ n: count() }).from(comparisonRows).where(eq(comparisonRows.job_id, job.id));
  return stored?.n ?? 0;
}

/**
 * The worker's upkeep for jobs created before comparison_rows existed: one job's comparison stored
 * per tick (the newest first: the likeliest to be opened), until every job has one. Their pages
 * compute every row meanwhile, as they always did.
 */
export class ComparisonStorer {
  constructor(private readonly db: Db) {}

  async tick(): Promise<{ stored: number } | null> {
    const [job] = await this.db.select().from(jobs).where(eq(jobs.comparison_stored, false)).orderBy(desc(jobs.id)).limit(1);
    if (!job) return null;
    return { stored: await storeComparison(this.db, job) };
  }
}
