// One page of the current user's jobs. While any job on screen still has lookups to do, the page
// polls, so progress moves without the refresh button.
import { PAGE_SIZE } from '@app/domain/jobs';
import { listJobs } from '../../client/sdk.gen';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { hasUnfinishedLookups } from '../../lib/progress';
import type { SortState } from '../../lib/sort';

export const JOBS_POLL_MS = 3000;

export function useJobs({ page, filters = [], sort = {} }: { page: number; filters?: Filter[]; sort?: SortState }) {
  return usePagedQuery({
    queryKey: ['jobs', { filters, sort }],
    page,
    pageSize: PAGE_SIZE.jobs,
    fetchPage: async ({ skip, limit, signal }) => (await listJobs({ query: { skip, limit, ...sort }, body: { filters }, signal })).data,
    refetchInterval: (data) => (hasUnfinishedLookups(data?.data) ? JOBS_POLL_MS : false),
  });
}
