import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';

/**
 * The current route's `page` search param and a setter that keeps the other params
 * (filters, sort) as they are.
 */
export function usePageParam(page: number): [number, (page: number) => void] {
  const navigate = useNavigate();
  const setPage = useCallback(
    (next: number) => {
      void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, page: next }) });
    },
    [navigate],
  );
  return [page, setPage];
}
