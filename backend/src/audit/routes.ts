// The audit trail API, superusers only: a filtered, sorted page of events (the lists' conventions:
// filters in the body, sort and paging in the query) and the same query as CSV.
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody, csvFileResponse } from '../lib/api-schemas.ts';
import { fileTimestamp, sendCsvFile } from '../lib/csv-download.ts';
import { ExportBody, FiltersBody, SortQuery, asFilters } from '../lib/filter-sql.ts';
import { auditEventsCsv, listAuditEvents } from './repository.ts';
import { must } from '@app/domain/must';
import { AuditEventsPublic } from './schemas.ts';

const tags = ['audit'];
const su = { config: { access: 'superuser' as const } };

export function auditRoutes(app: App, ctx: AppContext): void {
  app.post('/audit-events', {
    schema: {
      operationId: 'listAuditEvents',
      tags,
      summary: 'Who did what: a filtered, sorted page of the audit trail',
      querystring: SortQuery,
      body: FiltersBody,
      response: { 200: AuditEventsPublic, 422: HttpErrorBody },
    },
    ...su,
    handler: async (req) => listAuditEvents(ctx.db, { ...req.query, filters: asFilters(req.body.filters) }, req.query),
  });

  app.post('/audit-events/download-csv', {
    schema: {
      operationId: 'downloadAuditEventsCsv',
      tags,
      summary: 'The filtered audit trail as CSV',
      body: ExportBody,
      response: { 200: csvFileResponse('CSV of the filtered audit events'), 422: HttpErrorBody },
    },
    config: { ...su.config, fairShare: false },
    handler: async (req, reply) => {
      const q = { filters: asFilters(req.body.filters), sort_by: req.body.sort_by, sort_direction: req.body.sort_direction };
      const stream = await ctx.exports.run(must(req.currentUser, 'the guard set the user').id, req.raw.socket, () =>
        auditEventsCsv(ctx.exporter, q),
      );
      return sendCsvFile(reply, `audit_events_${fileTimestamp()}.csv`, stream);
    },
  });
}
