// Shapes of the jobs API.
import { z } from 'zod';
import { MARKETPLACE_IDS, byMarketplace } from '@app/domain/marketplaces';
import { CountFields } from '../lib/api-schemas.ts';

export const SourceProgress = z
  .object({ enabled: z.boolean(), total_isbns: z.number().int(), processed_isbns: z.number().int() })
  .meta({ id: 'SourceProgress' });

/**
 * One progress object per marketplace, under its id (abe_books, biblio, …; docs/requirements.md, The API
 * the screens call).
 */
const sourceProgressFields = byMarketplace(() => SourceProgress);

/** One "ask this marketplace" flag per marketplace, under its id. */
const sourceFlagFields = byMarketplace(() => z.boolean().default(false));

export const IngestReport = z
  .object({
    sheet: z.string(),
    column: z.string(),
    header_row: z.boolean(),
    rows_read: z.number().int(),
    isbns_accepted: z.number().int(),
    duplicates_merged: z.number().int(),
    cells_rejected: z.number().int(),
    /** Rejected values past UPLOAD_MAX_REJECTIONS_KEPT: counted, not listed (absent on older jobs). */
    rejections_not_kept: z.number().int().optional(),
  })
  .meta({ id: 'IngestReport' });

export const Rejection = z
  .object({ sheet: z.string().nullable(), row_number: z.number().int(), raw_value: z.string(), reason: z.string() })
  .meta({ id: 'Rejection' });

/** A job's re-pricing schedule (PUT /jobs/{id}/schedule); docs/features/jobs.md, "Scheduled re-pricing". */
export const JobSchedule = z
  .object({
    every_days: z.number().int().describe('The job is re-priced every this many days'),
    paused: z.boolean().describe('A paused schedule keeps its interval and next run but does not run'),
    next_run_at: z
      .date()
      .describe('When the worker re-prices the job next (while not paused; a run is skipped while the job has lookups left)'),
    set_by: z.string().uuid().nullable().describe('Who last set or changed the schedule (null once that user is deleted)'),
  })
  .meta({ id: 'JobSchedule' });

export const JobPublic = z
  .object({
    id: z.number().int(),
    name: z.string(),
    input_filename: z.string(),
    owner_id: z.string().uuid(),
    created_at: z.date(),
    updated_at: z.date(),
    /** When the job was cancelled; null once retry or re-price runs it again. */
    cancelled_at: z.date().nullable(),
    /** When the job was last re-priced (answers from before are not reused); null if never. */
    repriced_at: z.date().nullable(),
    /** What one book cost the dealer (PUT /jobs/{id}/cost); the comparison's estimated profit subtracts it. */
    cost_per_book: z.number().nullable(),
    /** The pallet's total cost_per_book was divided from (shown back as "Pallet $33.00 ÷ 11 books"); null when typed or unset. */
    pallet_cost: z.number().nullable(),
    ...sourceProgressFields,
    report: IngestReport.nullable(),
    /** The job re-prices itself every N days; null when it has no schedule. */
    schedule: JobSchedule.nullable(),
  })
  .meta({ id: 'JobPublic' });

export const JobsPublic = z.object({ data: z.array(JobPublic), ...CountFields }).meta({ id: 'JobsPublic' });

/** The upload answer: the job plus the first rejected cells (all of them are downloadable as CSV). */
export const JobCreated = JobPublic.extend({
  rejections: z.array(Rejection),
  rejections_truncated: z.boolean(),
}).meta({ id: 'JobCreated' });

export const JobConfig = z
  .object({
    name: z.string().trim().min(1, 'Job Name is required.').max(255),
    ...sourceFlagFields,
  })
  .refine((c) => MARKETPLACE_IDS.some((id) => c[id]), { message: 'Choose at least one marketplace', path: ['sources'] });

export type JobConfigInput = z.infer<typeof JobConfig>;

/** OpenAPI description of the multipart bodies (validated by hand: see uploads/multipart.ts). */
export const jobUploadBody = {
  type: 'object',
  required: ['file', 'config'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'A .csv, .xlsx or .xls spreadsheet of ISBNs' },
    config: { type: 'string', description: `JSON: {"name": string, ${MARKETPLACE_IDS.map((id) => `"${id}": bool`).join(', ')}}` },
  },
};

export const marketUploadBody = {
  type: 'object',
  required: ['file'],
  properties: {
    file: { type: 'string', format: 'binary', description: 'A .csv, .xlsx or .xls spreadsheet of ISBNs' },
    name: { type: 'string', description: 'Job name (default: the current ISO timestamp)' },
  },
};

/** A multipart route's schema keys: the body as documentation only (validated by hand). */
export function multipartSchema(body: Record<string, unknown>) {
  // Spread into a route schema, so the OpenAPI-only 'x-multipart' key needs no cast (see app.ts).
  return { consumes: ['multipart/form-data'], 'x-multipart': body };
}
