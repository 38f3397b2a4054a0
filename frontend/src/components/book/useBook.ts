// A book page's data under ['book', isbn]: the book (latest answers, jobs) and its price history.
import { useQuery } from '@tanstack/react-query';
import { readBook, readBookHistory } from '../../client/sdk.gen';

export const bookKey = (isbn: string) => ['book', isbn] as const;

export function useBook(isbn: string) {
  return useQuery({ queryKey: bookKey(isbn), queryFn: async ({ signal }) => (await readBook({ path: { isbn }, signal })).data });
}

export function useBookHistory(isbn: string) {
  return useQuery({
    queryKey: [...bookKey(isbn), 'history'],
    queryFn: async ({ signal }) => (await readBookHistory({ path: { isbn }, signal })).data,
  });
}
