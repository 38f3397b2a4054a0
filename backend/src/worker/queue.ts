// The SQL of the queue: one lookup table's claim, write-back, release and lease reaping.
// Every statement is a single auto-committed statement, so it works the same on PGlite and on a pg pool,
// and any number of worker processes can share the table (FOR UPDATE SKIP LOCKED, attempts as a fence).
import { dataFields, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { Sql } from '../db/client.ts';
import type { LookupRecord } from '../marketplaces/types.ts';
import { must } from '@app/domain/must';

export interface ClaimedRow {
  id: number;
  isbn: string;
  /** Attempts including this one; a write-back only lands while the row still has this count. */
  attempts: number;
}

/** A finished lookup: its final status, data and offers. */
export interface FinishedRow {
  id: number;
  attempts: number;
  status: 'completed' | 'no_offers_available' | 'failed';
  last_error: string | null;
  offers: unknown[] | null;
  record: LookupRecord | null;
}

/** A transient failure: back to queued until next_attempt_at. */
export interface RequeuedRow {
  id: number;
  attempts: number;
  last_error: string;
  delay_ms: number;
}

/** Moves this source's processed counters on by the number of job ids `jobIds` yields per job. */
const progressUpdate = (jobIds: string, source: string) => `
  UPDATE job_progress p SET processed = p.processed + d.n
  FROM (SELECT isbn_lookup_job_id AS job_id, count(*)::int AS n FROM ${jobIds.startsWith('(') ? `${jobIds} x` : jobIds} GROUP BY 1) d
  WHERE p.job_id = d.job_id AND p.source = ${source}`;

const SQL_TYPES = { text: 'text', number: 'double precision', date: 'timestamptz' } as const;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export class LookupQueue {
  readonly table: string;
  /** This marketplace's id: its rows in job_progress. */
  private readonly source: string;
  private readonly columns: string[];
  private readonly finishSql: string;

  constructor(
    readonly db: Sql,
    marketplace: MarketplaceInfo,
  ) {
    this.table = quote(marketplace.table);
    this.source = marketplace.id;
    const fields = dataFields(marketplace);
    this.columns = fields.map((f) => f.name);
    // The batch travels as one jsonb array, so the statement is the same whatever the batch size.
    const recordset = [
      'id bigint', 'attempts int', 'status text', 'last_error text', 'offers jsonb',
      ...fields.map((f) => `${quote(f.name)} ${SQL_TYPES[f.type]}`),
    ].join(', ');
    this.finishSql = `
      WITH v AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${recordset})),
      done AS (
        UPDATE ${this.table} t
        SET lookup_status = v.status, last_error = v.last_error, offers = v.offers,
            lease_expires_at = NULL, updated_at = now()${fields.map((f) => `, ${quote(f.name)} = v.${quote(f.name)}`).join('')}
        FROM v
        WHERE t.id = v.id AND t.attempts = v.attempts AND t.lookup_status IN ('pending', 'queued')
        RETURNING t.isbn_lookup_job_id
      ),
      -- Each row reaches a final status once (the WHERE above), so the counters move exactly once.
      progress AS (${progressUpdate('done', '$2')}),
      -- At most one bump a second per job (so it may trail the last result by under a second): every
      -- worker finishes rows of the same job, and a hot row locked by each write would serialise them.
      bump AS (UPDATE jobs SET updated_at = now()
               WHERE id IN (SELECT isbn_lookup_job_id FROM done) AND updated_at < now() - interval '1 second')
      SELECT count(*)::int AS written FROM done`;
  }

  /**
   * Takes up to n due rows for this worker until the lease runs out, shared fairly between the jobs
   * with lookups left: rows are dealt round-robin (each job's oldest first), so a 10-ISBN job started
   * behind a 150k-ISBN one is served in the next batch, not hours later, and a batch is still full
   * when only one job has work. Active jobs come from job_progress (a few rows) and each job's rows
   * from its own index range, so a claim costs the same however long the backlog. At most n jobs
   * are dealt in per claim, picked at random, so with more active jobs than that none always waits.
   */
  async claim(n: number, leaseMs: number): Promise<ClaimedRow[]> {
    const { rows } = await this.db.query<ClaimedRow>(
      `WITH active AS (
         SELECT job_id FROM job_progress WHERE source = $3 AND processed < total ORDER BY random() LIMIT $1
       ),
       dealt AS (
         SELECT due.id, row_number() OVER (PARTITION BY active.job_id ORDER BY due.next_attempt_at, due.id) AS turn
         FROM active CROSS JOIN LATERAL (
           SELECT id, next_attempt_at FROM ${this.table}
           WHERE isbn_lookup_job_id = active.job_id AND lookup_status = 'queued' AND next_attempt_at <= now()
           ORDER BY next_attempt_at, id
           LIMIT $1
           FOR UPDATE SKIP LOCKED
         ) due
       )
       UPDATE ${this.table}
       SET lookup_status = 'pending', lease_expires_at = now() + $2 * interval '1 millisecond',
           attempts = attempts + 1, updated_at = now()
       WHERE id IN (SELECT id FROM dealt ORDER BY turn, id LIMIT $1)
       RETURNING id, isbn, attempts`,
      [n, leaseMs, this.source],
    );
    return rows;
  }

  /**
   * Writes final results and bumps their jobs' updated_at. A row whose attempts changed meanwhile
   * (its lease expired and another worker took it) is left alone. Returns the rows written.
   */
  async finish(rows: FinishedRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const payload = rows.map((r) => ({
      id: r.id,
      attempts: r.attempts,
      status: r.status,
      last_error: r.last_error,
      offers: r.offers,
      ...Object.fromEntries(this.columns.map((c) => [c, r.record?.[c] ?? null])),
    }));
    const { rows: out } = await this.db.query<{ written: number }>(this.finishSql, [JSON.stringify(payload), this.source]);
    return out[0]?.written ?? 0;
  }

  /** Puts transiently failed rows back in the queue, due after their backoff. */
  async requeue(rows: RequeuedRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `UPDATE ${this.table} t
       SET lookup_status = 'queued', last_error = v.last_error, lease_expires_at = NULL, updated_at = now(),
           next_attempt_at = now() + v.delay_ms * interval '1 millisecond'
       FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, attempts int, last_error text, delay_ms double precision)
       WHERE t.id = v.id AND t.attempts = v.attempts AND t.lookup_status = 'pending'`,
      [JSON.stringify(rows)],
    );
    return rowCount;
  }

  /** Hands back rows this worker claimed but never asked about: queued again, the attempt not counted. */
  async release(rows: ClaimedRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const { rowCount } = await this.db.query(
      `UPDATE ${this.table} t
       SET lookup_status = 'queued', attempts = t.attempts - 1, lease_expires_at = NULL, updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, attempts int)
       WHERE t.id = v.id AND t.attempts = v.attempts AND t.lookup_status = 'pending'`,
      [JSON.stringify(rows.map(({ id, attempts }) => ({ id, attempts })))],
    );
    return rowCount;
  }

  /**
   * Rows whose worker vanished (lease expired) go back to the queue, or to failed when that was
   * their last attempt. The lost attempt counts: a lookup that keeps killing workers must end.
   */
  async reapExpired(maxAttempts: number): Promise<number> {
    const { rows } = await this.db.query<{ reaped: number }>(
      `WITH reaped AS (
         UPDATE ${this.table}
         SET lookup_status = CASE WHEN attempts >= $1 THEN 'failed' ELSE 'queued' END,
             last_error = CASE WHEN attempts >= $1
               THEN 'Lease expired on attempt ' || attempts || ': the worker stopped responding'
               ELSE last_error END,
             lease_expires_at = NULL, next_attempt_at = now(), updated_at = now()
         WHERE lookup_status = 'pending' AND lease_expires_at < now()
         RETURNING isbn_lookup_job_id, lookup_status
       ),
       bump AS (UPDATE jobs SET updated_at = now()
                WHERE id IN (SELECT isbn_lookup_job_id FROM reaped WHERE lookup_status = 'failed') AND updated_at < now() - interval '1 second'),
       progress AS (${progressUpdate("(SELECT isbn_lookup_job_id FROM reaped WHERE lookup_status = 'failed')", '$2')})
       SELECT count(*)::int AS reaped FROM reaped`,
      [maxAttempts, this.source],
    );
    return rows[0]?.reaped ?? 0;
  }

  /** Whether any row still waits for a lookup (queued, scheduled for a retry, or held by a worker). */
  async hasWork(): Promise<boolean> {
    const { rows } = await this.db.query<{ busy: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM ${this.table} WHERE lookup_status IN ('queued', 'pending')) AS busy`,
    );
    return must(rows[0], 'SELECT EXISTS returns a row').busy;
  }
}
