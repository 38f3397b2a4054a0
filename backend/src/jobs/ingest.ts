// Storing a job: an upload's sheet parsed and cleaned (readUploadedFile), then in ONE transaction the
// job, one queued lookup row per accepted ISBN per enabled source and the rejected cells. Routes
// create jobs through create.ts. Rows go in
// with `INSERT … SELECT unnest(array)`: one statement per table, no per-row round trips.
// A failed upload (parse error or database error) leaves no job and no rows behind.
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceInfo } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { eq, getTableName, param, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { insertEmptyComparisonRows } from '../db/comparison-rows.ts';
import type { TxStep } from '../db/tx-step.ts';
import { analyzeIfGrown } from '../db/planner-statistics.ts';
import type { Logger } from '../core/logging.ts';
import { comparisonRows, jobProgress, jobRejections, jobs, ruleSetVersions, ruleSets } from '../db/schema.ts';
import { HttpError } from '../lib/http-errors.ts';
import { storableText } from '../lib/text-guard.ts';
import { parseUploadOffThread, UploadError, type ParsedUpload, type UploadLimitsWithHeap } from '../uploads/index.ts';
import type { UserRow } from '../users/schemas.ts';
import { WritesInProgress } from '../core/writes-in-progress.ts';
import type { JobRow } from './repository.ts';
import type { JobConfigInput } from './schemas.ts';
import { inBackground } from '../db/work-lane.ts';

export type UploadLimits = UploadLimitsWithHeap;

export async function parseOrExplain(data: Buffer, filename: string, limits: UploadLimits): Promise<ParsedUpload> {
  try {
    return await parseUploadOffThread(data, filename, limits, limits.maxParseMemoryMb);
  } catch (err) {
    if (err instanceof UploadError) throw new HttpError(err.status, err.message);
    throw err;
  }
}

/**
 * The report and rejected cells with every NUL and lone UTF-16 surrogate (a spreadsheet cell or sheet
 * name can carry either: an .xlsx writes them as _x0000_ or _xD800_) as U+FFFD: PostgreSQL cannot
 * store NUL, and jsonb refuses a lone surrogate. JSON.stringify escapes exactly these (a well-formed
 * pair stays as it is); an escaped backslash before "u0000" is text.
 */
function storableCells(parsed: ParsedUpload): ParsedUpload {
  const json = JSON.stringify({ report: parsed.report, rejections: parsed.rejections });
  const unstorable = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/g;
  if (!unstorable.test(json)) return parsed;
  const clean = JSON.parse(json.replace(unstorable, '$1\\ufffd')) as Pick<ParsedUpload, 'report' | 'rejections'>;
  return { ...parsed, ...clean };
}

/** Keeps the name a user recognises, without any client path, within the column's size. */
export function cleanFilename(name: string): string {
  const base = storableText(path.basename(name.replace(/\\/g, '/'))).trim();
  return (base || 'upload').slice(0, 255);
}

/** An uploaded file as the cleaned list a job is stored from, under the name it is stored with. */
export async function readUploadedFile(file: { filename: string; data: Buffer }, limits: UploadLimits) {
  return { filename: cleanFilename(file.filename), parsed: storableCells(await parseOrExplain(file.data, file.filename, limits)) };
}

/**
 * The team default rule set's current version, if there is one: a new job records it and the worker
 * judges the job with it once its last lookup ends (decisions/auto-judge.ts).
 */
const teamDefaultVersion = sql`(SELECT v.id FROM ${ruleSetVersions} v JOIN ${ruleSets} s ON s.id = v.rule_set_id
  WHERE s.is_team_default AND s.deleted_at IS NULL ORDER BY v.version DESC LIMIT 1)`;

/**
 * Lookup rows per committed step on the embedded database: each step's INSERT holds the one session a
 * page or health check waits for. npm run bench -- big-paste (150k × 4, quiet): at 2,500 rows the
 * readiness check waited up to 609 ms (p95 237) and the paste took 40 s; at 1,000, 157–196 ms (p95 77)
 * and 31–33 s (smaller steps let the checks in without waiting behind long ones).
 */
export const EMBEDDED_STEP_ROWS = 1_000;

/**
 * The statistics sample after a big write on the embedded database (PostgreSQL's default is 100, a
 * 30,000-row sample): the plans that matter need the table's size and the few statuses, which a
 * 3,000-row sample gives as well.
 */
const EMBEDDED_STATISTICS_TARGET = 10;

export interface StoreOptions {
  /**
   * Write the lookups in committed steps of this many rows, giving way between them (the embedded
   * database, where one 150k-row transaction held every request for ~25 s). Unset: ONE transaction.
   */
  stepRows?: number;
  /** Where a failure to refresh the planner's statistics after a big job is told (db/planner-statistics.ts). */
  log?: Pick<Logger, 'warn'>;
  /** Counts the stepped write as in progress, so the in-process worker gives way until it ends. */
  writes?: WritesInProgress;
}

/** How a route should store a job on this context's database. */
export const storeOptions = (ctx: { embedded: boolean; writes: WritesInProgress }, log?: Pick<Logger, 'warn'>): StoreOptions => ({
  ...(ctx.embedded ? { stepRows: EMBEDDED_STEP_ROWS, writes: ctx.writes } : {}),
  log,
});

/**
 * Writes a job from its cleaned list (an upload's or a pasted one): the job, its queued lookups
 * and its rejections, in ONE transaction (with `step`, e.g. its audit event, last).
 * With `stepRows` (the embedded database) the job, its counters, rejections and `step` go first in
 * one transaction, then the lookups in committed steps; if a step fails the job is deleted with
 * whatever was written. The worker may start on the first rows meanwhile: each job's counters
 * already hold its full total, so it never looks finished early.
 */
export async function storeJob(
  db: Db,
  owner: UserRow,
  config: JobConfigInput,
  filename: string,
  parsed: ParsedUpload,
  step?: TxStep<StoredJob>,
  opts: StoreOptions = {},
): Promise<JobRow> {
  const sources = MARKETPLACE_LIST.filter((m) => config[m.id]);
  const { stepRows } = opts;
  const created = stepRows
    ? await (opts.writes ?? new WritesInProgress()).during(() =>
        storeInSteps(db, owner, config, filename, parsed, sources, stepRows, step, opts.log),
      )
    : await db.transaction(async (tx) => {
        const job = await writeJob(tx, owner, config, filename, parsed, sources);
        await insertLookups(tx, job.id, filename, sources, parsed.isbns, sources[0]);
        await step?.(tx, { job, parsed });
        return job;
      });
  // A big list can grow the tables many times over: the worker's first claims must not be planned
  // as if they were still small.
  // On the embedded database the ANALYZE is background work and samples fewer rows: its statement
  // holds the one session (150k rows: 140–210 ms at the default sample, 18 ms at a tenth).
  const tables = tablesOf(sources);
  if (stepRows) await inBackground(() => analyzeIfGrown(db, tables, parsed.isbns.length, opts.log, EMBEDDED_STATISTICS_TARGET));
  else await analyzeIfGrown(db, tables, parsed.isbns.length, opts.log);
  return created;
}

/** The tables a job's lookups grow: each marketplace's and the stored comparison's. */
const tablesOf = (sources: readonly MarketplaceInfo[]) => [...sources.map((m) => m.table), getTableName(comparisonRows)];

/** storeJob on the embedded database: the job first, then its lookups in committed steps of `stepRows`. */
async function storeInSteps(
  db: Db,
  owner: UserRow,
  config: JobConfigInput,
  filename: string,
  parsed: ParsedUpload,
  sources: readonly MarketplaceInfo[],
  stepRows: number,
  step?: TxStep<StoredJob>,
  log?: StoreOptions['log'],
): Promise<JobRow> {
  const created = await db.transaction(async (tx) => {
    const job = await writeJob(tx, owner, config, filename, parsed, sources);
    await step?.(tx, { job, parsed });
    return job;
  });
  try {
    // Background work on the one session: a person's page goes before each next step.
    await inBackground(async () => {
      // The planner learns the tables' growth as they grow, not only at the end: the worker's claims
      // made meanwhile were planned on a table believed empty (measured: ~370 ms a claim, each one
      // holding the session a health check waits for). Checked at doubling sizes, so a few ANALYZEs.
      let [sinceAnalyze, nextCheck] = [0, 10 * stepRows];
      for (let i = 0; i < parsed.isbns.length; i += stepRows) {
        const slice = parsed.isbns.slice(i, i + stepRows);
        for (const m of sources) {
          await insertLookups(db, created.id, filename, [m], slice, sources[0]);
          // PGlite runs one statement at a time: other requests (and the worker) go between steps.
          await nextTurn();
        }
        sinceAnalyze += slice.length;
        if (i + slice.length >= nextCheck) {
          await analyzeIfGrown(db, tablesOf(sources), sinceAnalyze, log, EMBEDDED_STATISTICS_TARGET);
          [sinceAnalyze, nextCheck] = [0, nextCheck * 2];
        }
      }
    });
  } catch (err) {
    await db.delete(jobs).where(eq(jobs.id, created.id));
    throw err;
  }
  return created;
}

/** The job, its progress counters (full totals) and its rejections. */
async function writeJob(
  tx: Tx,
  owner: UserRow,
  config: JobConfigInput,
  filename: string,
  parsed: ParsedUpload,
  sources: readonly MarketplaceInfo[],
): Promise<JobRow> {
  const inserted = await tx
    .insert(jobs)
    .values({
      name: config.name,
      input_filename: filename,
      owner_id: owner.id,
      ...byMarketplace((m) => config[m.id]),
      ingest_report: parsed.report,
      rule_set_version_id: teamDefaultVersion,
      // Its comparison rows are written with its lookups below.
      comparison_stored: true,
    })
    .returning();
  const created = must(inserted[0], 'INSERT … RETURNING gives the new job');
  // The job's progress counters start here; the worker moves them on (jobs/progress.ts).
  if (sources.length)
    await tx.insert(jobProgress).values(sources.map((m) => ({ job_id: created.id, source: m.id, total: parsed.isbns.length })));
  if (parsed.rejections.length) {
    const r = parsed.rejections;
    // Raw SQL for the same reason as the lookups: one statement, one array per column.
    await tx.execute(
      sql`INSERT INTO ${jobRejections} (job_id, sheet, row_number, raw_value, reason)
          SELECT ${created.id}, * FROM unnest(${param(r.map((x) => x.sheet))}::text[], ${param(r.map((x) => x.row_number))}::int[],
                                            ${param(r.map((x) => x.raw_value.slice(0, 1000)))}::text[], ${param(r.map((x) => x.reason))}::text[])`,
    );
  }
  return created;
}

/**
 * One queued lookup per ISBN per marketplace, and with the `base` marketplace's (the first the job
 * asks, whose ids are the comparison's rows) an empty stored comparison row each, in the same
 * statement (comparison/stored.ts). Raw SQL on purpose: the ISBNs travel as ONE array
 * parameter. Drizzle's .values() spends 3–4 s of CPU building a 100k-row statement
 * (measured; docs/architecture.md, House habits); this stays near the server's speed.
 */
async function insertLookups(
  db: Db | Tx,
  jobId: number,
  filename: string,
  sources: readonly MarketplaceInfo[],
  isbns: readonly string[],
  base: MarketplaceInfo | undefined,
): Promise<void> {
  for (const m of sources) {
    const insert = sql`INSERT INTO ${sql.identifier(m.table)} (isbn_lookup_job_id, isbn, input_filename) SELECT ${jobId}, unnest(${param(isbns)}::text[]), ${filename}`;
    await db.execute(
      m.id === base?.id ? sql`WITH inserted AS (${insert} RETURNING id, isbn) ${insertEmptyComparisonRows(jobId, sql`inserted`)}` : insert,
    );
  }
}

/** A job just written and the list it was written from, as storeJob's step sees them. */
export interface StoredJob {
  job: JobRow;
  parsed: ParsedUpload;
}
