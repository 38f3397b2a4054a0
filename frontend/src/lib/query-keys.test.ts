// Query keys and fetches come from the generated client (client/@tanstack), never typed by hand: a
// hand-typed key drifts from the one its invalidations use, and the page silently stops refreshing.
// Also: the invalidation groups of query-keys.ts match the queries they are meant to refresh.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  jobComparisonOptions,
  listJobsOptions,
  readBookHistoryOptions,
  readBookOptions,
  readJobOptions,
  readJobSummaryOptions,
  readUsersOptions,
  readUsersQueryKey,
} from '../client/@tanstack/react-query.gen';
import { bookKeys, everyCall, jobPageKeys, jobsListKeys } from './query-keys';

const SRC = fileURLToPath(new URL('../', import.meta.url));

/** Product source under src/, without the generated client (tests may use throwaway keys on a bare QueryClient). */
function productFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return full === path.join(SRC, 'client') ? [] : productFiles(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

/** A key or fetch written by hand: an array literal as a key, or a query function of its own. */
const HAND_WRITTEN = [
  /queryKey:\s*\[/,
  /queryFn:/,
  /setQueryData\(\s*\[/,
  /QueryData\(\s*\[/,
  /_KEY\s*=\s*\[/,
  /Key\s*=\s*\([^)]*\)\s*=>\s*\[/,
];

/** The lines of `text` that write a key or fetch by hand, as "file:line: text". */
function handWritten(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (HAND_WRITTEN.some((re) => re.test(line)) ? [`${path.relative(SRC, file)}:${i + 1}: ${line.trim()}`] : []));
}

describe('query keys come from the generated client', () => {
  const files = productFiles();

  it('reads the frontend sources', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('no product file types a query key or writes a query function by hand', () => {
    // The one generic place that takes a page's generated options and names their type.
    const allowed = new Set([path.join(SRC, 'hooks', 'usePagedQuery.ts')]);
    const found = files.filter((f) => !allowed.has(f)).flatMap((f) => handWritten(f, readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds a hand-typed key or query function when there is one', () => {
    expect(handWritten('x.ts', "useQuery({ queryKey: ['jobs', id], queryFn: () => fetchIt() })")).toHaveLength(1);
    expect(handWritten('x.ts', "export const FEE_SCHEDULES_KEY = ['fee-schedules'] as const;")).toHaveLength(1);
    expect(handWritten('x.ts', "export const bookKey = (isbn: string) => ['book', isbn] as const;")).toHaveLength(1);
    expect(handWritten('x.ts', 'useQuery(readJobOptions({ path: { id } }))')).toEqual([]);
  });
});

describe('invalidation groups match the queries they refresh', () => {
  /** Those of `cached` (queries' options) that an invalidation with `filters` would refresh. */
  function invalidated<Q extends { queryKey: readonly unknown[] }>(cached: readonly Q[], filters: readonly (readonly unknown[])[]): Q[] {
    const client = new QueryClient();
    const cache = client.getQueryCache();
    for (const q of cached) client.setQueryData(q.queryKey, {});
    const hit = new Set(filters.flatMap((queryKey) => cache.findAll({ queryKey }).map((q) => q.queryHash)));
    return cached.filter((q) => hit.has(cache.find({ queryKey: q.queryKey, exact: true })?.queryHash ?? ''));
  }

  const job7 = [
    readJobOptions({ path: { id: 7 } }),
    readJobSummaryOptions({ path: { id: 7 } }),
    jobComparisonOptions({ path: { id: 7 }, query: { skip: 50, limit: 50, sort_by: 'isbn' }, body: { filters: [] } }),
  ];
  const job8 = [
    readJobOptions({ path: { id: 8 } }),
    jobComparisonOptions({ path: { id: 8 }, query: { skip: 0, limit: 50 }, body: { filters: [] } }),
  ];
  const jobsList = listJobsOptions({ query: { skip: 0, limit: 25 }, body: { filters: [], hide_book_lookups: true } });
  const users = readUsersOptions({ query: { skip: 0, limit: 10 } });

  it("a job's keys match every part of its page, whatever the page, filters and sort, and no other job's", () => {
    expect(invalidated([...job7, ...job8, jobsList], jobPageKeys(7))).toEqual(job7);
  });

  it("every job's keys match every job page and nothing else", () => {
    expect(invalidated([...job7, ...job8, jobsList, users], jobPageKeys())).toEqual([...job7, ...job8]);
  });

  it('the jobs list keys match every page of every jobs list, and no job page', () => {
    const other = listJobsOptions({ query: { skip: 25, limit: 25, sort_by: 'name' }, body: { filters: [], hide_book_lookups: false } });
    expect(invalidated([...job7, jobsList, other], jobsListKeys())).toEqual([jobsList, other]);
  });

  it("a book's keys match its book and history, not another book's", () => {
    const mine = [readBookOptions({ path: { isbn: '9780000000002' } }), readBookHistoryOptions({ path: { isbn: '9780000000002' } })];
    const other = readBookOptions({ path: { isbn: '9780000000019' } });
    expect(invalidated([...mine, other], bookKeys('9780000000002'))).toEqual(mine);
  });

  it('every call of an operation matches each of its pages', () => {
    expect(invalidated([users, jobsList], [everyCall(readUsersQueryKey)])).toEqual([users]);
  });
});
