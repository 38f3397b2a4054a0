// One page of a server-paged list (`{data, count}` answered for skip/limit), with the previous
// page kept on screen while the next loads and the following page prefetched (docs/requirements.md, Tables).
import { keepPreviousData, type QueryFunction, type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { pageRangeText, pagingState, skipFor } from '../lib/paging';

export interface PageResult<T> {
  data: T[];
  count: number;
  /** False when `count` is an estimate (a lower bound); missing means exact. */
  count_exact?: boolean;
}

/** One page's query: the generated client's `xxxOptions()` (client/@tanstack) for that skip and limit. */
export interface PageQuery<T> {
  queryKey: QueryKey;
  // biome-ignore lint/suspicious/noExplicitAny: each generated query has its own key type; only the data's matters here
  queryFn?: QueryFunction<PageResult<T>, any>;
}

export interface UsePagedQueryOptions<T> {
  /** The query of one page of the list (its filters, sort… and this skip and limit). */
  pageQuery: (range: { skip: number; limit: number }) => PageQuery<T>;
  page: number;
  pageSize: number;
  enabled?: boolean;
  /** Poll: milliseconds, or a function of the page on screen (false stops polling). */
  refetchInterval?: number | false | ((page: PageResult<T> | undefined) => number | false);
}

export const pagedQueryOptions = <T>({ pageQuery, pageSize }: Pick<UsePagedQueryOptions<T>, 'pageQuery' | 'pageSize'>, page: number) =>
  pageQuery({ skip: skipFor(page, pageSize), limit: pageSize });

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

  // Key identity changes every render; its serialised form (of the first page) says when the list really changed.
  const keyHash = JSON.stringify(pagedQueryOptions(options, 0).queryKey);
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
