// Requests per second for one marketplace in this process: a token bucket holding a single token,
// so no window of any length sees more than its share (no bursts after a quiet spell).
import { setTimeout as sleep } from 'node:timers/promises';

export class RateLimiter {
  private readonly intervalMs: number;
  /** When the next token is due (performance.now() clock). */
  private nextAt = 0;

  constructor(ratePerSecond: number) {
    this.intervalMs = 1000 / ratePerSecond;
  }

  /** Resolves when the caller may send; rejects if the signal aborts first (the slot is then lost). */
  async take(signal?: AbortSignal): Promise<void> {
    const now = performance.now();
    // Reserve the slot now, so concurrent callers queue up behind each other in order.
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.intervalMs;
    if (at > now) await sleep(at - now, undefined, { signal });
    else signal?.throwIfAborted();
  }
}
