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

/** What a job's cost is stored as: the cost per book, and the pallet's total when it came from one. */
export interface JobCost {
  costPerBook: number | null;
  palletCost: number | null;
}

/** The cost a request asks for: exactly one of the two, null to clear (a typed cost per book forgets the pallet). */
export async function jobCostOf(
  db: Db,
  job: JobRow,
  body: { cost_per_book?: number | null; pallet_cost?: number | null },
): Promise<JobCost> {
  const typed = body.cost_per_book !== undefined;
  const pallet = body.pallet_cost !== undefined;
  if (typed && pallet) throw validationError(['body', 'pallet_cost'], 'Give either a cost per book or a pallet cost, not both');
  if (!typed && !pallet) throw validationError(['body', 'cost_per_book'], 'Give a cost per book or a pallet cost (null clears it)');
  if (typed) return { costPerBook: body.cost_per_book ?? null, palletCost: null };
  if (body.pallet_cost == null) return { costPerBook: null, palletCost: null };
  const perBook = costFromPallet(body.pallet_cost, await jobBooks(db, job.id));
  if (perBook === null) throw validationError(['body', 'pallet_cost'], 'This job has no books to spread a pallet cost over');
  return { costPerBook: perBook, palletCost: body.pallet_cost };
}

/** A job's cost per book changed: before and after (for the audit trail). */
export interface JobCostChange {
  job: JobRow;
  before: number | null;
  after: number | null;
}

/** Stores the cost; the pallet's total stays beside it, so the job page shows the division back after a reload. */
export async function setJobCost(db: Db, job: JobRow, cost: JobCost, step?: TxStep<JobCostChange>) {
  await db.transaction(async (tx) => {
    await tx
      .update(jobs)
      .set({ cost_per_book: cost.costPerBook, pallet_cost: cost.palletCost, updated_at: new Date() })
      .where(eq(jobs.id, job.id));
    await step?.(tx, { job, before: job.cost_per_book, after: cost.costPerBook });
  });
}
