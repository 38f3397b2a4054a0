import { useQuery } from '@tanstack/react-query';
import { readAppInfoOptions } from '../../client/@tanstack/react-query.gen';

/** Facts about the server that do not change while it runs (e.g. whether prices are simulated). */
export function useAppInfo() {
  return useQuery({
    ...readAppInfoOptions(),
    staleTime: Infinity,
  });
}
