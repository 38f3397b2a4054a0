// Watches are evaluated by the worker, in SQL, in the transaction that writes the answers, after the
// velocity of the written books moved, so the conditions read what the job page will show once it
// commits. For the ISBNs written:
//   - a book watch (isbn) is evaluated on the comparison row of the job just written for its ISBN;
//   - a job watch (job_id) on each written row of its job: it fires per book.
// A watch whose conditions name the decision is evaluated when the decision is judged instead
// (evaluateDecisionWatches, from decisions/judge.ts): the write-back would read the decision judged
// before this answer, next to this answer's prices.
// Each (watch, book) is edge-triggered (watch_states): it fires when its conditions become true
// while armed (a notification, then disarmed), and arms again when they turn false. A book fires at
// most once a day per watch: a flapping price disarms it again without a second notification.
// Conditions are compiled by the rule compiler judging uses (decisions/rules-sql.ts); an empty
// value (no price yet) makes a condition false, as a filter keeps no such row.
//
// Cost (issue 34: ≤ 20 % of the write-back; npm run bench -- watches): the write-back
// (worker/books-written.ts) probes the watches in the statement that reads its jobs, and evaluates
// them in the statement that refreshes each job's stored comparison (evaluationRider), on the rows
// that statement computes anyway. One statement computes the rows, judges every (watch, book),
// writes the transitions, the alerts, the watches' summary and the word to the live streams. Round
// trips were the cost first: each statement of its own, parsed, planned and waited for, cost more
// than the budget of a few milliseconds per batch of 50.
//
// Every written book is evaluated, even one whose price did not move: skipping "unchanged" books is
// not correct here. The change fields (best_price_change, each marketplace's change) are the price
// minus the previous look's, so writing the same price twice turns −5 into 0; the velocity fields
// move with time and with other jobs' observations; and a watch created since the book was last
// written has no state yet (only transitions write one), so "no state" cannot tell "already judged
// false" from "never judged", and a new watch must fire on the first answer that meets it.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import { must } from '@app/domain/must';
import { DECISION_FIELD } from '@app/domain/comparison';
import type { Filter } from '@app/domain/fields';
import { describeConditions, WATCH_FIELDS, WATCH_FIRE_PERIOD_HOURS } from '@app/domain/watches';
import { comparisonTable, baseMarketplace, type ComparisonOptions } from '../comparison/query.ts';
import type { RefreshRider } from '../comparison/stored.ts';
import { notifyUsersSql } from '../core/job-events.ts';
import type { Tx } from '../db/client.ts';
import { LOOKUP_TABLES, jobs, notifications, watchStates, watches, type LookupTable } from '../db/schema.ts';
import { conditionsSql, type BindValue } from '../lib/filter-sql.ts';
import { feeSchedulesInForce, type FeeSchedules } from '../fees/repository.ts';
import type { JobRow } from '../jobs/repository.ts';

/** A watch to evaluate on some rows of one job. */
type Watch = {
  id: number;
  user_id: string;
  name: string | null;
  conditions: Filter[];
  /** A book watch's ISBN; null for a job watch (evaluated on every row given). */
  isbn: string | null;
};

/** A watch the write-back's probe found, with the job it is evaluated on. */
type Probed = Watch & {
  job_id: number;
  /** A book watch's written lookup; null for a job watch (evaluated on every written lookup of its job). */
  lookup_id: number | string | null;
};

/** What probeWatches found: the jobs read (each with its lookups written) and each job's watches. */
export type ProbedWatches = {
  jobs: Map<number, { job: JobRow; written: number[] }>;
  watches: Map<number, Probed[]>;
  fees: FeeSchedules;
};

const dialect = new PgDialect();

/** The fields a condition may name (one naming another never holds: it is not compiled, so not read). */
const WATCH_FIELD_NAMES: ReadonlySet<string> = new Set(WATCH_FIELDS.map((f) => f.name));

/** Conditions that name the decision: a watch with one waits for the judge. */
const NAMES_DECISION = sql`${JSON.stringify([{ field: DECISION_FIELD }])}::jsonb`;

