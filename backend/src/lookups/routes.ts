// Each marketplace's price lookups: a filtered, sorted page; the same query as streamed CSV;
// and every offer the marketplace returned for one lookup.
import { z } from 'zod';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { App, AppContext } from '../context.ts';
import { SECURITY, authGuards, currentUser } from '../auth/current-user.ts';
import { FiltersBody, SortQuery } from '../lib/filter-sql.ts';
import { HttpError } from '../lib/http-errors.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { countUpTo } from '../lib/bounded-count.ts';
import { camel } from '../lib/names.ts';
import { RETRY_COLUMNS, buildLookupQuery, lookupVisibility, selectList } from './query.ts';
import { csvStream } from './csv-export.ts';
import { lookupSchemas } from './schemas.ts';

const ExportBody = FiltersBody.extend({ sort_by: z.string().max(100).optional(), sort_direction: z.enum(['asc', 'desc']).optional() }).meta({ id: 'ExportBody' });
const IdParam = z.object({ id: z.coerce.number().int('Invalid lookup id').positive('Invalid lookup id').max(Number.MAX_SAFE_INTEGER, 'Invalid lookup id') });

const timestamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

export function lookupRoutes(app: App, ctx: AppContext): void {
  const { requireUser } = authGuards(ctx);
  for (const m of MARKETPLACE_LIST) {
    const schemas = lookupSchemas(m);
    const tags = [m.slug];
    const op = camel(m.id);

    app.post(`/${m.slug}/price-lookups`, {
      schema: { operationId: `${op}PriceLookups`, tags, security: SECURITY, querystring: SortQuery, body: FiltersBody, response: { 200: schemas.list, 422: HttpErrorBody } },
      onRequest: requireUser,
      handler: async (req) => {
        const q = buildLookupQuery(m, currentUser(req), { ...req.query, filters: req.body.filters });
        const n = q.params.length;
        const [page, total] = await Promise.all([
          ctx.db.query(`SELECT ${selectList(m)}, ${RETRY_COLUMNS} ${q.fromWhere} ORDER BY ${q.orderBy} OFFSET $${n + 1} LIMIT $${n + 2}`, [...q.params, req.query.skip, req.query.limit]),
          countUpTo(ctx.db, q.fromWhere, q.params),
        ]);
        // Rows of raw SQL (columns from the field table); the response schema validates and serialises them.
        return { data: page.rows as never[], ...total };
      },
    });

    app.post(`/${m.slug}/price-lookups/download-csv`, {
      schema: {
        operationId: `${op}DownloadCsv`,
        tags,
        security: SECURITY,
        body: ExportBody,
        response: { 200: { description: 'CSV of the filtered lookups', content: { 'text/csv': { schema: z.string() } } }, 422: HttpErrorBody },
      },
      onRequest: requireUser,
      handler: async (req, reply) => {
        const q = buildLookupQuery(m, currentUser(req), { filters: req.body.filters, sort_by: req.body.sort_by, sort_direction: req.body.sort_direction });
        const stream = await csvStream(ctx.db, { fields: m.fields, ...q }, { stallTimeoutMs: ctx.config.EXPORT_STALL_TIMEOUT_MS });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${m.csvPrefix}_price_lookups_${timestamp()}.csv"`)
          // The zod type provider types send() from the response schema (a string); the CSV is streamed.
          .send(stream as never);
      },
    });

    app.get(`/${m.slug}/price-lookups/:id/offers`, {
      schema: { operationId: `${op}ReadOffers`, tags, security: SECURITY, params: IdParam, response: { 200: schemas.offers, 404: HttpErrorBody } },
      onRequest: requireUser,
      handler: async (req) => {
        const params: unknown[] = [req.params.id];
        const visible = lookupVisibility(currentUser(req), params);
        const { rows } = await ctx.db.query<{ id: number; isbn: string; lookup_status: string; last_error: string | null; attempts: number; offers: unknown }>(
          `SELECT id, isbn, lookup_status, last_error, attempts, offers FROM ${m.table} WHERE id = $1${visible ? ` AND ${visible}` : ''}`,
          params,
        );
        if (!rows[0]) throw new HttpError(404, 'Price lookup not found');
        return { ...rows[0], offers: Array.isArray(rows[0].offers) ? (rows[0].offers as Record<string, unknown>[]) : [] };
      },
    });
  }
}
