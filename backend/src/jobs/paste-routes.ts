// Create a job from ISBNs pasted or scanned into the Create Job dialog: same clean-up, report and
// downloadable rejections as an uploaded file (the list is the body's `isbns`, as typed).
import { PASTED_LIST_FILENAME } from '@app/domain/isbn-list';
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { createJobFor } from './create.ts';
import { readPastedIsbns } from './pasted-list.ts';
import { JobConfig, JobCreated } from './schemas.ts';

/**
 * Room per code in the body: a hyphenated ISBN-13 with a price add-on and a line break is 25
 * characters, so UPLOAD_MAX_ISBNS codes always fit; past that the list is refused with 413.
 */
const BODY_BYTES_PER_ISBN = 32;
/** The name and the marketplace flags. */
const BODY_BYTES_BESIDES_LIST = 4096;

// The upload's config (same fields, rules and messages) plus the list.
export const JobFromIsbns = JobConfig.safeExtend({
  isbns: z.string().describe('The ISBNs as pasted or scanned: one per line, or separated by tabs, commas or semicolons'),
}).meta({ id: 'JobFromIsbns' });

export function pasteJobRoutes(app: App, ctx: AppContext): void {
  const limits = {
    maxRows: ctx.config.UPLOAD_MAX_ROWS,
    maxIsbns: ctx.config.UPLOAD_MAX_ISBNS,
    maxRejectionsKept: ctx.config.UPLOAD_MAX_REJECTIONS_KEPT,
  };

  app.post('/jobs/from-isbns', {
    bodyLimit: ctx.config.UPLOAD_MAX_ISBNS * BODY_BYTES_PER_ISBN + BODY_BYTES_BESIDES_LIST,
    schema: {
      operationId: 'createJobFromIsbns',
      tags: ['jobs'],
      summary: 'Create a job from a pasted or scanned list of ISBNs',
      body: JobFromIsbns,
      response: { 200: JobCreated, 413: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const { isbns, ...config } = req.body;
      const parsed = await readPastedIsbns(isbns, limits);
      return createJobFor(ctx, req, config, { filename: PASTED_LIST_FILENAME, parsed });
    },
  });
}
