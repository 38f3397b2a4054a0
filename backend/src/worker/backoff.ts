// How long a transient failure waits before the next attempt.
import { doublingDelayMs } from '@app/domain/backoff';

export interface BackoffPolicy {
  /** Wait after the first failed attempt; doubles with each further attempt. */
  baseMs: number;
  /** Longest wait backoff alone will choose (a longer Retry-After still wins, up to maxRetryAfterMs). */
  maxMs: number;
  /**
   * Longest Retry-After we honour: a marketplace asking for a day would otherwise park lookups
   * silently for that long. Past it we ask again sooner (and may be told to wait again).
   */
  maxRetryAfterMs: number;
}

/** base · 2^(attempts−1), capped at maxMs, and never sooner than the marketplace's (capped) Retry-After. */
export function retryDelayMs(attempts: number, policy: BackoffPolicy, retryAfterMs?: number): number {
  const exponential = doublingDelayMs(attempts, policy.baseMs, policy.maxMs);
  return Math.max(exponential, Math.min(retryAfterMs ?? 0, policy.maxRetryAfterMs));
}
