// The price lookups of a marketplace, one operation per action with the marketplace as {market}:
// a filtered, sorted page; the same query as streamed CSV; every offer returned for one lookup.
import { z } from 'zod';
import { marketplaceOfSlug } from '@app/domain/marketplaces';
import type { App, AppContext } from '../core/context.ts';
import { currentUser } from '../users/current-user.ts';
import { ExportBody, FiltersBody, SortQuery, asFilters } from '../lib/filter-sql.ts';
import { notFound } from '../lib/http-errors.ts';
import { HttpErrorBody, csvFileResponse } from '../lib/api-schemas.ts';
import { fileTimestamp, sendCsvFile } from '../lib/csv-download.ts';
import { MarketParam } from '../marketplaces/market-param.ts';
import { listLookups, lookupsCsv, readOffers } from './repository.ts';
import { LookupOffers, PriceLookups } from './schemas.ts';

const OffersParams = MarketParam.extend({
  id: z.coerce.number().int('Invalid lookup id').positive('Invalid lookup id').max(Number.MAX_SAFE_INTEGER, 'Invalid lookup id'),
});
const tags = ['marketplaces'];

export function lookupRoutes(app: App, ctx: AppContext): void {
  app.post('/:market/price-lookups', {
    schema: {
      operationId: 'priceLookups',
      tags,

      params: MarketParam,
      querystring: SortQuery,
      body: FiltersBody,
      response: { 200: PriceLookups, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const m = marketplaceOfSlug(req.params.market);
      return listLookups(ctx.db, m, currentUser(req), { ...req.query, filters: asFilters(req.body.filters) }, req.query);
    },
  });

  app.post('/:market/price-lookups/download-csv', {
    config: { fairShare: false },
    schema: {
      operationId: 'downloadPriceLookupsCsv',
      tags,

      params: MarketParam,
      body: ExportBody,
      response: { 200: csvFileResponse('CSV of the filtered lookups'), 422: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const m = marketplaceOfSlug(req.params.market);
      const q = { filters: asFilters(req.body.filters), sort_by: req.body.sort_by, sort_direction: req.body.sort_direction };
      const stream = await ctx.exports.run(currentUser(req).id, req.raw.socket, () => lookupsCsv(ctx.exporter, m, currentUser(req), q));
      return sendCsvFile(reply, `${m.csvPrefix}_price_lookups_${fileTimestamp()}.csv`, stream);
    },
  });

  app.get('/:market/price-lookups/:id/offers', {
    schema: {
      operationId: 'readLookupOffers',
      tags,

      params: OffersParams,
      response: { 200: LookupOffers, 404: HttpErrorBody },
    },
    handler: async (req) => {
      const lookup = await readOffers(ctx.db, marketplaceOfSlug(req.params.market), currentUser(req), req.params.id);
      if (!lookup) throw notFound('Price lookup');
      return lookup;
    },
  });
}
