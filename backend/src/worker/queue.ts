// The SQL of the queue: one lookup table's claim, write-back, release and lease reaping.
// Each claim, release and reap is one auto-committed statement; a write-back is one transaction (the
// lookups and their price history, the stored comparison, the books' watches, then the progress counters). It works the
// same on PGlite and on a pg pool, and any number of worker processes can share the table (FOR UPDATE
// SKIP LOCKED, attempts as a fence).
import { inArray, param, sql, type SQL } from 'drizzle-orm';
import { dataFields, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Db, Tx } from '../db/client.ts';
import { LOOKUP_TABLES, jobProgress, jobs, type LookupTable } from '../db/schema.ts';
import { headlinePrice, marketFacts, recordObservations, setPreviousLook } from '../history/observations.ts';
import { isbnArray, refreshVelocitySql } from '../velocity/compute.ts';
import { refreshBooksWritten } from './books-written.ts';
import { progressUpdate } from '../jobs/progress.ts';
import type { LookupRecord } from '../marketplaces/types.ts';
import { isInteractiveJob } from './interactive-jobs.ts';

/**
 * A claimed lookup. Its `attempts` include this one; a write-back only lands while the row still has
 * this count. Its job tells the daily budget whose call it is.
 */
export type ClaimedRow = Pick<LookupTable['$inferSelect'], 'id' | 'isbn' | 'attempts' | 'isbn_lookup_job_id'> & {
  /** A person waits for it (worker/interactive-jobs.ts): the runner sends it before the rows it already holds. */
  interactive?: boolean;
};

/** A finished lookup: its final status, data and offers. */
export interface FinishedRow {
  id: number;
  attempts: number;
  status: 'completed' | 'no_offers_available' | 'failed';
  last_error: string | null;
  offers: unknown[] | null;
  record: LookupRecord | null;
}

/** A lookup held back by the daily budget: queued until the quota resets, the attempt not counted. */
export interface DeferredRow {
  id: number;
  attempts: number;
  until: Date;
  note: string;
}

/** A transient failure: back to queued until next_attempt_at. */
export interface RequeuedRow {
  id: number;
  attempts: number;
  last_error: string;
  delay_ms: number;
}

/**
 * The status of a row going back to the queue: queued, or cancelled when its job was cancelled
 * while the row was in flight (a cancel stops queued rows and lets in-flight ones finish, so a
 * transient failure must not bring one back). A row put back at the very moment of a cancel may
 * still be looked up once more; the counters stay right either way.
 */
const queuedUnlessCancelled = (jobId: SQL) =>
  sql`CASE WHEN EXISTS (SELECT 1 FROM ${jobs} WHERE ${jobs.id} = ${jobId} AND ${jobs.cancelled_at} IS NOT NULL) THEN 'cancelled' ELSE 'queued' END`;

/**
 * Bumps the updated_at of the jobs `jobIds` (a query of job ids) names, at most once a second per job
 * (so it may trail the last result by under a second): every worker finishes rows of the same job,
 * and a hot row locked by each write would serialise them.
 */
export const touchJobs = (jobIds: SQL) => sql`
  UPDATE ${jobs} SET updated_at = now() WHERE id IN (${jobIds}) AND updated_at < now() - interval '1 second'`;

/**
 * The end of a transaction that gave lookups their final status (finish, reuse): moves the progress
 * counters by one per row (`rowJobIds`: each written row's job) and bumps the jobs' updated_at.
 * Last on purpose: these are the hottest rows (every worker writing a job's marketplace moves the
 * same counter), so they are locked only for this statement and the commit, never while the
 * transaction waits for the stored comparison's rows (comparison/stored.ts). Writers lock stored
 * rows before counters, so the two never wait on each other round a loop.
 */
export async function moveProgress(tx: Tx, source: string, rowJobIds: readonly number[]): Promise<void> {
  if (rowJobIds.length === 0) return;
  const moved = sql`(SELECT unnest(${param(rowJobIds.map(Number))}::int[]) AS isbn_lookup_job_id) m`;
  await tx.execute(sql`WITH progress AS (${progressUpdate(moved, source)}),
    bump AS (${touchJobs(sql`SELECT DISTINCT isbn_lookup_job_id FROM ${moved}`)})
    SELECT 1`);
}

/** Rows written and the jobs they belong to (array_agg gives NULL for no rows, read as []). */
export interface Moved {
  count: number;
  jobIds: number[];
}

/** Finished rows written: also how many of each final status (a row whose lease moved on is not among them). */
export interface Finished extends Moved {
  byStatus: Partial<Record<FinishedRow['status'], number>>;
}

/**
 * A scheduled re-price's rows get one turn for every this many of another batch job's
 * (docs/features/jobs.md, "Scheduled re-pricing"): with one other job it gets a third of a batch.
 */
