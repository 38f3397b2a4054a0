// Which queries an invalidation refreshes, from the keys the generated client makes
// (client/@tanstack/react-query.gen.ts): none is typed by hand (query-keys.test.ts checks).
// A generated key is one object, `{_id, baseUrl, path?, query?, body?}`; TanStack matches a filter
// key against a query's by its parts, so a key built with fewer arguments matches every query of
// that operation which has them: every page of a list, every part of a job page.
import type { QueryClient } from '@tanstack/react-query';
import {
  countRetryableLookupsQueryKey,
  jobComparisonQueryKey,
  jobPriceDistributionQueryKey,
  listJobsQueryKey,
  priceLookupsQueryKey,
  readBookHistoryQueryKey,
  readBookQueryKey,
  readJobDecisionsQueryKey,
  readJobQueryKey,
  readJobResultsQueryKey,
  readJobSummaryQueryKey,
  readLookupOffersQueryKey,
  readScanSessionQueryKey,
} from '../client/@tanstack/react-query.gen';

type GeneratedKey = readonly [{ _id: string }];

/** The key matching every call of one generated operation, whatever its arguments. */
export const everyCall = <K extends GeneratedKey>(queryKey: (options: never) => K): K => queryKey({} as never);

/**
 * What is read about one job, each with the job's id as its path: the job page's parts, and a scan
 * session's page (a session is read by its job's id, so the live events refresh it).
 */
const JOB_PAGE_PARTS: ReadonlyArray<(options: never) => GeneratedKey> = [
  readJobQueryKey,
  readJobSummaryQueryKey,
  readJobDecisionsQueryKey,
  readJobResultsQueryKey,
  jobComparisonQueryKey,
  jobPriceDistributionQueryKey,
  readScanSessionQueryKey,
];

/** Every query of a job page: of job `id` (whatever its page, filters or sort), or of every job. */
export const jobPageKeys = (id?: number): GeneratedKey[] =>
  JOB_PAGE_PARTS.map((key) => key((id === undefined ? {} : { path: { id } }) as never));

/** Every page of every jobs list. */
export const jobsListKeys = (): GeneratedKey[] => [everyCall(listJobsQueryKey)];

/** Every marketplace's lookups lists and offers. */
export const lookupsKeys = (): GeneratedKey[] => [everyCall(priceLookupsQueryKey), everyCall(readLookupOffersQueryKey)];

/** What a job action changes: the jobs lists, every job page, the marketplaces' lookups and offers, the retry counts. */
export const jobActionKeys = (): GeneratedKey[] => [
  ...jobsListKeys(),
  ...jobPageKeys(),
  ...lookupsKeys(),
  everyCall(countRetryableLookupsQueryKey),
];

/** A book page's queries: the book and its price history. */
export const bookKeys = (isbn: string): GeneratedKey[] => [
  readBookQueryKey({ path: { isbn } }),
  readBookHistoryQueryKey({ path: { isbn } }),
];

/** Invalidates every query matching one of `keys`. */
export const invalidateAll = (queryClient: QueryClient, keys: readonly GeneratedKey[], options?: { cancelRefetch?: boolean }) =>
  Promise.all(keys.map((queryKey) => queryClient.invalidateQueries({ queryKey }, options)));
