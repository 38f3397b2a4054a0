// Reading jobs: visibility (own jobs; superusers all), filters and sorting from the job field table.
import { JOB_FIELDS } from '@app/domain/jobs';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { Sql } from '../db/client.ts';
import { filtersToSql, sortToSql, type FilterInput } from '../lib/filter-sql.ts';
import { HttpError } from '../lib/http-errors.ts';
import { countUpTo } from '../lib/bounded-count.ts';
import type { UserRow } from '../users/schemas.ts';
import { countProgress, type Counts } from './progress.ts';

export interface JobRow {
  id: number;
  name: string;
  input_filename: string;
  owner_id: string;
  abe_books: boolean;
  biblio: boolean;
  alibris: boolean;
  pallet_iq: boolean;
  ingest_report: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

export function toJobPublic(job: JobRow, counts: Counts | undefined) {
  const sources = Object.fromEntries(
    MARKETPLACE_LIST.map((m) => [
      m.id,
      { enabled: job[m.id], total_isbns: counts?.[m.id].total ?? 0, processed_isbns: counts?.[m.id].processed ?? 0 },
    ]),
  ) as Record<(typeof MARKETPLACE_LIST)[number]['id'], { enabled: boolean; total_isbns: number; processed_isbns: number }>;
  // jsonb written by ingest.ts from the IngestReport shape (older jobs hold {}, hence the check).
  const report = job.ingest_report && 'rows_read' in job.ingest_report ? (job.ingest_report as never) : null;
  return { id: job.id, name: job.name, input_filename: job.input_filename, owner_id: job.owner_id, created_at: job.created_at, updated_at: job.updated_at, ...sources, report };
}

/** SQL condition restricting to jobs the user may see ('' for superusers). */
export function jobVisibility(user: UserRow, params: unknown[], column = 'owner_id'): string {
  if (user.is_superuser) return '';
  params.push(user.id);
  return `${column} = $${params.length}`;
}

export async function listJobs(db: Sql, user: UserRow, q: { filters: FilterInput; skip: number; limit: number; sort_by?: string; sort_direction?: 'asc' | 'desc' }) {
  const params: unknown[] = [];
  const { where } = filtersToSql(JOB_FIELDS, q.filters, params);
  const conditions = [where, jobVisibility(user, params)].filter(Boolean);
  const whereSql = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  const orderBy = sortToSql(JOB_FIELDS, q.sort_by, q.sort_direction);
  const [page, total] = await Promise.all([
    db.query<JobRow>(`SELECT * FROM jobs ${whereSql} ORDER BY ${orderBy} OFFSET $${params.length + 1} LIMIT $${params.length + 2}`, [...params, q.skip, q.limit]),
    countUpTo(db, `FROM jobs ${whereSql}`, params),
  ]);
  const counts = await countProgress(db, page.rows.map((j) => j.id));
  return { data: page.rows.map((j) => toJobPublic(j, counts.get(j.id))), ...total };
}

export async function findVisibleJob(db: Sql, user: UserRow, id: number): Promise<JobRow> {
  const params: unknown[] = [id];
  const visible = jobVisibility(user, params);
  const { rows } = await db.query<JobRow>(`SELECT * FROM jobs WHERE id = $1${visible ? ` AND ${visible}` : ''}`, params);
  // Someone else's job is "not found": it does not reveal that the job exists.
  if (!rows[0]) throw new HttpError(404, 'Job not found');
  return rows[0];
}

export async function readJob(db: Sql, user: UserRow, id: number) {
  const job = await findVisibleJob(db, user, id);
  const counts = await countProgress(db, [job.id]);
  return toJobPublic(job, counts.get(job.id));
}
