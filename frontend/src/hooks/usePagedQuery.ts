// One page of a server-paged list (`{data, count}` answered for skip/limit), with the previous
// page kept on screen while the next loads and the following page prefetched (docs/requirements.md, Tables).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { pageRangeText, pagingState, skipFor } from '../lib/paging';

export interface PageResult<T> {
  data: T[];
  count: number;
  /** False when `count` is an estimate (a lower bound); missing means exact. */
  count_exact?: boolean;
}

export interface UsePagedQueryOptions<T> {
  /** Identifies the list and everything but the page (filters, sort…); the page is appended. */
  queryKey: readonly unknown[];
  page: number;
  pageSize: number;
  fetchPage: (args: { skip: number; limit: number; signal: AbortSignal }) => Promise<PageResult<T>>;
  enabled?: boolean;
  /** Poll: milliseconds, or a function of the page on screen (false stops polling). */
  refetchInterval?: number | false | ((page: PageResult<T> | undefined) => number | false);
}

export function pagedQueryOptions<T>(
  { queryKey, pageSize, fetchPage }: Omit<UsePagedQueryOptions<T>, 'page' | 'enabled' | 'refetchInterval'>,
  page: number,
) {
  return {
    queryKey: [...queryKey, { page, pageSize }] as const,
    queryFn: ({ signal }: { signal: AbortSignal }) => fetchPage({ skip: skipFor(page, pageSize), limit: pageSize, signal }),
  };
}

export function usePagedQuery<T>(options: UsePagedQueryOptions<T>) {
  const { page, pageSize, enabled = true, refetchInterval } = options;
  const queryClient = useQueryClient();
  const query = useQuery({
    ...pagedQueryOptions(options, page),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: typeof refetchInterval === 'function' ? (q) => refetchInterval(q.state.data) : refetchInterval,
  });
  const { hasNextPage, hasPreviousPage } = pagingState({
    page,
    pageSize,
    rowsOnPage: query.data?.data.length,
    isPlaceholderData: query.isPlaceholderData,
  });

  // Key identity changes every render; its serialised form says when the list really changed.
  const keyHash = JSON.stringify(options.queryKey);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `options` is new on every render; keyHash and pageSize say when it changed
  useEffect(() => {
    if (hasNextPage) void queryClient.prefetchQuery(pagedQueryOptions(options, page + 1));
  }, [hasNextPage, page, pageSize, keyHash, queryClient]);

  return {
    rows: query.data?.data,
    count: query.data?.count,
    /** "1–10 of 5,432" once the page has loaded. */
    rangeText: query.data
      ? pageRangeText({ page, pageSize, rowsOnPage: query.data.data.length, count: query.data.count, countExact: query.data.count_exact })
      : undefined,
    /** Nothing to show yet: render placeholder rows. */
    isPending: query.isPending,
    isPlaceholderData: query.isPlaceholderData,
    isFetching: query.isFetching,
    isError: query.isError,
    dataUpdatedAt: query.dataUpdatedAt,
    refetch: query.refetch,
    hasNextPage,
    hasPreviousPage,
  };
}