/**
 * Evaluates the watches of the lookups `lookupIds` of `table` just written in `tx` (call it after the
 * stored comparison and velocity were refreshed). Returns the notifications it wrote. The write-back
 * does not call this: it evaluates with the stored comparison's refresh (worker/books-written.ts).
 */
export async function evaluateWatches(tx: Tx, table: LookupTable, lookupIds: readonly number[]): Promise<number> {
  const probe = await probeWatches(tx, table, lookupIds, []);
  let fired = 0;
  for (const jobId of probe.watches.keys()) fired += await evaluateProbed(tx, table, probe, jobId);
  return fired;
}

/**
 * The watches of the lookups `lookupIds` of `table` just written in `tx`, with the rows of their jobs
 * and of the jobs `alsoJobs` (which the caller needs read anyway), in one statement: with no watch on
 * these books or jobs, one indexed probe. Book watches are locked (in id order): two workers writing
 * one ISBN in two jobs must not both see it armed. A job watch's book is already serialised by the
 * lock on its stored comparison row.
 */
export async function probeWatches(
  tx: Tx,
  table: LookupTable,
  lookupIds: readonly number[],
  alsoJobs: readonly number[],
): Promise<ProbedWatches> {
  const probed: ProbedWatches = { jobs: new Map(), watches: new Map(), fees: {} };
  if (lookupIds.length === 0) return probed;
  const { rows } = await tx.execute<{
    watches: Probed[] | null;
    jobs: { job: Record<string, unknown>; written: (number | string)[] | null }[] | null;
  }>(sql`
    WITH written AS (
      SELECT t.isbn_lookup_job_id AS job_id, t.isbn, t.id AS lookup_id FROM ${table} t WHERE t.id = ANY(${sql.param(lookupIds.map(String))}::bigint[])
    ),
    -- The watches of these books and of these jobs, probed by key (an index probe per ISBN and job);
    -- their conditions are tested after (MATERIALIZED keeps the test out of the scans). Left to
    -- itself, the planner scanned every watch and ran the test, or a 50-ISBN array, on each (1,000
    -- watches: ~1 ms a batch).
    keyed AS MATERIALIZED (
      SELECT w.* FROM (SELECT DISTINCT isbn FROM written) b CROSS JOIN LATERAL (
        SELECT w.id, w.user_id, w.name, w.conditions, w.isbn, w.job_id FROM ${watches} w WHERE w.isbn = b.isbn OFFSET 0
      ) w
      UNION ALL
      SELECT w.* FROM (SELECT DISTINCT job_id FROM written) j CROSS JOIN LATERAL (
        SELECT w.id, w.user_id, w.name, w.conditions, w.isbn, w.job_id FROM ${watches} w WHERE w.job_id = j.job_id OFFSET 0
      ) w
    ),
    watched AS (SELECT * FROM keyed WHERE NOT conditions @> ${NAMES_DECISION}),
    by_book AS (
      -- A book written in several jobs at once is evaluated on the newest job's row.
      SELECT DISTINCT ON (w.id) w.id, w.user_id, w.name, w.conditions, w.isbn, written.job_id, written.lookup_id
      FROM written JOIN watched w ON w.isbn = written.isbn
      ORDER BY w.id, written.job_id DESC
    ),
    locked AS (SELECT id FROM ${watches} WHERE id IN (SELECT id FROM by_book) ORDER BY id FOR UPDATE),
    found AS (
      SELECT * FROM by_book WHERE id IN (SELECT id FROM locked)
      UNION ALL
      SELECT w.id, w.user_id, w.name, w.conditions, NULL, w.job_id, NULL FROM watched w WHERE w.job_id IS NOT NULL
    )
    SELECT (SELECT jsonb_agg(found) FROM found) AS watches,
           (SELECT jsonb_agg(jsonb_build_object('job', to_jsonb(j), 'written', (SELECT array_agg(lookup_id) FROM written WHERE written.job_id = j.id)))
            FROM ${jobs} j WHERE j.id = ANY(${sql.param([...alsoJobs])}::int[]) OR j.id IN (SELECT job_id FROM found)) AS jobs`);
  for (const { job, written } of rows[0]?.jobs ?? []) {
    const row = jobFromJson(job);
    probed.jobs.set(row.id, { job: row, written: (written ?? []).map(Number) });
  }
  const found = rows[0]?.watches ?? [];
  for (const p of found) {
    const list = probed.watches.get(Number(p.job_id)) ?? [];
    list.push(p);
    probed.watches.set(Number(p.job_id), list);
  }
  probed.fees = await feesFor(tx, found);
  return probed;
}

