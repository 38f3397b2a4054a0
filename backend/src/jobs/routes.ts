// Jobs API: upload a spreadsheet as a job, list and read jobs, a job's run per marketplace (summary),
// download the rejected cells.
import { stringify } from 'csv-stringify';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Filter } from '@app/domain/fields';
import { byMarketplace, marketplaceOfSlug } from '@app/domain/marketplaces';
import type { App, AppContext } from '../core/context.ts';
import { currentUser } from '../users/current-user.ts';
import { MAX_JSON_DEPTH, jsonDepthExceeds } from '../lib/json-depth.ts';
import { issuesToHttpError, tooManyRequests, validationError } from '../lib/http-errors.ts';
import { Gate, GateFullError } from '../lib/gate.ts';
import { PerKeyLimit } from '../lib/per-key-limit.ts';
import { uploadsParsing } from '../metrics/instruments.ts';
import { unstorableTextIssues } from '../lib/text-guard.ts';
import { FiltersBody, SortQuery } from '../lib/filter-sql.ts';
import { safeCsvCell } from '../lib/csv.ts';
import { MarketParam } from '../marketplaces/market-param.ts';
import { HttpErrorBody, csvFileResponse } from '../lib/api-schemas.ts';
import { sendCsvFile } from '../lib/csv-download.ts';
import { jobSummary } from './summary.ts';
import { JobSummary } from './summary-schemas.ts';
import { readUploadForm, type UploadedForm } from './multipart.ts';
import { uploadLimits } from '../uploads/index.ts';
import { createJobFor } from './create.ts';
import { readUploadedFile } from './ingest.ts';
import { findVisibleJob, listJobs, listRejections, readJob } from './repository.ts';
import {
  JobConfig,
  JobCreated,
  JobPublic,
  JobsPublic,
  jobUploadBody,
  marketUploadBody,
  multipartSchema,
  type JobConfigInput,
} from './schemas.ts';

// Job ids are PostgreSQL integers: anything larger is no job (422, not a database error).
export const JobIdParam = z.object({
  id: z.coerce.number().int('Invalid job id').positive('Invalid job id').max(2_147_483_647, 'Invalid job id'),
});

/** The jobs list's body: the filters, and whether one-book lookups (a book page's "Price it now") are left out. */
const JobsListBody = FiltersBody.extend({
  hide_book_lookups: z
    .boolean()
    .optional()
    .meta({ description: 'Leave out the one-book jobs a book page creates (the jobs pages do by default)' }),
}).meta({ id: 'JobsListBody' });
const tags = ['jobs'];
const uploadResponses = { 200: JobCreated, 413: HttpErrorBody, 422: HttpErrorBody, 429: HttpErrorBody };

function parseConfig(raw: string | undefined): JobConfigInput {
  let json: unknown;
  if (raw !== undefined && jsonDepthExceeds(raw))
    throw validationError(['body', 'config'], `config is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`, 'json_invalid');
  try {
    json = JSON.parse(raw ?? '');
  } catch {
    throw validationError(['body', 'config'], 'config must be a JSON object with name and source flags', 'json_invalid');
  }
  const unstorable = unstorableTextIssues('body', { config: json });
  if (unstorable.length) throw validationError(unstorable);
  const result = JobConfig.safeParse(json);
  if (!result.success) throw issuesToHttpError(['body', 'config'], result.error.issues);
  return result.data;
}

