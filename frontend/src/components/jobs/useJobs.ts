// One page of the current user's jobs. Progress moves without the refresh button: live events
// refresh it (useLiveJobEvents); while they are down and a job on screen has lookups left, it polls.
import { PAGE_SIZE } from '@app/domain/jobs';
import { listJobs } from '../../client/sdk.gen';
import { useLiveFallbackInterval } from '../../hooks/useLiveJobEvents';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { hasUnfinishedLookups } from '../../lib/progress';
import type { SortState } from '../../lib/sort';

export const JOBS_POLL_MS = 3000;

export function useJobs({ page, filters = [], sort = {} }: { page: number; filters?: Filter[]; sort?: SortState }) {
  const pollMs = useLiveFallbackInterval(JOBS_POLL_MS);
  return usePagedQuery({
    queryKey: ['jobs', { filters, sort }],
    page,
    pageSize: PAGE_SIZE.jobs,
    fetchPage: async ({ skip, limit, signal }) => (await listJobs({ query: { skip, limit, ...sort }, body: { filters }, signal })).data,
    refetchInterval: (data) => (pollMs !== false && hasUnfinishedLookups(data?.data) ? pollMs : false),
  });
}
