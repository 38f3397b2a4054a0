// A route's beforeLoad for the superusers' pages (Admin, Audit trail): anyone else is sent home
// rather than shown a 403.
import type { QueryClient } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import { currentUserQuery } from '../hooks/useCurrentUser';

export async function superusersOnly({ context }: { context: { queryClient: QueryClient } }): Promise<void> {
  const me = await context.queryClient.ensureQueryData(currentUserQuery);
  if (!me.is_superuser) throw redirect({ to: '/', search: { page: 1 } });
}
