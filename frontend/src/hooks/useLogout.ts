import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { clearToken } from '../lib/session';

/** Log out: forget the token and every cached answer (they belong to this user), go to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(() => {
    clearToken();
    queryClient.clear();
    void navigate({ to: '/login' });
  }, [queryClient, navigate]);
}
