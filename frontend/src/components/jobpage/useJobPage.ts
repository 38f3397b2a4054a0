// The job page's data. Every key starts with ['job', id], so anything that knows the job changed
// (e.g. server-sent events) can refresh the whole page with one invalidation of that prefix.
// While the job has lookups left and live updates are down, each part polls at the jobs list's pace.
import { PAGE_SIZE } from '@app/domain/jobs';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { jobComparison, jobPriceDistribution, readJob, readJobDecisions, readJobResults, readJobSummary } from '../../client/sdk.gen';
import type { JobPublic } from '../../client/types.gen';
import { useLiveFallbackInterval } from '../../hooks/useLiveJobEvents';
import { usePagedQuery } from '../../hooks/usePagedQuery';
import type { Filter } from '../../lib/filters';
import { hasUnfinishedLookups } from '../../lib/progress';
import type { SortState } from '../../lib/sort';
import { JOBS_POLL_MS } from '../jobs/useJobs';

export const jobKey = (id: number) => ['job', id] as const;

/** The polling interval while the job runs: none while live updates arrive (they refresh the page). */
function usePollWhile(live: boolean): number | false {
  const ms = useLiveFallbackInterval(JOBS_POLL_MS);
  return live ? ms : false;
}

export function useJob(id: number) {
  const pollMs = useLiveFallbackInterval(JOBS_POLL_MS);
  return useQuery({
    queryKey: jobKey(id),
    queryFn: async ({ signal }) => (await readJob({ path: { id }, signal })).data,
    // An unknown or hidden job is shown as "not found", not as an error toast.
    meta: { toastOnError: false },
    refetchInterval: (q) => (isLive(q.state.data) ? pollMs : false),
  });
}

/** True while an enabled marketplace of the job still has lookups to do. */
export const isLive = (job: JobPublic | undefined) => hasUnfinishedLookups(job ? [job] : undefined);

/** One part of the page under ['job', id, part], polled like the rest while the job runs. */
function useJobPart<T>(id: number, part: string, read: (signal: AbortSignal) => Promise<T>, live: boolean) {
  const pollMs = usePollWhile(live);
  return useQuery({ queryKey: [...jobKey(id), part], queryFn: ({ signal }) => read(signal), refetchInterval: pollMs });
}

export function useJobSummary(id: number, live: boolean) {
  return useJobPart(id, 'summary', async (signal) => (await readJobSummary({ path: { id }, signal })).data, live);
}

/** The job's rule set version, when it was judged and its counts per decision (with their colours). */
export function useJobDecisions(id: number, live: boolean) {
  return useJobPart(id, 'decisions', async (signal) => (await readJobDecisions({ path: { id }, signal })).data, live);
}

/** What the job decided: books, cost and estimated profit per decision, and books per best source. */
export function useJobResults(id: number, live: boolean) {
  return useJobPart(id, 'results', async (signal) => (await readJobResults({ path: { id }, signal })).data, live);
}

export function useComparison(id: number, { page, filters, sort }: { page: number; filters: Filter[]; sort: SortState }, live: boolean) {
  const pollMs = usePollWhile(live);
  return usePagedQuery({
    queryKey: [...jobKey(id), 'comparison', { filters, sort }],
    page,
    // The comparison reads like the marketplaces' lookup lists: the same page size.
    pageSize: PAGE_SIZE.lookups,
    fetchPage: async ({ skip, limit, signal }) =>
      (await jobComparison({ path: { id }, query: { skip, limit, ...sort }, body: { filters }, signal })).data,
    refetchInterval: pollMs,
  });
}

export function usePriceDistribution(id: number, live: boolean) {
  return useJobPart(id, 'price-distribution', async (signal) => (await jobPriceDistribution({ path: { id }, signal })).data, live);
}

/**
 * Refreshes every part of the page once when the job's last lookup ends: the parts stop polling
 * then, and their last poll may predate the end.
 */
export function useRefreshWhenDone(id: number, live: boolean) {
  const queryClient = useQueryClient();
  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void queryClient.invalidateQueries({ queryKey: jobKey(id) });
    wasLive.current = live;
  }, [id, live, queryClient]);
}
