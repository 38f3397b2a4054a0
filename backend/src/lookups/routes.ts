// Each marketplace's price lookups: a filtered, sorted page; the same query as streamed CSV;
// and every offer the marketplace returned for one lookup.
import { z } from 'zod';
import { MARKETPLACE_LIST } from '@app/domain/marketplaces';
import type { App, AppContext } from '../core/context.ts';
import { SECURITY } from '../auth/guard.ts';
import { currentUser } from '../users/current-user.ts';
import { FiltersBody, SortQuery } from '../lib/filter-sql.ts';
import { HttpError } from '../lib/http-errors.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { camel } from '../lib/names.ts';
import { listLookups, lookupsCsv, readOffers } from './repository.ts';
import { lookupSchemas } from './schemas.ts';

const ExportBody = FiltersBody.extend({ sort_by: z.string().max(100).optional(), sort_direction: z.enum(['asc', 'desc']).optional() }).meta({ id: 'ExportBody' });
const IdParam = z.object({ id: z.coerce.number().int('Invalid lookup id').positive('Invalid lookup id').max(Number.MAX_SAFE_INTEGER, 'Invalid lookup id') });

const timestamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

export function lookupRoutes(app: App, ctx: AppContext): void {
  for (const m of MARKETPLACE_LIST) {
    const schemas = lookupSchemas(m);
    const tags = [m.slug];
    const op = camel(m.id);

    app.post(`/${m.slug}/price-lookups`, {
      schema: { operationId: `${op}PriceLookups`, tags, security: SECURITY, querystring: SortQuery, body: FiltersBody, response: { 200: schemas.list, 422: HttpErrorBody } },
      handler: async (req) => {
        const { data, ...total } = await listLookups(ctx.db, m, currentUser(req), { ...req.query, filters: req.body.filters as never }, req.query);
        return { data: data as never[], ...total };
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
      handler: async (req, reply) => {
        const q = { filters: req.body.filters as never, sort_by: req.body.sort_by, sort_direction: req.body.sort_direction };
        const stream = await lookupsCsv(ctx.exporter, m, currentUser(req), q, { stallTimeoutMs: ctx.config.EXPORT_STALL_TIMEOUT_MS });
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${m.csvPrefix}_price_lookups_${timestamp()}.csv"`)
          .send(stream as never);
      },
    });

    app.get(`/${m.slug}/price-lookups/:id/offers`, {
      schema: { operationId: `${op}ReadOffers`, tags, security: SECURITY, params: IdParam, response: { 200: schemas.offers, 404: HttpErrorBody } },
      handler: async (req) => {
        const lookup = await readOffers(ctx.db, m, currentUser(req), req.params.id);
        if (!lookup) throw new HttpError(404, 'Price lookup not found');
        return lookup;
      },
    });
  }
}
