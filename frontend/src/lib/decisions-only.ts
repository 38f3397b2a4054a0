// The protected layout's beforeLoad for a "decisions only" account (a scout: verdicts, no figures):
// any page but the scan page and its settings sends it to /scan before the page loads anything (the
// API would refuse the page's calls with a 403, and a 403 ends the session).
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import type { UserPublic } from '../client/types.gen';
import { isDecisionsOnly, openToDecisionsOnly } from '../components/layout/nav';
import { currentUserQuery } from '../hooks/useCurrentUser';

export async function decisionsOnlyToScan({
  context,
  location,
}: {
  context: { queryClient: QueryClient };
  location: { pathname: string };
}): Promise<void> {
  let me: UserPublic | undefined;
  try {
    me = await context.queryClient.ensureQueryData(currentUserQuery);
  } catch {
    return; // the layout says the account could not be loaded and offers to try again
  }
  if (me && isDecisionsOnly(me) && !openToDecisionsOnly(location.pathname)) throw redirect({ to: '/scan', replace: true });
}
