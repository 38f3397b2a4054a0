import { queryOptions, useQuery } from '@tanstack/react-query';
import { readUserMe } from '../client/sdk.gen';
import { isLoggedIn } from '../lib/session';

export const currentUserQuery = queryOptions({
  queryKey: ['currentUser'],
  queryFn: async ({ signal }) => (await readUserMe({ signal })).data,
  // Read by the layout and most pages: without this every page mount refetches it.
  // Profile edits write the answer into the cache directly.
  staleTime: 60_000,
});

export function useCurrentUser() {
  return useQuery({ ...currentUserQuery, enabled: isLoggedIn() });
}
