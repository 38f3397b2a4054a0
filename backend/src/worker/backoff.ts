// How long a transient failure waits before the next attempt.

export interface BackoffPolicy {
  /** Wait after the first failed attempt; doubles with each further attempt. */
  baseMs: number;
  /** Longest wait backoff alone will choose (a longer Retry-After still wins). */
  maxMs: number;
}

/** base · 2^(attempts−1), capped at maxMs, and never sooner than the marketplace's Retry-After. */
export function retryDelayMs(attempts: number, policy: BackoffPolicy, retryAfterMs?: number): number {
  const exponential = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.max(exponential, retryAfterMs ?? 0);
}
