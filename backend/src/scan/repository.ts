// Scan sessions and their scans: a session is a job (Input Filename SCAN_SESSION_FILENAME) its
// scans add ISBNs to; each scan is a row of `scans`, so copies, marks and undo live beside the job.
import { MARKETPLACE_LIST, byMarketplace } from '@app/domain/marketplaces';
import { must } from '@app/domain/must';
import { SCAN_SESSION_FILENAME, scanSessionName, type ScanMark } from '@app/domain/scan';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { jobProgress, jobs, scans, users } from '../db/schema.ts';
import type { TxStep } from '../db/tx-step.ts';
import { feeSchedulesInForce } from '../fees/repository.ts';
import { notFound } from '../lib/http-errors.ts';
import { findVisibleJob, type JobRow } from '../jobs/repository.ts';
import { readRuleSetVersion, type RuleSetVersion } from '../rules/repository.ts';
import type { UserRow } from '../users/schemas.ts';
import { addIsbnToJob, jobHasIsbn, removeIsbnFromJob } from './intake.ts';
import { keepDecision, keepStoredRow, readVerdicts, type Verdict } from './verdict.ts';

/** Scans a session's page lists (newest first); its counts and totals cover all of them. */
export const SCANS_SHOWN = 200;

export type ScanRow = typeof scans.$inferSelect;

export interface Settings {
  reuseWindowMs: number;
  duplicateDays: number;
}

/** A job that is a scan session the user may see; else 404 (someone else's session does not exist for them). */
export async function findSession(db: Db | Tx, user: UserRow, id: number): Promise<JobRow> {
  const job = await findVisibleJob(db as Db, user, id);
  if (job.input_filename !== SCAN_SESSION_FILENAME) throw notFound('Scan session');
  return job;
}

/** A new session asking every marketplace, judged with `version` (the team default's or the user's pick). */
export async function createSession(
  db: Db,
  owner: UserRow,
  place: string | null | undefined,
  version: RuleSetVersion | undefined,
  step?: TxStep<JobRow>,
): Promise<JobRow> {
  return db.transaction(async (tx) => {
    const [job] = await tx
      .insert(jobs)
      .values({
        name: scanSessionName(new Date(), place),
        input_filename: SCAN_SESSION_FILENAME,
        owner_id: owner.id,
        ...byMarketplace(() => true),
        rule_set_version_id: version?.id ?? null,
        // Judged from the start: each scan keeps its row's decision as it is judged (verdict.ts).
        judged_at: version ? sql`date_trunc('milliseconds', clock_timestamp())` : null,
        comparison_stored: true,
      })
      .returning();
    const created = must(job, 'INSERT … RETURNING gives the new job');
    await tx.insert(jobProgress).values(MARKETPLACE_LIST.map((m) => ({ job_id: created.id, source: m.id, total: 0 })));
    await step?.(tx, created);
    return created;
  });
}

/** The user's sessions (a superuser's too: theirs), newest first. */
export async function listSessions(db: Db, user: UserRow, limit: number) {
  const mine = and(eq(jobs.owner_id, user.id), eq(jobs.input_filename, SCAN_SESSION_FILENAME));
  const rows = await db
    .select({ job: jobs, scans: sql<number>`(SELECT count(*)::int FROM ${scans} s WHERE s.job_id = ${jobs.id})` })
    .from(jobs)
    .where(mine)
    .orderBy(desc(jobs.created_at), desc(jobs.id))
    .limit(limit);
  const [total] = await db.select({ n: count() }).from(jobs).where(mine);
  const data = await Promise.all(rows.map((r) => sessionPublic(db, r.job, r.scans)));
  return { data, count: total?.n ?? 0, count_exact: true };
}

export async function sessionPublic(db: Db | Tx, job: JobRow, scanCount?: number) {
  const version = job.rule_set_version_id ? await readRuleSetVersion(db, job.rule_set_version_id) : undefined;
  const n = scanCount ?? (await db.select({ n: count() }).from(scans).where(eq(scans.job_id, job.id)))[0]?.n ?? 0;
  return {
    id: job.id,
    name: job.name,
    created_at: job.created_at,
    rule_set: version ? { id: version.rule_set_id, name: version.name, version: version.version } : null,
    scans: n,
  };
}

