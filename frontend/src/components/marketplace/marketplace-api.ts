// The generated client's calls for one marketplace: the API has one operation per action with the
// marketplace as {market}, so one page component serves every marketplace in the registry. Its
// reads are queries (client/@tanstack: priceLookupsOptions, readLookupOffersOptions).
import type { MarketplaceSlug } from '@app/domain/marketplaces';
import type { Filter } from '@app/domain/fields';
import { downloadPriceLookupsCsv, uploadMarketFile } from '../../client/sdk.gen';
import type { JobCreated, LookupOffers, PriceLookups } from '../../client/types.gen';
import type { SortState } from '../../lib/sort';

/** A lookup row of any marketplace; its columns are read through the marketplace's field table. */
export type LookupRow = PriceLookups['data'][number];
export type { LookupOffers };

export interface MarketplaceApi {
  /** The CSV as a Blob and the server's Content-Disposition header. */
  downloadCsv(args: SortState & { filters: Filter[] }): Promise<{ blob: Blob; disposition: string | null }>;
  uploadFile(file: File): Promise<JobCreated>;
}

export function marketplaceApi(market: MarketplaceSlug): MarketplaceApi {
  return {
    async downloadCsv({ filters, sort_by, sort_direction }) {
      const { data, response } = await downloadPriceLookupsCsv({
        path: { market },
        body: { filters, sort_by, sort_direction },
        parseAs: 'blob',
      });
      return { blob: data, disposition: response.headers.get('content-disposition') };
    },
    async uploadFile(file) {
      return (await uploadMarketFile({ path: { market }, body: { file } })).data;
    },
  };
}