export const SCHEDULED_TURN_WEIGHT = 2;

const SQL_TYPES = { text: 'text', number: 'double precision', date: 'timestamptz' } as const;

export class LookupQueue {
  /** This marketplace's lookup table. */
  private readonly table: LookupTable;
  /** This marketplace's id: its rows in job_progress and price_observations. */
  private readonly source: MarketplaceInfo['id'];
  private readonly columns: string[];
  /** The data columns of a finished batch as jsonb_to_recordset reads them, and their SET list. */
  private readonly recordset: SQL;
  private readonly setData: SQL;
  /** Whether its answers carry a sales rank, so writing them moves the books' velocity. */
  private readonly keepsRank: boolean;

  constructor(
    readonly db: Db,
    marketplace: MarketplaceInfo,
  ) {
    this.table = LOOKUP_TABLES[marketplace.id];
    this.source = marketplace.id;
    const fields = dataFields(marketplace);
    this.columns = fields.map((f) => f.name);
    this.keepsRank = this.columns.includes('sales_rank');
    this.recordset = sql.join(
      [
        sql.raw('id bigint, attempts int, status text, last_error text, offers jsonb'),
        ...fields.map((f) => sql`${sql.identifier(f.name)} ${sql.raw(SQL_TYPES[f.type])}`),
      ],
      sql`, `,
    );
    this.setData = sql.join(
      fields.map((f) => sql`, ${sql.identifier(f.name)} = v.${sql.identifier(f.name)}`),
      sql``,
    );
  }

  /**
   * Takes up to n due rows for this worker until the lease runs out, shared fairly between the jobs
   * with lookups left: rows are dealt round-robin (each job's oldest first), so a 10-ISBN job started
   * behind a 150k-ISBN one is served in the next batch, not hours later, and a batch is still full
   * when only one job has work. Active jobs come from job_progress (a few rows) and each job's rows
   * from its own index range, so a claim costs the same however long the backlog. At most n jobs
   * are dealt in per claim, picked at random, so with more active jobs than that none always waits.
   * Only jobs with a due row are picked (one probe of the queue index each): a job whose rows all
   * wait for a retry or are in flight with another worker would take a place and leave the batch
   * short, and a short batch makes the worker sleep while due rows wait in other jobs.
   * Rows a job's schedule queued (jobs.queued_by_schedule) are dealt one for every
   * SCHEDULED_TURN_WEIGHT turns of the other jobs: nobody waits for them, yet they are never starved.
   */
  async claim(n: number, leaseMs: number, opts: { interactiveOnly?: boolean } = {}): Promise<ClaimedRow[]> {
    // Raw SQL on purpose: one statement (lateral per-job scans, SKIP LOCKED, UPDATE … RETURNING)
    // that the query builder cannot express; it is the worker's hot path (bench: worker).
    const t = this.table;
    const { rows } = await this.db.execute<ClaimedRow>(
      sql`WITH active AS (
         SELECT p.job_id, ${isInteractiveJob(sql`j`)} AS interactive, j.queued_by_schedule AS scheduled
         FROM ${jobProgress} p JOIN ${jobs} j ON j.id = p.job_id
         WHERE p.source = ${this.source} AND p.processed < p.total
           -- A cancelled job is not dealt in: on the embedded database a cancel moves its rows in steps.
           AND j.cancelled_at IS NULL${opts.interactiveOnly ? sql` AND ${isInteractiveJob(sql`j`)}` : sql``}
           -- A scalar probe, not EXISTS: the planner turns EXISTS into a semi-join that reads every
           -- queued row of the table (70 ms at 100k rows, ~0.7 s at 1M, per claim); this walks the
           -- queue index to each job's first due row.
           AND (
             SELECT true FROM ${t} q
             WHERE q.isbn_lookup_job_id = p.job_id AND q.lookup_status = 'queued' AND q.next_attempt_at <= now()
             ORDER BY q.next_attempt_at LIMIT 1
           )
         -- Interactive jobs (a scan, a book's "Price it now") first: a person waits for them.
         ORDER BY interactive DESC, random() LIMIT ${n}
       ),
       dealt AS (
         SELECT due.id, active.interactive, active.scheduled,
                -- A scheduled re-price takes every other turn: behind the other jobs, never starved.
                row_number() OVER (PARTITION BY active.job_id ORDER BY due.next_attempt_at, due.id)
                  * CASE WHEN active.scheduled THEN ${SCHEDULED_TURN_WEIGHT}::int ELSE 1 END AS turn
         FROM active CROSS JOIN LATERAL (
           SELECT id, next_attempt_at FROM ${t}
           WHERE isbn_lookup_job_id = active.job_id AND lookup_status = 'queued' AND next_attempt_at <= now()
           ORDER BY next_attempt_at, id
           LIMIT ${n}
           FOR UPDATE SKIP LOCKED
         ) due
       )
       UPDATE ${t}
       SET lookup_status = 'pending', lease_expires_at = now() + ${leaseMs} * interval '1 millisecond',
           attempts = attempts + 1, updated_at = now()
       WHERE id IN (SELECT id FROM dealt ORDER BY interactive DESC, turn, scheduled, id LIMIT ${n})
       RETURNING id, isbn, attempts, isbn_lookup_job_id, (SELECT ${isInteractiveJob(sql`j`)} FROM ${jobs} j WHERE j.id = isbn_lookup_job_id) AS interactive`,
    );
    return rows;
  }