/**
 * Evaluates the probed watches of one job on its written rows, in a statement of its own (a job whose
 * comparison is not stored, or no stored-row refresh to ride): a job watch on every written row of
 * the job, a book watch on its own book's row.
 */
export async function evaluateProbed(tx: Tx, table: LookupTable, probe: ProbedWatches, jobId: number): Promise<number> {
  const read = probe.jobs.get(jobId);
  const list = probe.watches.get(jobId) ?? [];
  if (!read || list.length === 0) return 0;
  const written = new Set<number>();
  // A job watch reads every written row of its job; book watches alone only their own books' rows.
  for (const p of list) for (const l of p.lookup_id === null ? read.written : [Number(p.lookup_id)]) written.add(l);
  const rowIds = await comparisonRowIds(tx, read.job, table, [...written]);
  return evaluateOn(tx, read.job, { rowIds }, list, probe.fees);
}

/**
 * The evaluation of `list` (watches probed for `job`) as a rider of the refresh of the job's stored
 * rows (comparison/stored.ts): the rows the refresh computes are the ones the watches are evaluated
 * on, computed once, in one statement. Reads the alerts written.
 */
export function evaluationRider(job: JobRow, list: Watch[], fees: FeeSchedules): RefreshRider<number> {
  const { ctes, columns } = evaluation(job, list);
  // What the evaluation reads of each row: its book, what an alert says, and the fields the conditions name.
  // Sorted: the same fields give the same text (see conditionShapes).
  const named = [...new Set(list.flatMap((w) => w.conditions.map((c) => c.field)).filter((f) => WATCH_FIELD_NAMES.has(f)))].sort();
  return {
    // Decision watches are judged (evaluateDecisionWatches), so no condition here reads the decision.
    options: { fees, decisions: false },
    reads: ['isbn', 'title', 'best_price', 'best_source', ...named],
    ctes,
    columns,
    read: (row) => Number(row.fired ?? 0),
  };
}

/**
 * Evaluates the watches of `isbn` after its market data moved without an answer being written:
 * Keepa's series (keepa/repository.ts) changes the book's velocity fields, which watch conditions may
 * name. Its Amazon rows stand for the written ones (Keepa is fetched for jobs that ask Amazon): every
 * row when a book watch names the ISBN (the newest job's is read), else those of watched jobs. With no
 * watch on the book or its jobs, no lookup row is read (the EXISTS is a one-time filter).
 */
export async function evaluateWatchesOfBook(tx: Tx, isbn: string): Promise<number> {
  const t = LOOKUP_TABLES.amazon;
  const { rows } = await tx.execute<{ id: string }>(sql`
    SELECT t.id FROM ${t} t WHERE t.isbn = ${isbn} AND EXISTS (SELECT 1 FROM ${watches} w WHERE w.isbn = ${isbn})
    UNION
    SELECT t.id FROM ${t} t
    WHERE t.isbn_lookup_job_id IN (SELECT w.job_id FROM ${watches} w WHERE w.job_id IS NOT NULL) AND t.isbn = ${isbn}`);
  return evaluateWatches(
    tx,
    t,
    rows.map((r) => Number(r.id)),
  );
}

/**
 * Evaluates the watches whose conditions name the decision on the rows of `job` that a judge's step
 * just decided (`only`: the step's range of row ids), in the step's transaction: the decisions it
 * wrote are read back by this statement. Book watches on the step's ISBNs are evaluated on this
 * job's row, job watches of the job on every row. Returns the notifications written.
 */
