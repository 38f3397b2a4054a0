import { queryOptions, useQuery } from '@tanstack/react-query';
import { readUserMe } from '../client/sdk.gen';
import { isLoggedIn } from '../lib/session';

export const currentUserQuery = queryOptions({
  queryKey: ['currentUser'],
  queryFn: async ({ signal }) => (await readUserMe({ signal })).data,
});

export function useCurrentUser() {
  return useQuery({ ...currentUserQuery, enabled: isLoggedIn() });
}
