// Storing a job: an upload's sheet parsed and cleaned (readUploadedFile), then in ONE transaction the
// job, one queued lookup row per accepted ISBN per enabled source and the rejected cells. Routes
// create jobs through create.ts. Rows go in
// with `INSERT … SELECT unnest(array)`: one statement per table, no per-row round trips.
// A failed upload (parse error or database error) leaves no job and no rows behind.
import path from 'node:path';
import { MARKETPLACE_LIST, byMarketplace, type MarketplaceInfo } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { eq, getTableName, param, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { insertEmptyComparisonRows } from '../db/comparison-rows.ts';
import type { TxStep } from '../db/tx-step.ts';
import { oneTransaction, type BulkWrites } from '../db/bulk-writes.ts';
import type { Logger } from '../core/logging.ts';
import { comparisonRows, jobProgress, jobRejections, jobs, ruleSetVersions, ruleSets } from '../db/schema.ts';
import { HttpError } from '../lib/http-errors.ts';
import { storableText } from '../lib/text-guard.ts';
import { parseUploadOffThread, UploadError, type ParsedUpload, type UploadLimitsWithHeap } from '../uploads/index.ts';
import type { UserRow } from '../users/schemas.ts';
import { WritesInProgress } from '../core/writes-in-progress.ts';
import type { JobRow } from './repository.ts';
import type { JobConfigInput } from './schemas.ts';

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

export interface StoreOptions {
  /** How the big write runs on this database (db/bulk-writes.ts); ONE transaction when unset. */
  bulk?: BulkWrites;
  /** Where a failure to refresh the planner's statistics after a big job is told (db/planner-statistics.ts). */
  log?: Pick<Logger, 'warn'>;
  /** Counts a write in steps as in progress, so the in-process worker gives way until it ends. */
  writes?: WritesInProgress;
}

/** How a route should store a job on this context's database. */
export const storeOptions = (ctx: { bulk: BulkWrites; writes: WritesInProgress }, log?: Pick<Logger, 'warn'>): StoreOptions => ({
  bulk: ctx.bulk,
  writes: ctx.writes,
  log,
});

/**
 * Writes a job from its cleaned list (an upload's or a pasted one): the job, its counters,
 * rejections and `step` (e.g. its audit event) first, then its queued lookups, as the database
 * runs big writes (db/bulk-writes.ts). In one transaction that is all or nothing. In committed
 * steps (the embedded database, where one 150k-row transaction held every request for ~25 s) a
 * step that fails deletes the job with whatever was written, and the worker may start on the first
 * rows meanwhile: each job's counters already hold its full total, so it never looks finished early.
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
  const bulk = opts.bulk ?? oneTransaction;
  const writes = opts.writes ?? new WritesInProgress();
  const created = await bulk.run(
    db,
    async (w) => {
      const job = await w.part(
        async (tx) => {
          const written = await writeJob(tx, owner, config, filename, parsed, sources);
          await step?.(tx, { job: written, parsed });
          return written;
        },
        (written) => db.delete(jobs).where(eq(jobs.id, written.id)),
      );
      // The planner learns the tables' growth as they grow, not only at the end: the worker's claims
      // made meanwhile were planned on a table believed empty (measured: ~370 ms a claim, each one
      // holding the session a health check waits for). Checked at doubling sizes, so a few ANALYZEs.
      let [sinceAnalyze, nextCheck] = [0, 10 * w.stepRows];
      for (let i = 0; i < parsed.isbns.length; i += w.stepRows) {
        const slice = parsed.isbns.slice(i, i + w.stepRows);
        for (const m of sources) await w.step((tx) => insertLookups(tx, job.id, filename, [m], slice, sources[0]));
        sinceAnalyze += slice.length;
        if (i + slice.length >= nextCheck) {
          await bulk.analyzeIfGrown(db, tablesOf(sources), sinceAnalyze, opts.log);
          [sinceAnalyze, nextCheck] = [0, nextCheck * 2];
        }
      }
      return job;
    },
    { whileStepping: (stepped) => writes.during(stepped) },
  );
  // A big list can grow the tables many times over: the worker's first claims must not be planned
  // as if they were still small.
  await bulk.analyzeIfGrown(db, tablesOf(sources), parsed.isbns.length, opts.log);
  return created;
}

/** The tables a job's lookups grow: each marketplace's and the stored comparison's. */
const tablesOf = (sources: readonly MarketplaceInfo[]) => [...sources.map((m) => m.table), getTableName(comparisonRows)];

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
      m.id === base?.id
        ? sql`WITH inserted AS (${insert} RETURNING id, isbn) ${insertEmptyComparisonRows(jobId, sql`inserted`, { fresh: true })}`
        : insert,
    );
  }
}

/** A job just written and the list it was written from, as storeJob's step sees them. */
export interface StoredJob {
  job: JobRow;
  parsed: ParsedUpload;
}
