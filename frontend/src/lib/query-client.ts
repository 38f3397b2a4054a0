// Data-fetching defaults and the global error handling (docs/requirements.md: Client defaults,
// Errors and toasts).
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { errorStatus } from './errors';
import { doublingDelayMs } from '@app/domain/backoff';

const FIVE_MINUTES = 5 * 60 * 1000;
export const MAX_RETRIES = 3;

/** 1 s doubled on each attempt, capped at 30 s. */
export function retryDelay(attempt: number): number {
  return doublingDelayMs(attempt + 1, 1000, 30_000);
}

/**
 * Up to three retries, but never for a 4xx other than 408/429: the answer will not change and
 * a 401/403 has already ended the session.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  const status = errorStatus(error);
  if (status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429) return false;
  return true;
}

/**
 * A background load failing because the session is gone (401/403) needs no toast: the 403
 * handler already sent the user to /login. A user's own action (mutation) always says why.
 */
export function isSessionError(error: unknown): boolean {
  const status = errorStatus(error);
  return status === 401 || status === 403;
}

declare module '@tanstack/react-query' {
  interface Register {
    // `meta: { toastOnError: false }` on a mutation or query: it shows its own error instead.
    queryMeta: { toastOnError?: boolean };
    mutationMeta: { toastOnError?: boolean };
  }
}

export function createQueryClient(showError: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.toastOnError === false || isSessionError(error)) return;
        showError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (mutation.meta?.toastOnError === false) return;
        showError(error);
      },
    }),
    defaultOptions: {
      queries: { gcTime: FIVE_MINUTES, retry: shouldRetry, retryDelay },
      mutations: { retry: 0 },
    },
  });
}
