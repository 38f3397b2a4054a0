// Jobs in the database: visibility (own jobs; superusers all), filters and sorting from the job
// field table, and the rejected cells of an upload. Writing a job from an upload is jobs/ingest.ts.
import { and, asc, eq, ne, sql, type SQL } from 'drizzle-orm';
import { JOB_FIELDS } from '@app/domain/jobs';
import { BOOK_PAGE_FILENAME } from '@app/domain/book';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Filter } from '@app/domain/fields';
import type { Db } from '../db/client.ts';
import { jobRejections, jobs } from '../db/schema.ts';
import { filtersToSql, sortToSql } from '../lib/filter-sql.ts';
import { notFound } from '../lib/http-errors.ts';
import { countUpTo } from '../db/bounded-count.ts';
import type { UserRow } from '../users/schemas.ts';
import { countProgress, type Counts } from './progress.ts';
import type { Page } from '../db/page.ts';
import { ownedBy } from '../db/owned-by.ts';
import { scheduleOf } from './schedule.ts';

export type JobRow = typeof jobs.$inferSelect;

export function toJobPublic(job: JobRow, counts: Counts | undefined) {
  const sources = Object.fromEntries(
    MARKETPLACE_LIST.map((m) => [
      m.id,
      { enabled: job[m.id], total_isbns: counts?.[m.id].total ?? 0, processed_isbns: counts?.[m.id].processed ?? 0 },
    ]),
  ) as Record<(typeof MARKETPLACE_LIST)[number]['id'], { enabled: boolean; total_isbns: number; processed_isbns: number }>;
  const report = job.ingest_report && 'rows_read' in job.ingest_report ? (job.ingest_report as never) : null;
  return {
    id: job.id,
    name: job.name,
    input_filename: job.input_filename,
    owner_id: job.owner_id,
    created_at: job.created_at,
    updated_at: job.updated_at,
    cancelled_at: job.cancelled_at,
    repriced_at: job.repriced_at,
    cost_per_book: job.cost_per_book,
    pallet_cost: job.pallet_cost,
    ...sources,
    report,
    schedule: scheduleOf(job),
  };
}

/** The condition restricting jobs to those the user may see (none for superusers). */
export const visibleJobs = (user: UserRow): SQL | undefined => ownedBy(jobs.owner_id, user);

export async function listJobs(
  db: Db,
  user: UserRow,
  q: Page & { filters: Filter[]; sort_by?: string; sort_direction?: 'asc' | 'desc'; hideBookLookups?: boolean },
) {
  // A book page's one-book jobs would bury the uploaded lists; they are still reachable from the book's page.
  const lists = q.hideBookLookups ? ne(jobs.input_filename, BOOK_PAGE_FILENAME) : undefined;
  const where = and(filtersToSql(JOB_FIELDS, q.filters), visibleJobs(user), lists);
  const [page, total] = await Promise.all([
    db
      .select()
      .from(jobs)
      .where(where)
      .orderBy(sortToSql(JOB_FIELDS, q.sort_by, q.sort_direction))
      .offset(q.skip)
      .limit(q.limit),
    countUpTo(db, sql`FROM ${jobs}${where ? sql` WHERE ${where}` : sql``}`),
  ]);
  const counts = await countProgress(
    db,
    page.map((j) => j.id),
  );
  return { data: page.map((j) => toJobPublic(j, counts.get(j.id))), ...total };
}

export async function findVisibleJob(db: Db, user: UserRow, id: number): Promise<JobRow> {
  const [job] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), visibleJobs(user)));
  // Someone else's job is "not found": it does not reveal that the job exists.
  if (!job) throw notFound('Job');
  return job;
}

export async function readJob(db: Db, user: UserRow, id: number) {
  const job = await findVisibleJob(db, user, id);
  const counts = await countProgress(db, [job.id]);
  return toJobPublic(job, counts.get(job.id));
}

/** The cells of a job's upload that could not be used, in sheet order. */
export function listRejections(db: Db, jobId: number) {
  return db
    .select({
      sheet: jobRejections.sheet,
      row_number: jobRejections.row_number,
      raw_value: jobRejections.raw_value,
      reason: jobRejections.reason,
    })
    .from(jobRejections)
    .where(eq(jobRejections.job_id, jobId))
    .orderBy(asc(jobRejections.row_number), asc(jobRejections.id));
}
