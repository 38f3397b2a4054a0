// A job's own page: the comparison of its ISBNs across marketplaces (page and CSV), what it decided
// and the distribution of their prices (its run per marketplace is with the job routes). Owners and superusers only (another's job is 404).
import type { App, AppContext } from '../core/context.ts';
import { currentUser } from '../users/current-user.ts';
import { ExportBody, FiltersBody, SortQuery, asFilters } from '../lib/filter-sql.ts';
import { HttpErrorBody, csvFileResponse } from '../lib/api-schemas.ts';
import { findVisibleJob } from '../jobs/repository.ts';
import { JobIdParam } from '../jobs/routes.ts';
import { fileTimestamp, sendCsvFile } from '../lib/csv-download.ts';
import { comparisonCsv, listComparison } from './repository.ts';
import { priceDistribution } from './distribution.ts';
import { ComparisonPage, JobResults, PriceDistribution } from './schemas.ts';
import { jobResults } from './results.ts';
import { feeSchedulesInForce } from '../fees/repository.ts';

const tags = ['jobs'];

export function comparisonRoutes(app: App, ctx: AppContext): void {
  app.get('/jobs/:id/results', {
    schema: {
      operationId: 'readJobResults',
      tags,
      summary: 'What the job decided: books, cost and estimated profit per decision, and books per best source',
      params: JobIdParam,
      response: { 200: JobResults, 404: HttpErrorBody },
    },
    handler: async (req) => {
      const [job, fees] = await Promise.all([findVisibleJob(ctx.db, currentUser(req), req.params.id), feeSchedulesInForce(ctx.db)]);
      return jobResults(ctx.db, job, fees);
    },
  });

  app.post('/jobs/:id/comparison', {
    schema: {
      operationId: 'jobComparison',
      tags,
      summary: "One row per ISBN of the job: each marketplace's price, the best source and the spread",
      params: JobIdParam,
      querystring: SortQuery,
      body: FiltersBody,
      response: { 200: ComparisonPage, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const [job, fees] = await Promise.all([findVisibleJob(ctx.db, currentUser(req), req.params.id), feeSchedulesInForce(ctx.db)]);
      return listComparison(ctx.db, job, { ...req.query, filters: asFilters(req.body.filters), fees }, req.query);
    },
  });

  app.post('/jobs/:id/comparison/download-csv', {
    config: { fairShare: false },
    schema: {
      operationId: 'downloadJobComparisonCsv',
      tags,
      params: JobIdParam,
      body: ExportBody,
      response: { 200: csvFileResponse('CSV of the filtered comparison'), 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const [job, fees] = await Promise.all([findVisibleJob(ctx.db, currentUser(req), req.params.id), feeSchedulesInForce(ctx.db)]);
      const q = { filters: asFilters(req.body.filters), sort_by: req.body.sort_by, sort_direction: req.body.sort_direction, fees };
      const stream = await ctx.exports.run(currentUser(req).id, req.raw.socket, () => comparisonCsv(ctx.exporter, job, q));
      return sendCsvFile(reply, `job_${job.id}_comparison_${fileTimestamp()}.csv`, stream);
    },
  });

  app.get('/jobs/:id/price-distribution', {
    schema: {
      operationId: 'jobPriceDistribution',
      tags,
      summary: "How many of the job's prices fall in each price bucket, per marketplace",
      params: JobIdParam,
      response: { 200: PriceDistribution, 404: HttpErrorBody },
    },
    handler: async (req) => priceDistribution(ctx.db, await findVisibleJob(ctx.db, currentUser(req), req.params.id)),
  });
}