/** What a scan shows: the row, its copies in the session, a purchase elsewhere, and its verdict. */
export interface ScanView {
  scan: ScanRow;
  copies: number;
  bought_elsewhere: { at: Date; by: string; session: string } | null;
  verdict: Verdict | undefined;
}

/**
 * Adds a scan (once per client id: a scan sent again answers the first one). A new ISBN joins the
 * job's lookups, filled from recent answers where the team has them; its verdict is judged at once.
 */
export async function addScan(db: Db, user: UserRow, job: JobRow, isbn: string, clientId: string | null | undefined, s: Settings) {
  const version = job.rule_set_version_id ? await readRuleSetVersion(db, job.rule_set_version_id) : undefined;
  const fees = await feeSchedulesInForce(db);
  const { scan, created, queued, verdict } = await db.transaction(async (tx) => {
    if (clientId) {
      const [again] = await tx
        .select()
        .from(scans)
        .where(and(eq(scans.job_id, job.id), eq(scans.client_id, clientId)));
      if (again) return { scan: again, created: false, queued: 0, verdict: undefined };
    }
    // One scan of a session at a time: two scans of a new ISBN at once must not both add its lookups.
    await tx.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, job.id)).for('update');
    const added = (await jobHasIsbn(tx, job, isbn))
      ? { queued: 0, new: false }
      : { ...(await addIsbnToJob(tx, job, isbn, s.reuseWindowMs)), new: true };
    const [row] = await tx
      .insert(scans)
      .values({ job_id: job.id, isbn, user_id: user.id, ...(clientId ? { client_id: clientId } : {}) })
      .returning();
    const verdict = (await readVerdicts(tx, job, [isbn], fees, version)).get(isbn);
    if (verdict) {
      if (added.new) await keepStoredRow(tx, job, verdict);
      await keepDecision(tx, job, verdict);
    }
    return { scan: must(row, 'INSERT … RETURNING gives the scan'), created: true, queued: added.queued, verdict };
  });
  const [view] = await scanViews(db, job, [scan], s, fees, version, verdict && new Map([[isbn, verdict]]));
  return { view: must(view, 'the scan just written'), created, queued };
}

/** The views of these scans of one session (copies, purchases elsewhere, verdicts), in the order given. */
export async function scanViews(
  db: Db | Tx,
  job: JobRow,
  rows: readonly ScanRow[],
  s: Settings,
  fees?: Awaited<ReturnType<typeof feeSchedulesInForce>>,
  version?: RuleSetVersion,
  /** Verdicts already judged (a scan's, in its own transaction): not judged again. */
  known?: Map<string, Verdict>,
): Promise<ScanView[]> {
  if (rows.length === 0) return [];
  const isbns = [...new Set(rows.map((r) => r.isbn))];
  const verdicts = known && isbns.every((i) => known.has(i)) ? known : await judgeAll(db, job, isbns, fees, version);
  const { rows: copies } = await db.execute<{ isbn: string; n: number }>(
    sql`SELECT isbn, count(*)::int AS n FROM ${scans} WHERE job_id = ${job.id} AND isbn = ANY(${sql.param(isbns)}::text[]) GROUP BY isbn`,
  );
  const copiesOf = new Map(copies.map((c) => [c.isbn, Number(c.n)]));
  const elsewhere = await boughtElsewhere(db, job.id, isbns, s.duplicateDays);
  return rows.map((scan) => ({
    scan,
    copies: copiesOf.get(scan.isbn) ?? 1,
    bought_elsewhere: elsewhere.get(scan.isbn) ?? null,
    verdict: verdicts.get(scan.isbn),
  }));
}

async function judgeAll(
  db: Db | Tx,
  job: JobRow,
  isbns: string[],
  fees?: Awaited<ReturnType<typeof feeSchedulesInForce>>,
  version?: RuleSetVersion,
) {
  const theVersion = version ?? (job.rule_set_version_id ? await readRuleSetVersion(db, job.rule_set_version_id) : undefined);
  return readVerdicts(db, job, isbns, fees ?? (await feeSchedulesInForce(db as Db)), theVersion);
}

