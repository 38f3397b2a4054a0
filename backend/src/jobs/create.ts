// Creating a job for a request, one way for every list: an uploaded file's, a pasted or scanned one,
// and a book page's "Price it now" (one ISBN). The job is stored with its audit event in the same
// transaction (ingest.ts), live pages are told, and the answer is JobCreated.
import { MARKETPLACE_LIST, byMarketplace } from '@app/domain/marketplaces';
import type { FastifyRequest } from 'fastify';
import { auditStep, requestActor } from '../audit/record.ts';
import type { AppContext } from '../core/context.ts';
import { allSteps, type TxStep } from '../db/tx-step.ts';
import type { ParsedUpload } from '../uploads/index.ts';
import { currentUser } from '../users/current-user.ts';
import { storeJob, storeOptions, type StoredJob } from './ingest.ts';
import type { Counts } from './progress.ts';
import { toJobPublic, type JobRow } from './repository.ts';
import type { JobConfigInput } from './schemas.ts';

export const REJECTIONS_IN_RESPONSE = 100;

/** A cleaned list and the file name its job is stored under. */
export interface JobList {
  filename: string;
  parsed: ParsedUpload;
}

/**
 * Stores the request user's job for `list` (with `extra`, e.g. "ask again", in the same transaction
 * after the audit event), tells live pages, and answers JobCreated.
 */
export async function createJobFor(ctx: AppContext, req: FastifyRequest, config: JobConfigInput, list: JobList, extra?: TxStep<StoredJob>) {
  const audit = auditJobCreated(req);
  const steps = extra ? allSteps(audit, extra) : audit;
  const job = await storeJob(ctx.db, currentUser(req), config, list.filename, list.parsed, steps, storeOptions(ctx, req.log));
  ctx.jobEvents.touched(job.id);
  return jobCreated(job, list.parsed);
}

/** The step recording a new job (uploaded, pasted or priced from a book's page) in its transaction. */
const auditJobCreated = (req: FastifyRequest): TxStep<StoredJob> =>
  auditStep(requestActor(req), ({ job, parsed }) => ({
    action: 'job.created',
    target: { type: 'job', id: job.id, label: job.name },
    details: {
      input_filename: job.input_filename,
      isbns: parsed.isbns.length,
      marketplaces: MARKETPLACE_LIST.filter((m) => job[m.id]).map((m) => m.slug),
    },
  }));

/** The answer to a job's creation (JobCreated): the job as just written, none of it processed, and its first rejections. */
function jobCreated(job: JobRow, parsed: ParsedUpload) {
  // Just written: each enabled source has one queued lookup per accepted ISBN, none processed.
  const counts: Counts = byMarketplace((m) => ({ total: job[m.id] ? parsed.isbns.length : 0, processed: 0 }));
  return {
    ...toJobPublic(job, counts),
    rejections: parsed.rejections.slice(0, REJECTIONS_IN_RESPONSE),
    rejections_truncated: parsed.rejections.length > REJECTIONS_IN_RESPONSE,
  };
}
