import { useQuery } from '@tanstack/react-query';
import { readUserMeOptions } from '../client/@tanstack/react-query.gen';
import { isLoggedIn } from '../lib/session';

export const currentUserQuery = {
  ...readUserMeOptions(),
  // Read by the layout and most pages: without this every page mount refetches it.
  // Profile edits write the answer into the cache directly.
  staleTime: 60_000,
};

export function useCurrentUser() {
  return useQuery({ ...currentUserQuery, enabled: isLoggedIn() });
}
