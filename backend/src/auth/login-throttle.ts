// Failed-login throttle per account and per client address (fixed windows, in memory).
// One API process per deployment is the expected shape; several processes each keep their own
// counters, which still bounds guessing per process.
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds to wait before another attempt is allowed for any of these keys, or 0. */
  retryAfter(keys: string[]): number {
    const t = this.now();
    let wait = 0;
    for (const key of keys) {
      const entry = this.failures.get(key);
      if (!entry) continue;
      if (entry.resetAt <= t) this.failures.delete(key);
      else if (entry.count >= this.maxFailures) wait = Math.max(wait, Math.ceil((entry.resetAt - t) / 1000));
    }
    return wait;
  }

  recordFailure(keys: string[]): void {
    const t = this.now();
    for (const key of keys) {
      const entry = this.failures.get(key);
      if (!entry || entry.resetAt <= t) this.failures.set(key, { count: 1, resetAt: t + this.windowMs });
      else entry.count += 1;
    }
    if (this.failures.size > 100_000) this.sweep(t);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private sweep(t: number): void {
    for (const [key, entry] of this.failures) if (entry.resetAt <= t) this.failures.delete(key);
  }
}