export function jobRoutes(app: App, ctx: AppContext): void {
  const limits = uploadLimits(ctx.config);

  // Each upload in flight holds its file and a parser thread (up to UPLOAD_PARSE_MAX_MEMORY_MB):
  // a few at a time, the rest wait briefly in line, then are asked to come back.
  const uploads = new Gate(ctx.config.UPLOAD_MAX_CONCURRENT_PARSES, ctx.config.UPLOAD_PARSE_QUEUE_WAIT_MS);
  // The body is received BEFORE a parse slot is taken, so a client sending slowly holds no slot
  // (two trickling uploads used to turn every other user's upload away); each user may have only
  // a few uploads in progress, so one client cannot open many.
  const perUser = new PerKeyLimit(ctx.config.UPLOAD_MAX_PER_USER);

  async function upload(req: FastifyRequest, config: (fields: Record<string, string>) => JobConfigInput) {
    const userId = currentUser(req).id;
    if (!perUser.tryEnter(userId)) {
      const n = ctx.config.UPLOAD_MAX_PER_USER;
      throw tooManyRequests(
        `You already have ${n === 1 ? 'an upload' : `${n} uploads`} in progress. Please try again when ${n === 1 ? 'it has' : 'one has'} finished.`,
        5,
      );
    }
    uploadsParsing.inc();
    try {
      const form = await readUploadForm(req, ctx.config.UPLOAD_MAX_BYTES);
      return await uploads.run(() => createFromForm(req, form, config));
    } catch (err) {
      if (err instanceof GateFullError) throw tooManyRequests('Other uploads are being read right now. Please try again in a moment.', 5);
      throw err;
    } finally {
      uploadsParsing.dec();
      perUser.leave(userId);
    }
  }

  async function createFromForm(req: FastifyRequest, form: UploadedForm, config: (fields: Record<string, string>) => JobConfigInput) {
    const jobConfig = config(form.fields);
    return createJobFor(ctx, req, jobConfig, await readUploadedFile(form.file, limits));
  }

  app.post('/jobs/upload-file', {
    config: { fairShare: false },
    schema: { operationId: 'uploadJobFile', tags, ...multipartSchema(jobUploadBody), response: uploadResponses },
    handler: async (req) => upload(req, (fields) => parseConfig(fields.config)),
  });

  app.post('/:market/upload-file', {
    config: { fairShare: false },
    schema: {
      operationId: 'uploadMarketFile',
      tags: ['marketplaces'],
      summary: 'Upload a spreadsheet as a job for this marketplace only',

      params: MarketParam,
      ...multipartSchema(marketUploadBody),
      response: uploadResponses,
    },
    handler: async (req) => {
      const market = marketplaceOfSlug(req.params.market);
      return upload(req, (fields) => {
        const flags = byMarketplace((m) => m.id === market.id);
        return parseConfig(JSON.stringify({ name: fields.name?.trim() || new Date().toISOString(), ...flags }));
      });
    },
  });

  app.post('/jobs/jobs', {
    schema: {
      operationId: 'listJobs',
      tags,

      querystring: SortQuery,
      body: JobsListBody,
      response: { 200: JobsPublic, 422: HttpErrorBody },
    },
    // Operators are plain strings until filtersToSql checks them against the field table (422 naming it).
    handler: async (req) =>
      listJobs(ctx.db, currentUser(req), {
        ...req.query,
        filters: req.body.filters as Filter[],
        hideBookLookups: req.body.hide_book_lookups ?? false,
      }),
  });

  app.get('/jobs/:id', {
    schema: { operationId: 'readJob', tags, params: JobIdParam, response: { 200: JobPublic, 404: HttpErrorBody } },
    handler: async (req) => readJob(ctx.db, currentUser(req), req.params.id),
  });

  app.get('/jobs/:id/summary', {
    schema: {
      operationId: 'readJobSummary',
      tags,
      summary: "The job's run per marketplace: statuses, progress, timing, throughput, retries and errors",
      params: JobIdParam,
      response: { 200: JobSummary, 404: HttpErrorBody },
    },
    handler: async (req) => jobSummary(ctx.db, await findVisibleJob(ctx.db, currentUser(req), req.params.id)),
  });

  app.get('/jobs/:id/rejections', {
    schema: {
      operationId: 'downloadJobRejections',
      tags,
      summary: 'The cells of the upload that could not be used, as CSV',

      params: JobIdParam,
      response: { 200: csvFileResponse('CSV file'), 404: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const job = await findVisibleJob(ctx.db, currentUser(req), req.params.id);
      const rows = await listRejections(ctx.db, job.id);
      const csv = stringify({ header: true, columns: ['sheet', 'row_number', 'raw_value', 'reason'], cast: { string: safeCsvCell } });
      for (const r of rows) csv.write(r);
      csv.end();
      return sendCsvFile(reply, `job_${job.id}_rejected_cells.csv`, csv);
    },
  });
}
