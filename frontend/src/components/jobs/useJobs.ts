// One page of the current user's jobs. Progress moves without the refresh button: live events
// refresh it (useLiveJobEvents); while they are down and a job on screen has lookups left, it polls.
import { PAGE_SIZE } from '@app/domain/jobs';
import { listJobsOptions } from '../../client/@tanstack/react-query.gen';
import { useLiveFallbackInterval } from '../../hooks/useLiveJobEvents';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { hasUnfinishedLookups } from '../../lib/progress';
import type { SortState } from '../../lib/sort';

export const JOBS_POLL_MS = 3000;

/**
 * `showBookLookups`: include the one-book jobs a book page's "Price it now" creates; the jobs tables
 * leave them out unless asked, so they do not bury the uploaded lists.
 */
export function useJobs({
  page,
  filters = [],
  sort = {},
  showBookLookups = false,
}: {
  page: number;
  filters?: Filter[];
  sort?: SortState;
  showBookLookups?: boolean;
}) {
  const pollMs = useLiveFallbackInterval(JOBS_POLL_MS);
  return usePagedQuery({
    pageQuery: ({ skip, limit }) =>
      listJobsOptions({ query: { skip, limit, ...sort }, body: { filters, hide_book_lookups: !showBookLookups } }),
    page,
    pageSize: PAGE_SIZE.jobs,
    refetchInterval: (data) => (pollMs !== false && hasUnfinishedLookups(data?.data) ? pollMs : false),
  });
}
