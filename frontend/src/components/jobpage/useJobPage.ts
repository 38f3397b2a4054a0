// The job page's data, each part read with the generated client's query options. Anything that knows
// the job changed (e.g. server-sent events) refreshes the whole page with jobPageKeys(id)
// (lib/query-keys.ts). While the job has lookups left and live updates are down, each part polls
// at the jobs list's pace.
import { PAGE_SIZE } from '@app/domain/jobs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  jobComparisonOptions,
  jobPriceDistributionOptions,
  readJobDecisionsOptions,
  readJobOptions,
  readJobResultsOptions,
  readJobSummaryOptions,
} from '../../client/@tanstack/react-query.gen';
import type { JobPublic } from '../../client/types.gen';
import { useLiveFallbackInterval } from '../../hooks/useLiveJobEvents';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { hasUnfinishedLookups } from '../../lib/progress';
import { invalidateAll, jobPageKeys } from '../../lib/query-keys';
import type { SortState } from '../../lib/sort';
import { JOBS_POLL_MS } from '../jobs/useJobs';

/** The polling interval while the job runs: none while live updates arrive (they refresh the page). */
function usePollWhile(live: boolean): number | false {
  const ms = useLiveFallbackInterval(JOBS_POLL_MS);
  return live ? ms : false;
}

export function useJob(id: number) {
  const pollMs = useLiveFallbackInterval(JOBS_POLL_MS);
  return useQuery({
    ...readJobOptions({ path: { id } }),
    // An unknown or hidden job is shown as "not found", not as an error toast.
    meta: { toastOnError: false },
    refetchInterval: (q) => (isLive(q.state.data) ? pollMs : false),
  });
}

/** True while an enabled marketplace of the job still has lookups to do. */
export const isLive = (job: JobPublic | undefined) => hasUnfinishedLookups(job ? [job] : undefined);

export function useJobSummary(id: number, live: boolean) {
  return useQuery({ ...readJobSummaryOptions({ path: { id } }), refetchInterval: usePollWhile(live) });
}

/** The job's rule set version, when it was judged and its counts per decision (with their colours). */
export function useJobDecisions(id: number, live: boolean) {
  return useQuery({ ...readJobDecisionsOptions({ path: { id } }), refetchInterval: usePollWhile(live) });
}

/** What the job decided: books, cost and estimated profit per decision, and books per best source. */
export function useJobResults(id: number, live: boolean) {
  return useQuery({ ...readJobResultsOptions({ path: { id } }), refetchInterval: usePollWhile(live) });
}

export function useComparison(id: number, { page, filters, sort }: { page: number; filters: Filter[]; sort: SortState }, live: boolean) {
  const pollMs = usePollWhile(live);
  return usePagedQuery({
    pageQuery: ({ skip, limit }) => jobComparisonOptions({ path: { id }, query: { skip, limit, ...sort }, body: { filters } }),
    page,
    // The comparison reads like the marketplaces' lookup lists: the same page size.
    pageSize: PAGE_SIZE.lookups,
    refetchInterval: pollMs,
  });
}

export function usePriceDistribution(id: number, live: boolean) {
  return useQuery({ ...jobPriceDistributionOptions({ path: { id } }), refetchInterval: usePollWhile(live) });
}

/**
 * Refreshes every part of the page once when the job's last lookup ends: the parts stop polling
 * then, and their last poll may predate the end.
 */
export function useRefreshWhenDone(id: number, live: boolean) {
  const queryClient = useQueryClient();
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void invalidateAll(queryClient, jobPageKeys(id));
    wasLive.current = live;
  }, [id, live, queryClient]);
}
