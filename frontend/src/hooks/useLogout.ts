import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { signOut } from '../client/sdk.gen';
import { deleteOfflineData } from '../lib/offline-store';
import { clearToken, getToken } from '../lib/session';

/**
 * Log out: end the session on the server (the token stops working there too), forget the token and
 * every cached answer (they belong to this user) and the scan page's offline pack and queue (phones
 * are shared), go to /login. Leaving never waits on the server.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    const token = getToken();
    if (token) void signOut({ headers: { Authorization: `Bearer ${token}` } }).catch(() => {});
    clearToken();
    queryClient.clear();
    void deleteOfflineData().catch(() => {});
    void navigate({ to: '/login' });
  }, [queryClient, navigate]);
}