export async function evaluateDecisionWatches(tx: Tx, job: JobRow, only: NonNullable<ComparisonOptions['only']>): Promise<number> {
  const base = LOOKUP_TABLES[baseMarketplace(job).id];
  const { rows: found } = await tx.execute<Watch>(sql`
    WITH book AS (
      SELECT w.id FROM ${watches} w
      WHERE w.conditions @> ${NAMES_DECISION}
        AND w.isbn IN (SELECT b.isbn FROM ${base} b WHERE b.isbn_lookup_job_id = ${job.id} AND ${only({ id: sql`b.id`, isbn: sql`b.isbn` })})
      ORDER BY w.id FOR UPDATE
    )
    SELECT w.id, w.user_id, w.name, w.conditions, w.isbn FROM ${watches} w WHERE w.id IN (SELECT id FROM book)
    UNION ALL
    SELECT w.id, w.user_id, w.name, w.conditions, w.isbn FROM ${watches} w WHERE w.job_id = ${job.id} AND w.conditions @> ${NAMES_DECISION}`);
  if (found.length === 0) return 0;
  return evaluateOn(tx, job, { only }, found, await feesFor(tx, found));
}

/** The fees in force: they only matter to a condition on the estimated profit, so they are read only then. */
async function feesFor(tx: Tx, list: Watch[]): Promise<FeeSchedules> {
  return list.some((w) => w.conditions.some((c) => c.field === 'estimated_profit')) ? feeSchedulesInForce(tx) : {};
}

/**
 * The job's row as the probe read it (`to_jsonb`), typed as the query builder reads it: each column
 * through its own mapping (timestamps to dates, …).
 */
