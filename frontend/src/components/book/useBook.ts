// A book page's data (lib/query-keys.ts bookKeys refreshes both): the book (latest answers, jobs)
// and its price history.
import { useQuery } from '@tanstack/react-query';
import { readBookHistoryOptions, readBookOptions } from '../../client/@tanstack/react-query.gen';

export function useBook(isbn: string) {
  return useQuery(readBookOptions({ path: { isbn } }));
}

export function useBookHistory(isbn: string) {
  return useQuery(readBookHistoryOptions({ path: { isbn } }));
}
