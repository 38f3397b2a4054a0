// Watches are evaluated by the worker, in SQL, in the transaction that writes the answers (after the
// stored comparison and the velocity of the written books are refreshed, so the conditions read what
// the job page will show once it commits). For the ISBNs written:
//   - a book watch (isbn) is evaluated on the comparison row of the job just written for its ISBN;
//   - a job watch (job_id) on each written row of its job: it fires per book.
// Each (watch, book) is edge-triggered (watch_states): it fires when its conditions become true
// while armed (a notification, then disarmed), and arms again when they turn false. A book fires at
// most once a day per watch: a flapping price disarms it again without a second notification.
// Conditions are compiled by the rule compiler judging uses (decisions/rules-sql.ts); an empty
// value (no price yet) makes a condition false, as a filter keeps no such row.
import { describeConditions, WATCH_FIRE_PERIOD_HOURS } from '@app/domain/watches';
import { sql, type SQL } from 'drizzle-orm';
import { comparisonTable, baseMarketplace } from '../comparison/query.ts';
import { notifyUsersSql } from '../core/job-events.ts';
import type { Tx } from '../db/client.ts';
import { LOOKUP_TABLES, jobs, notifications, watchStates, watches, type LookupTable } from '../db/schema.ts';
import { conditionsSql } from '../decisions/rules-sql.ts';
import { feeSchedulesInForce, type FeeSchedules } from '../fees/repository.ts';
import type { JobRow } from '../jobs/repository.ts';

/** A watch that may have changed with this write: its conditions, and which written books it looks at. */
type Candidate = {
  id: number;
  user_id: string;
  name: string | null;
  conditions: { field: string; operator: string; value: string }[];
  /** A job watch (else a book watch). */
  of_job: boolean;
  /** The job whose comparison row it is evaluated on, and the ISBN. */
  job_id: number;
  isbn: string;
  /** The written lookup of (job, ISBN): the comparison row's id when `table` is the job's base marketplace. */
  lookup_id: number;
};

/**
 * Evaluates the watches of the lookups `lookupIds` of `table` just written in `tx` (call it after the
 * stored comparison and velocity were refreshed). Returns the notifications it wrote.
 */
export async function evaluateWatches(tx: Tx, table: LookupTable, lookupIds: readonly number[]): Promise<number> {
  if (lookupIds.length === 0) return 0;
  // One indexed probe per written row: with no watch on these books or jobs the write goes on at once.
  // Book watches are locked (in id order): two workers writing one ISBN in two jobs must not both see
  // it armed. A job watch's book is already serialised by the lock on its stored comparison row.
  const { rows: candidates } = await tx.execute<Candidate>(sql`
    WITH written AS (
      SELECT t.isbn_lookup_job_id AS job_id, t.isbn, t.id AS lookup_id FROM ${table} t WHERE t.id = ANY(${sql.param(lookupIds.map(String))}::bigint[])
    ),
    by_book AS (
      -- A book written in several jobs at once is evaluated on the newest job's row.
      SELECT DISTINCT ON (w.id) w.id, w.user_id, w.name, w.conditions, false AS of_job, written.job_id, written.isbn, written.lookup_id
      FROM written JOIN ${watches} w ON w.isbn = written.isbn
      ORDER BY w.id, written.job_id DESC
    ),
    locked AS (SELECT id FROM ${watches} WHERE id IN (SELECT id FROM by_book) ORDER BY id FOR UPDATE)
    SELECT * FROM by_book WHERE id IN (SELECT id FROM locked)
    UNION ALL
    SELECT w.id, w.user_id, w.name, w.conditions, true AS of_job, written.job_id, written.isbn, written.lookup_id
    FROM written JOIN ${watches} w ON w.job_id = written.job_id`);
  if (candidates.length === 0) return 0;
  const byJob = new Map<number, Candidate[]>();
  for (const c of candidates) byJob.set(Number(c.job_id), [...(byJob.get(Number(c.job_id)) ?? []), c]);
  const jobRows = await tx
    .select()
    .from(jobs)
    .where(sql`${jobs.id} = ANY(${sql.param([...byJob.keys()])}::int[])`);
  // The fees in force only matter to a condition on the estimated profit: read them only then.
  const fees = candidates.some((c) => c.conditions.some((f) => f.field === 'estimated_profit')) ? await feeSchedulesInForce(tx) : {};
  let fired = 0;
  const changed = new Set<number>();
  const firedWatches = new Set<number>();
  const users = new Set<string>();
  for (const job of jobRows) {
    const out = await evaluateJob(tx, job, table, byJob.get(job.id) ?? [], fees);
    fired += out.fired.length;
    for (const id of out.changed) changed.add(id);
    for (const f of out.fired) {
      firedWatches.add(f.watch_id);
      users.add(f.user_id);
    }
  }
  if (changed.size) await summarise(tx, [...changed], [...firedWatches], [...users]);
  return fired;
}

