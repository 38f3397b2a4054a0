// A job's cost per book, typed or from a pallet's cost. The pallet is spread over the job's books as
// counted by its job_progress rows (each asked marketplace has one lookup per accepted ISBN, so any
// source's total is the number of books; unlike the ingest report it exists for every job).
import { eq } from 'drizzle-orm';
import { costFromPallet } from '@app/domain/fees';
import type { Db } from '../db/client.ts';
import type { TxStep } from '../db/tx-step.ts';
import { jobs } from '../db/schema.ts';
import { validationError } from '../lib/http-errors.ts';
import { countProgress } from '../jobs/progress.ts';
import type { JobRow } from '../jobs/repository.ts';

export async function jobBooks(db: Db, jobId: number): Promise<number> {
  const counts = (await countProgress(db, [jobId])).get(jobId);
  return Math.max(0, ...Object.values(counts ?? {}).map((c) => c.total));
}

/** The cost per book a request asks for: exactly one of the two, null to clear. */
export async function costPerBookOf(db: Db, job: JobRow, body: { cost_per_book?: number | null; pallet_cost?: number | null }) {
  const typed = body.cost_per_book !== undefined;
  const pallet = body.pallet_cost !== undefined;
  if (typed && pallet) throw validationError(['body', 'pallet_cost'], 'Give either a cost per book or a pallet cost, not both');
  if (!typed && !pallet) throw validationError(['body', 'cost_per_book'], 'Give a cost per book or a pallet cost (null clears it)');
  if (typed) return body.cost_per_book ?? null;
  if (body.pallet_cost == null) return null;
  const perBook = costFromPallet(body.pallet_cost, await jobBooks(db, job.id));
  if (perBook === null) throw validationError(['body', 'pallet_cost'], 'This job has no books to spread a pallet cost over');
  return perBook;
}

/** A job's cost per book changed: before and after (for the audit trail). */
export interface JobCostChange {
  job: JobRow;
  before: number | null;
  after: number | null;
}

export async function setJobCost(db: Db, job: JobRow, costPerBook: number | null, step?: TxStep<JobCostChange>) {
  await db.transaction(async (tx) => {
    await tx.update(jobs).set({ cost_per_book: costPerBook, updated_at: new Date() }).where(eq(jobs.id, job.id));
    await step?.(tx, { job, before: job.cost_per_book, after: costPerBook });
  });
}
