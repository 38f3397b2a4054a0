// The generated client's calls for each marketplace, looked up by id so one page component
// serves all four. Rows are read through the field table, so they are typed loosely here.
import type { MarketplaceId } from '@app/domain/marketplaces';
import * as sdk from '../client/sdk.gen';
import type { Filter } from '@app/domain/fields';
import type { JobCreated } from '../client/types.gen';
import type { SortState } from './sort';

export type LookupRow = Record<string, unknown> & { id: number };

export interface LookupOffers {
  id: number;
  isbn: string;
  lookup_status: string;
  last_error: string | null;
  attempts: number;
  offers: Record<string, unknown>[];
}

export interface ListArgs extends SortState {
  skip: number;
  limit: number;
  filters: Filter[];
  signal?: AbortSignal;
}

export interface MarketplaceApi {
  list(args: ListArgs): Promise<{ data: LookupRow[]; count: number }>;
  /** The CSV as a Blob and the server's Content-Disposition header. */
  downloadCsv(args: SortState & { filters: Filter[] }): Promise<{ blob: Blob; disposition: string | null }>;
  readOffers(id: number, signal?: AbortSignal): Promise<LookupOffers>;
  uploadFile(file: File): Promise<JobCreated>;
}

type Calls = {
  list: typeof sdk.abeBooksPriceLookups;
  csv: typeof sdk.abeBooksDownloadCsv;
  offers: typeof sdk.abeBooksReadOffers;
  upload: typeof sdk.abeBooksUploadFile;
};

// The four sets have the same shapes apart from the row type; one cast per marketplace.
const CALLS: Record<MarketplaceId, Calls> = {
  abe_books: { list: sdk.abeBooksPriceLookups, csv: sdk.abeBooksDownloadCsv, offers: sdk.abeBooksReadOffers, upload: sdk.abeBooksUploadFile },
  biblio: {
    list: sdk.biblioPriceLookups as unknown as Calls['list'],
    csv: sdk.biblioDownloadCsv as unknown as Calls['csv'],
    offers: sdk.biblioReadOffers as unknown as Calls['offers'],
    upload: sdk.biblioUploadFile as unknown as Calls['upload'],
  },
  alibris: {
    list: sdk.alibrisPriceLookups as unknown as Calls['list'],
    csv: sdk.alibrisDownloadCsv as unknown as Calls['csv'],
    offers: sdk.alibrisReadOffers as unknown as Calls['offers'],
    upload: sdk.alibrisUploadFile as unknown as Calls['upload'],
  },
  pallet_iq: {
    list: sdk.palletIqPriceLookups as unknown as Calls['list'],
    csv: sdk.palletIqDownloadCsv as unknown as Calls['csv'],
    offers: sdk.palletIqReadOffers as unknown as Calls['offers'],
    upload: sdk.palletIqUploadFile as unknown as Calls['upload'],
  },
};

export function marketplaceApi(id: MarketplaceId): MarketplaceApi {
  const c = CALLS[id];
  return {
    async list({ skip, limit, filters, sort_by, sort_direction, signal }) {
      const { data } = await c.list({ query: { skip, limit, sort_by, sort_direction }, body: { filters }, signal });
      // Each marketplace's rows are typed by its own generated type; the table reads them by field name.
      return data as unknown as { data: LookupRow[]; count: number };
    },
    async downloadCsv({ filters, sort_by, sort_direction }) {
      const { data, response } = await c.csv({ body: { filters, sort_by, sort_direction }, parseAs: 'blob' });
      // parseAs: 'blob' gives a Blob; the generated type says string (the text/csv schema).
      return { blob: data as unknown as Blob, disposition: response.headers.get('content-disposition') };
    },
    async readOffers(id, signal) {
      return (await c.offers({ path: { id }, signal })).data as LookupOffers;
    },
    async uploadFile(file) {
      return (await c.upload({ body: { file } })).data;
    },
  };
}
