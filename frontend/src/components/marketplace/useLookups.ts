// One page of a marketplace's price lookups. While rows on screen are still queued or being
// looked up, the page polls so their results appear by themselves.
import { PAGE_SIZE } from '@app/domain/jobs';
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import { FINISHED_STATUSES, type LookupStatus } from '@app/domain/status';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { priceLookupsOptions } from '../../client/@tanstack/react-query.gen';
import type { LookupRow } from './marketplace-api';
import type { SortState } from '../../lib/sort';

export const LOOKUPS_POLL_MS = 5000;

const unfinished = (rows: LookupRow[] | undefined) => !!rows?.some((r) => !FINISHED_STATUSES.includes(r.lookup_status as LookupStatus));

export function useLookups(m: MarketplaceInfo, { page, filters, sort }: { page: number; filters: Filter[]; sort: SortState }) {
  return usePagedQuery({
    pageQuery: ({ skip, limit }) => priceLookupsOptions({ path: { market: m.slug }, query: { skip, limit, ...sort }, body: { filters } }),
    page,
    pageSize: PAGE_SIZE.lookups,
    refetchInterval: (data) => (unfinished(data?.data) ? LOOKUPS_POLL_MS : false),
  });
}