/** Per ISBN, the latest time the team marked it bought in another session within `days` days. */
async function boughtElsewhere(db: Db | Tx, jobId: number, isbns: string[], days: number) {
  const out = new Map<string, { at: Date; by: string; session: string }>();
  if (days <= 0) return out;
  // Raw SQL on purpose: DISTINCT ON picks each ISBN's latest purchase from the partial index in one statement.
  const { rows } = await db.execute<{ isbn: string; at: string | Date; by: string; session: string }>(sql`
    SELECT DISTINCT ON (s.isbn) s.isbn, s.marked_at AS at, coalesce(nullif(u.full_name, ''), u.email) AS by, j.name AS session
    FROM ${scans} s JOIN ${users} u ON u.id = s.user_id JOIN ${jobs} j ON j.id = s.job_id
    WHERE s.isbn = ANY(${sql.param(isbns)}::text[]) AND s.mark = 'bought' AND s.job_id <> ${jobId}
      AND s.marked_at > now() - ${days} * interval '1 day'
    ORDER BY s.isbn, s.marked_at DESC`);
  for (const r of rows) out.set(r.isbn, { at: new Date(r.at), by: r.by, session: r.session });
  return out;
}

export async function findScan(db: Db | Tx, jobId: number, scanId: number): Promise<ScanRow> {
  const [row] = await db
    .select()
    .from(scans)
    .where(and(eq(scans.job_id, jobId), eq(scans.id, scanId)));
  if (!row) throw notFound('Scan');
  return row;
}

export async function markScan(db: Db, jobId: number, scanId: number, mark: ScanMark | null): Promise<ScanRow> {
  const [row] = await db
    .update(scans)
    .set({ mark, marked_at: mark ? new Date() : null })
    .where(and(eq(scans.job_id, jobId), eq(scans.id, scanId)))
    .returning();
  if (!row) throw notFound('Scan');
  return row;
}

/** Removes a scan (undo is removing the newest); the ISBN leaves the job with its last scan. */
export async function removeScan(db: Db, job: JobRow, scanId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.select({ id: jobs.id }).from(jobs).where(eq(jobs.id, job.id)).for('update');
    const [gone] = await tx
      .delete(scans)
      .where(and(eq(scans.job_id, job.id), eq(scans.id, scanId)))
      .returning();
    if (!gone) throw notFound('Scan');
    const [left] = await tx
      .select({ n: count() })
      .from(scans)
      .where(and(eq(scans.job_id, job.id), eq(scans.isbn, gone.isbn)));
    if (!left?.n) await removeIsbnFromJob(tx, job, gone.isbn);
  });
}

/**
 * A session's page: its latest scans (newest first), a count per outcome over every scan (copies
 * included, in rule order) and the totals of what was marked bought (cost: the session's cost per
 * book each; estimated profit: each bought scan's). One verdict query over the session's ISBNs.
 */
export async function sessionDetail(db: Db, job: JobRow, s: Settings) {
  const all = await db.select().from(scans).where(eq(scans.job_id, job.id)).orderBy(desc(scans.scanned_at), desc(scans.id));
  const views = await scanViews(db, job, all, s);
  const counts = new Map<string, { name: string; color: string; scans: number; order: number }>();
  let bought = 0;
  let profit: number | null = null;
  for (const v of views) {
    const o = v.verdict?.outcome;
    if (o) {
      const c = counts.get(o.name) ?? { name: o.name, color: o.color, scans: 0, order: o.rule_index ?? Number.MAX_SAFE_INTEGER };
      c.scans++;
      counts.set(o.name, c);
    }
    if (v.scan.mark === 'bought') {
      bought++;
      const p = v.verdict?.figures.estimated_profit;
      // In cents, so a sum of many never drifts from the figures shown.
      if (p !== null && p !== undefined) profit = ((profit ?? 0) * 100 + Math.round(p * 100)) / 100;
    }
  }
  const cost = job.cost_per_book === null ? null : Math.round(bought * job.cost_per_book * 100) / 100;
  return {
    session: await sessionPublic(db, job, all.length),
    views: views.slice(0, SCANS_SHOWN),
    outcomes: [...counts.values()].sort((a, b) => a.order - b.order).map(({ order: _order, ...c }) => c),
    bought: { scans: bought, cost, estimated_profit: profit },
  };
}
