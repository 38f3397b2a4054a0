// Counts attempts per key in the database, so every API process shares the counts, and decides in
// one statement whether an attempt may go ahead: parallel requests cannot slip past the limit,
// because each takes its turn on the key's row before anything else (a password check) happens.
import type { FastifyBaseLogger } from 'fastify';
import type { Sql } from '../db/client.ts';

export interface LimitPolicy {
  /** Attempts allowed in a window before the key must wait. */
  max: number;
  windowSeconds: number;
  /**
   * What happens at the limit: 'double' waits 1 s, then 2, 4, 8… for each further attempt (up to
   * maxDelaySeconds), which slows a guesser to a crawl without locking anyone out for long;
   * 'window' waits until the window ends.
   */
  after: 'double' | 'window';
  maxDelaySeconds?: number;
}

export class AttemptLimiter {
  private calls = 0;

  constructor(
    private readonly db: Sql,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  /** Counts one attempt for `key`. Returns 0 when it may go ahead, else the seconds to wait. */
  async take(key: string, policy: LimitPolicy): Promise<number> {
    // Sweeping old counters is housekeeping: a failure must not fail the login, but it is logged.
    if (++this.calls % 500 === 0) void this.sweep().catch((err: unknown) => this.log.warn({ err }, 'sweeping old attempt counters failed'));
    const expired = `c.window_start <= now() - make_interval(secs => $3)`;
    const attempts = `CASE WHEN ${expired} THEN 1 ELSE c.attempts + 1 END`;
    const windowStart = `CASE WHEN ${expired} THEN now() ELSE c.window_start END`;
    const block = (n: string, start: string) =>
      policy.after === 'double'
        ? `CASE WHEN ${n} >= $2 THEN now() + make_interval(secs => LEAST(power(2, ${n} - $2), $4)) END`
        : `CASE WHEN ${n} >= $2 THEN ${start} + make_interval(secs => $3) END`;
    const { rows } = await this.db.query<{ attempts: number }>(
      `INSERT INTO attempt_counters AS c (key, attempts, window_start, blocked_until)
       VALUES ($1, 1, now(), ${block('1', 'now()')})
       ON CONFLICT (key) DO UPDATE SET
         attempts = ${attempts},
         window_start = ${windowStart},
         blocked_until = ${block(attempts, windowStart)}
       WHERE c.blocked_until IS NULL OR c.blocked_until <= now()
       RETURNING attempts`,
      // $4 only where the SQL uses it: PostgreSQL cannot type a parameter nothing refers to.
      policy.after === 'double' ? [key, policy.max, policy.windowSeconds, policy.maxDelaySeconds ?? 900] : [key, policy.max, policy.windowSeconds],
    );
    if (rows.length) return 0;
    const wait = await this.db.query<{ seconds: number }>(
      'SELECT ceil(extract(epoch FROM blocked_until - now()))::int AS seconds FROM attempt_counters WHERE key = $1',
      [key],
    );
    return Math.max(1, wait.rows[0]?.seconds ?? 1);
  }

  /** Forgets a key's attempts (after a successful login). */
  async reset(key: string): Promise<void> {
    await this.db.query('DELETE FROM attempt_counters WHERE key = $1', [key]);
  }

  /** Gives back one counted attempt (a login that succeeded), so only failures add up. */
  async refund(key: string): Promise<void> {
    await this.db.query('UPDATE attempt_counters SET attempts = greatest(attempts - 1, 0) WHERE key = $1', [key]);
  }

  /** Drops counters nobody has touched for a day. */
  async sweep(): Promise<void> {
    await this.db.query(
      `DELETE FROM attempt_counters WHERE window_start < now() - interval '1 day' AND (blocked_until IS NULL OR blocked_until < now())`,
    );
  }
}
