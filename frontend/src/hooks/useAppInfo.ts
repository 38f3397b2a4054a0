import { useQuery } from '@tanstack/react-query';
import { readAppInfo } from '../client/sdk.gen';

/** Facts about the server that do not change while it runs (e.g. whether prices are simulated). */
export function useAppInfo() {
  return useQuery({
    queryKey: ['appInfo'],
    queryFn: async ({ signal }) => (await readAppInfo({ signal })).data,
    staleTime: Infinity,
  });
}