  /**
   * Writes final results and bumps their jobs' updated_at. A row whose attempts changed meanwhile
   * (its lease expired and another worker took it) is left alone. Each answer (not a failure) is
   * also kept in the price history, and the row notes the price of the previous look at its ISBN.
   * Returns the rows written, how many of each status (for metrics), and the jobs whose progress moved (for live updates).
   */
  async finish(rows: FinishedRow[]): Promise<Finished> {
    if (rows.length === 0) return { count: 0, jobIds: [], byStatus: {} };
    const payload = rows.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      status: r.status,
      last_error: r.last_error,
      offers: r.offers,
      ...Object.fromEntries(this.columns.map((c) => [c, r.record?.[c] ?? null])),
    }));
    const headline = headlinePrice(this.source, (name) => sql`t.${sql.identifier(name)}`);
    // Raw SQL on purpose: a whole batch (results and price history) in one statement and one round
    // trip; the batch travels as one jsonb parameter, whatever its size. RETURNING reads the row as
    // written, so the history gets the new price. The stored comparison of the rows written, then
    // the progress counters and the jobs' updated_at, move in the same transaction.
    return this.db.transaction(async (tx) => {
      const { rows: out } = await tx.execute<{
        written: number;
        ids: number[] | null;
        row_job_ids: number[] | null;
        by_status: Finished['byStatus'] | null;
        isbns: string[] | null;
      }>(sql`
      WITH v AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS r(${this.recordset})),
      done AS (
        UPDATE ${this.table} t
        SET lookup_status = v.status, last_error = v.last_error, offers = v.offers,
            offer_count = CASE WHEN jsonb_typeof(v.offers) = 'array' THEN jsonb_array_length(v.offers) END,
            answered_at = now(), reused_from = NULL, lease_expires_at = NULL, updated_at = now(),
            ${setPreviousLook(this.source, sql`t.isbn`)}${this.setData}
        FROM v
        WHERE t.id = v.id AND t.attempts = v.attempts AND t.lookup_status IN ('pending', 'queued')
        RETURNING t.isbn_lookup_job_id, t.id, t.isbn, t.lookup_status, t.offers, t.offer_count, t.answered_at,
                  ${headline.price} AS price, ${headline.currency} AS currency,
                  ${marketFacts(this.source, (name) => sql`t.${sql.identifier(name)}`)}
      ),
      observed AS (${recordObservations(this.source, sql`done`)})
      SELECT count(*)::int AS written, array_agg(id) AS ids, array_agg(isbn_lookup_job_id) AS row_job_ids, array_agg(isbn) AS isbns,
             (SELECT jsonb_object_agg(lookup_status, n) FROM (SELECT lookup_status, count(*)::int AS n FROM done GROUP BY 1) s) AS by_status
      FROM done`);
      const written = (out[0]?.ids ?? []).map(Number);
      // A marketplace that gives a sales rank (Amazon) moves the books' velocity (velocity/compute.ts):
      // first, since the watches evaluated with the stored comparison's refresh may name it.
      if (this.keepsRank && out[0]?.isbns?.length)
        await tx.execute(refreshVelocitySql(isbnArray(out[0].isbns), undefined, { skipKeepa: true }));
      // The stored comparison and the books' watches (books-written.ts): before the counters, which stay locked the shortest.
      await refreshBooksWritten(tx, this.table, written);
      // Each row reaches a final status once (the WHERE above), so the counters move exactly once.
      const rowJobIds = (out[0]?.row_job_ids ?? []).map(Number);
      await moveProgress(tx, this.source, rowJobIds);
      return { count: out[0]?.written ?? 0, jobIds: [...new Set(rowJobIds)], byStatus: out[0]?.by_status ?? {} };
    });
  }

  /** Puts transiently failed rows back in the queue, due after their backoff. */
  async requeue(rows: RequeuedRow[]): Promise<number> {
    return this.putBackInQueue(
      rows,
      sql`id bigint, attempts int, last_error text, delay_ms double precision`,
      sql`last_error = v.last_error, next_attempt_at = now() + v.delay_ms * interval '1 millisecond'`,
    );
  }

  /** Hands back rows this worker claimed but never asked about: queued again, the attempt not counted. */
  async release(rows: ClaimedRow[]): Promise<number> {
    return this.putBackInQueue(
      rows.map(({ id, attempts }) => ({ id, attempts })),
      sql`id bigint, attempts int`,
      sql`attempts = t.attempts - 1`,
    );
  }

  /**
   * Rows not sent because the marketplace's daily budget is spent: queued again until `until` (the
   * quota's reset) with the attempt not counted, so waiting never uses up attempts, and `note` as
   * their last error for the pages.
   */
  async defer(rows: DeferredRow[]): Promise<number> {
    return this.putBackInQueue(
      rows.map(({ id, attempts, until, note }) => ({ id, attempts, until: until.toISOString(), note })),
      sql`id bigint, attempts int, until timestamptz, note text`,
      sql`attempts = t.attempts - 1, last_error = v.note, next_attempt_at = v.until`,
    );
  }

  /**
   * Queues again the rows still pending at the attempt this worker claimed (a row whose lease ran out
   * and was claimed anew is left alone), or cancels them when their job was cancelled meanwhile; `columns` types the rows' fields as `v`, `alsoSet` is what
   * else changes. Raw SQL for the same reason as finish: a batch of write-backs in one statement.
   */
  private async putBackInQueue(rows: { id: number; attempts: number }[], columns: SQL, alsoSet: SQL): Promise<number> {
    if (rows.length === 0) return 0;
    const { rows: out } = await this.db.execute<{ n: number }>(sql`
      WITH put_back AS (
        UPDATE ${this.table} t
        SET lookup_status = ${queuedUnlessCancelled(sql`t.isbn_lookup_job_id`)}, lease_expires_at = NULL, updated_at = now(), ${alsoSet}
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(${columns})
        WHERE t.id = v.id AND t.attempts = v.attempts AND t.lookup_status = 'pending'
        RETURNING t.isbn_lookup_job_id, t.lookup_status
      ),
      -- Rows of a cancelled job end here: they count as processed, like the queued rows the cancel stopped.
      progress AS (${progressUpdate(sql`(SELECT isbn_lookup_job_id FROM put_back WHERE lookup_status = 'cancelled') x`, this.source)})
      SELECT count(*)::int AS n FROM put_back`);
    return out[0]?.n ?? 0;
  }

  /**
   * Rows whose worker vanished (lease expired) go back to the queue (cancelled when their job was),
   * or to failed when that was their last attempt. The lost attempt counts: a lookup that keeps killing workers must end.
   * Returns the rows reaped and the jobs whose progress moved (those with rows now failed or cancelled).
   */
  async reapExpired(maxAttempts: number): Promise<Moved> {
    // Raw SQL: the reaped rows' final statuses, progress counters and jobs move in one statement.
    const { rows } = await this.db.execute<{ reaped: number; job_ids: number[] | null }>(sql`
      WITH reaped AS (
        UPDATE ${this.table}
        SET lookup_status = CASE WHEN attempts >= ${maxAttempts} THEN 'failed' ELSE ${queuedUnlessCancelled(sql`${this.table.isbn_lookup_job_id}`)} END,
            last_error = CASE WHEN attempts >= ${maxAttempts}
              THEN 'Lease expired on attempt ' || attempts || ': the worker stopped responding'
              ELSE last_error END,
            lease_expires_at = NULL, next_attempt_at = now(), updated_at = now()
        WHERE lookup_status = 'pending' AND lease_expires_at < now()
        RETURNING isbn_lookup_job_id, lookup_status
      ),
      bump AS (${touchJobs(sql`SELECT isbn_lookup_job_id FROM reaped WHERE lookup_status IN ('failed', 'cancelled')`)}),
      progress AS (${progressUpdate(sql`(SELECT isbn_lookup_job_id FROM reaped WHERE lookup_status IN ('failed', 'cancelled')) x`, this.source)})
      SELECT count(*)::int AS reaped,
             array_agg(DISTINCT isbn_lookup_job_id) FILTER (WHERE lookup_status IN ('failed', 'cancelled')) AS job_ids FROM reaped`);
    return { count: rows[0]?.reaped ?? 0, jobIds: rows[0]?.job_ids ?? [] };
  }

  /** Whether any row still waits for a lookup (queued, scheduled for a retry, or held by a worker). */
  async hasWork(): Promise<boolean> {
    const t = this.table;
    const waiting = await this.db
      .select({ id: t.id })
      .from(t)
      .where(inArray(t.lookup_status, ['queued', 'pending']))
      .limit(1);
    return waiting.length > 0;
  }
}