function jobFromJson(json: Record<string, unknown>): JobRow {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(jobs))) {
    const value = json[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as JobRow;
}

/**
 * One statement: the job's comparison rows picked by `pick`, and the watches' evaluation on them
 * (evaluation, below). Returns the alerts written.
 */
async function evaluateOn(
  tx: Tx,
  job: JobRow,
  pick: Pick<ComparisonOptions, 'only' | 'rowIds'>,
  list: Watch[],
  fees: FeeSchedules,
): Promise<number> {
  if (pick.rowIds?.length === 0) return 0;
  // A job that keeps its comparison (comparison/stored.ts) reads best price, source and spread from
  // its stored rows, refreshed in this transaction before the watches (the write-back) or unchanged
  // by it (the judge), so they equal what would be computed; reading them is measurably cheaper
  // than computing them (a quarter of the comparison's time for a batch of 50). Other jobs compute.
  const computed = comparisonTable(job, { fees, stored: job.comparison_stored, ...pick });
  const { ctes, columns } = evaluation(job, list);
  const { rows } = await tx.execute<{ fired: number }>(sql`WITH ${ctes(computed)} SELECT ${columns}`);
  return Number(rows[0]?.fired ?? 0);
}

/**
 * The evaluation's CTEs over the comparison rows `rows` (a FROM item named `comparison`): every
 * (watch, book) pair's conditions, the transitions (true while armed: disarm, and notify unless the
 * book fired within the period; false while disarmed: arm again; nothing else writes), the alerts,
 * the watches' summary and word to their users' live streams (delivered when the transaction
 * commits); and the result's columns, `fired` (the alerts written) and `heard`, which must be read:
 * a SELECT in WITH runs only when read, so counting it sends the word.
 */
function evaluation(job: JobRow, list: Watch[]): { ctes: (rows: SQL) => SQL; columns: SQL } {
  const compiled = new Map(list.map((w) => [w.id, compiledConditions(w.conditions)]));
  const shapes = conditionShapes(compiled);
  const watchRows = list.map((w) => ({
    watch_id: w.id,
    user_id: w.user_id,
    watch_isbn: w.isbn,
    label: `${w.name ?? 'Your watch'}: ${must(compiled.get(w.id), 'compiled above').described}`,
    ...must(shapes.of.get(w.id), 'every watch has a shape'),
  }));
  const holds = sql`CASE pw.shape ${sql.join(
    shapes.list.map((when, index) => sql`WHEN ${sql.raw(String(index))} THEN (${when})`),
    sql` `,
  )} END`;
  // Raw SQL on purpose: the comparison, every watch's conditions and everything that follows from
  // them in one statement (one round trip: see the head of this file). Its CTEs read the snapshot the
  // statement began with, so the summary is worked out from the states as they were plus the moves
  // made here (a separate UPDATE would see the new states, at the cost of another round trip).
  const ctes = (rows: SQL) => sql`
    -- MATERIALIZED: inlined into the join below, the JSON was read again for every comparison row.
    w AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(watchRows)}::jsonb) AS r(watch_id int, user_id uuid, watch_isbn text, label text, shape int, vals jsonb)
    ),
    evaluated AS (
      SELECT pw.watch_id, pw.user_id, pw.watch_isbn IS NULL AS of_job, pw.label, comparison.isbn AS book, comparison.title,
             comparison.best_price, comparison.best_source, coalesce(${holds}, false) AS holds
      FROM ${rows} JOIN w pw ON pw.watch_isbn IS NULL OR pw.watch_isbn = comparison.isbn
    ),
    -- The disarmed states of the batch's books whose conditions fail (they arm again), read by ISBN
    -- (watch_states_disarmed_isbn_idx: a probe per book, not one per (watch, book) pair: a job watch
    -- makes 50 pairs a batch, and most pairs fail while armed, which needs no state read at all).
    -- Materialized: inlined, the planner (guessing one evaluated row) probed the key per pair instead.
    disarmed AS MATERIALIZED (
      SELECT s.watch_id, s.isbn, s.last_fired_at FROM ${watchStates} s
      WHERE NOT s.armed AND s.isbn = ANY(ARRAY(SELECT DISTINCT book FROM evaluated WHERE NOT holds))
    ),
    moved AS (
      -- True while armed (or no state yet): the state by its key, only for the pairs that hold. As a
      -- plain join the planner, guessing the watches' rows, hashed every state of every watch.
      SELECT e.*, s.last_fired_at,
             s.last_fired_at IS NULL OR s.last_fired_at < now() - ${WATCH_FIRE_PERIOD_HOURS} * interval '1 hour' AS notify
      FROM evaluated e LEFT JOIN LATERAL (
        SELECT s.armed, s.last_fired_at FROM ${watchStates} s WHERE s.watch_id = e.watch_id AND s.isbn = e.book OFFSET 0
      ) s ON true
      WHERE e.holds AND coalesce(s.armed, true)
      UNION ALL
      -- False while disarmed.
      SELECT e.*, d.last_fired_at, false AS notify
      FROM evaluated e JOIN disarmed d ON d.watch_id = e.watch_id AND d.isbn = e.book
      WHERE NOT e.holds
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
    ),
    -- Armed while no book waits to re-arm: none of the states this statement left alone is disarmed
    -- (one probe of a partial index) and none it moved was disarmed; the time of the last alert.
    summary AS (
      UPDATE ${watches} sw SET
        -- A watch with a book just disarmed is disarmed; only one whose moves all re-armed reads whether
        -- another of its books still waits (OFFSET 0: probed per watch; left to itself the planner
        -- could hash every disarmed state instead).
        armed = CASE WHEN mw.disarms THEN false ELSE NOT EXISTS (
                  SELECT 1 FROM ${watchStates} s WHERE s.watch_id = sw.id AND NOT s.armed
                    AND NOT EXISTS (SELECT 1 FROM moved m WHERE m.watch_id = s.watch_id AND m.book = s.isbn)
                  OFFSET 0
                ) END,
        last_fired_at = CASE WHEN mw.notifies THEN now() ELSE sw.last_fired_at END
      -- Joined by key: with IN or an array, the planner read all the watches (1,000: ~0.35 ms a batch).
      FROM (SELECT watch_id, bool_or(holds) AS disarms, bool_or(notify) AS notifies FROM moved GROUP BY watch_id) mw
      WHERE sw.id = mw.watch_id
    ),
    heard AS (${notifyUsersSql(sql`SELECT DISTINCT user_id FROM moved WHERE notify`)})`;
  const columns = sql`(SELECT count(*) FROM moved WHERE notify)::int AS fired, (SELECT count(*) FROM heard)::int AS heard`;
  return { ctes, columns };
}

/**
 * The watches' conditions by shape: compiled with their values read from the watch's row
 * (`pw.vals`), so watches whose conditions differ only in values share one text, and the statement's
 * text depends on the shapes present, not on which watches or values. Written per watch, the text
 * changed with nearly every batch (its book watches), so PostgreSQL parsed and planned it every time;
 * with the few shapes users write it repeats, and a named statement (db/named-statement.ts) keeps its
 * plan. Shapes are in the order of their text, so the same shapes give the same text. Conditions
 * that cannot be compiled (a field the comparison no longer has) never hold, as in judging.
 */
function conditionShapes(compiled: Map<number, CompiledConditions>): { list: SQL[]; of: Map<number, { shape: number; vals: unknown[] }> } {
  const keys = [...new Set([...compiled.values()].map((c) => c.key))].sort();
  const index = new Map(keys.map((key, i) => [key, i]));
  const shapes: SQL[] = [];
  const of = new Map<number, { shape: number; vals: unknown[] }>();
  for (const [id, c] of compiled) {
    const shape = must(index.get(c.key), 'a key listed above');
    shapes[shape] ??= c.when;
    of.set(id, { shape, vals: c.vals });
  }
  return { list: shapes, of };
}

/** A watch's conditions as conditionShapes compiles them, and as its alerts describe them. */
type CompiledConditions = { key: string; when: SQL; vals: unknown[]; described: string };

/**
 * Compiled conditions by their JSON. The write-back compiles the same watches batch after batch, and
 * compiling and describing cost ~45 µs a watch (0.6 ms a batch of 50 with 13 watches, against a
 * budget of a few milliseconds). Bounded: a worker runs for months while users edit their watches.
 */
const compiledByJson = new LRUCache<string, CompiledConditions>({ max: 2_000 });

function compiledConditions(conditions: Filter[]): CompiledConditions {
  const json = JSON.stringify(conditions);
  const cached = compiledByJson.get(json);
  if (cached) return cached;
  const vals: unknown[] = [];
  const bind: BindValue = (value, type) => {
    vals.push(value);
    return sql`(pw.vals ->> ${sql.raw(String(vals.length - 1))})::${sql.raw(type)}`;
  };
  const when = conditionsSql(conditions, WATCH_FIELDS, bind) ?? sql`FALSE`;
  const built = dialect.sqlToQuery(when);
  // Compiled with the values read from the row, a shape holds no parameter; one that did would differ by it.
  const compiled = { key: `${built.sql} ${JSON.stringify(built.params)}`, when, vals, described: describeConditions(conditions) };
  compiledByJson.set(json, compiled);
  return compiled;
}

/**
 * The comparison rows of the written lookups of one job (the job's base lookups of their ISBNs), by
 * their keys, so the planner's view of the job does not matter (comparison/query.ts `rowIds`): the
 * written lookups themselves when `table` is the job's base marketplace, else looked up by ISBN.
 */
async function comparisonRowIds(tx: Tx, job: JobRow, table: LookupTable, written: number[]): Promise<number[]> {
  const base = LOOKUP_TABLES[baseMarketplace(job).id];
  if (base === table) return written;
  const ids = await tx
    .select({ id: base.id })
    .from(base)
    .where(
      sql`${base.isbn_lookup_job_id} = ${job.id} AND ${base.isbn} IN (SELECT isbn FROM ${table} WHERE id = ANY(${sql.param(written.map(String))}::bigint[]))`,
    );
  return ids.map((r) => Number(r.id));
}