/** The candidates of one job: its comparison rows of their ISBNs, each watch's conditions, the transitions. */
async function evaluateJob(
  tx: Tx,
  job: JobRow,
  table: LookupTable,
  candidates: Candidate[],
  fees: FeeSchedules,
): Promise<{ fired: { watch_id: number; user_id: string }[]; changed: number[] }> {
  // Conditions that cannot be compiled (a field the comparison no longer has) never hold, as in judging.
  const compiled = new Map<number, SQL>();
  for (const c of candidates) if (!compiled.has(c.id)) compiled.set(c.id, conditionsSql(c.conditions) ?? sql`FALSE`);
  const rowIds = await comparisonRowIds(tx, job, table, candidates);
  if (rowIds.length === 0) return { fired: [], changed: [] };
  const computed = comparisonTable(job, { fees, rowIds });
  const pairs = candidates.map((c) => ({
    watch_id: c.id,
    user_id: c.user_id,
    watch_isbn: c.isbn,
    of_job: c.of_job,
    label: `${c.name ?? 'Your watch'}: ${describeConditions(c.conditions as never)}`,
  }));
  const holds = sql`CASE p.watch_id ${sql.join(
    [...compiled].map(([id, when]) => sql`WHEN ${id}::int THEN (${when})`),
    sql` `,
  )} END`;
  // Raw SQL on purpose: the comparison, every watch's conditions and the state changes in one
  // statement. Only transitions write: true while armed (disarm, and notify unless the book fired
  // within the period), false while disarmed (arm again).
  const { rows } = await tx.execute<{ watch_id: number; user_id: string; notified: boolean }>(sql`
    WITH p AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS r(watch_id int, user_id uuid, watch_isbn text, of_job boolean, label text)
    ),
    evaluated AS (
      SELECT p.watch_id, p.user_id, p.of_job, p.label, comparison.isbn AS book, comparison.title, comparison.best_price, comparison.best_source,
             coalesce(${holds}, false) AS holds
      FROM p JOIN ${computed} ON comparison.isbn = p.watch_isbn
    ),
    moved AS (
      SELECT e.*, s.last_fired_at,
             e.holds AND (s.last_fired_at IS NULL OR s.last_fired_at < now() - ${WATCH_FIRE_PERIOD_HOURS} * interval '1 hour') AS notify
      FROM evaluated e LEFT JOIN ${watchStates} s ON s.watch_id = e.watch_id AND s.isbn = e.book
      WHERE e.holds = coalesce(s.armed, true)
    ),
    states AS (
      INSERT INTO ${watchStates} (watch_id, isbn, armed, last_fired_at)
      SELECT watch_id, book, NOT holds, CASE WHEN notify THEN now() ELSE last_fired_at END FROM moved
      ON CONFLICT (watch_id, isbn) DO UPDATE SET armed = excluded.armed, last_fired_at = excluded.last_fired_at
    ),
    sent AS (
      INSERT INTO ${notifications} (user_id, watch_id, isbn, job_id, message)
      -- A book watch's alert names no job: the job read may be someone else's (market data is shared, jobs are not).
      SELECT user_id, watch_id, book, CASE WHEN of_job THEN ${job.id}::int END,
             label || ' — ' || coalesce(title || ' (' || book || ')', book) ||
             coalesce('. Best price $' || to_char(best_price, 'FM999999990.00') || coalesce(' on ' || best_source, ''), '')
      FROM moved WHERE notify
    )
    SELECT watch_id, user_id, notify AS notified FROM moved`);
  return {
    fired: rows.filter((r) => r.notified).map((r) => ({ watch_id: Number(r.watch_id), user_id: r.user_id })),
    changed: [...new Set(rows.map((r) => Number(r.watch_id)))],
  };
}

/**
 * The comparison rows of the candidates' books by their keys (the job's base lookups of these
 * ISBNs), so the planner's view of the job does not matter (comparison/query.ts `rowIds`): the
 * written lookups themselves when `table` is the job's base marketplace, else looked up by ISBN.
 */
async function comparisonRowIds(tx: Tx, job: JobRow, table: LookupTable, candidates: Candidate[]): Promise<number[]> {
  const base = LOOKUP_TABLES[baseMarketplace(job).id];
  if (base === table) return [...new Set(candidates.map((c) => Number(c.lookup_id)))];
  const isbns = [...new Set(candidates.map((c) => c.isbn))];
  const ids = await tx
    .select({ id: base.id })
    .from(base)
    .where(sql`${base.isbn_lookup_job_id} = ${job.id} AND ${base.isbn} = ANY(${sql.param(isbns)}::text[])`);
  return ids.map((r) => Number(r.id));
}

/**
 * The watches' summary after their books moved (armed while no book waits to re-arm, one probe of
 * a partial index; the time of the last alert), and word to their users' live streams, delivered
 * when the transaction commits. A statement of its own: one statement's CTEs do not see each
 * other's writes.
 */
async function summarise(tx: Tx, watchIds: number[], firedWatchIds: number[], userIds: string[]): Promise<void> {
  await tx.execute(sql`
    UPDATE ${watches} w SET
      armed = NOT EXISTS (SELECT 1 FROM ${watchStates} s WHERE s.watch_id = w.id AND NOT s.armed),
      last_fired_at = CASE WHEN w.id = ANY(${sql.param(firedWatchIds)}::int[]) THEN now() ELSE w.last_fired_at END
    WHERE w.id = ANY(${sql.param(watchIds)}::int[])`);
  if (userIds.length) await tx.execute(notifyUsersSql(sql`SELECT DISTINCT unnest(${sql.param(userIds)}::uuid[]) AS user_id`));
}
