// Counts attempts per key in the database, so every API process shares the counts, and decides in
// one statement whether an attempt may go ahead: parallel requests cannot slip past the limit,
// because each takes its turn on the key's row before anything else (a password check) happens.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { DbLog } from '../../db/log.ts';
import { attemptCounters } from '../../db/schema.ts';

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

/** Keys this process last saw blocked are remembered up to this many (oldest forgotten first). */
const BLOCKED_MEMO_MAX = 10_000;

export class AttemptLimiter {
  private calls = 0;
  /**
   * Key → the time (ms) it is blocked until, as this process last read it. A blocked attempt changes
   * nothing in the database (the counter's update is skipped until the block ends), so answering it
   * from here is the same answer without the two statements: a client hammering a throttled form then
   * costs the shared database nothing, which on the embedded one is everyone's connection.
   */
  private readonly blocked = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly log: Pick<DbLog, 'warn'>,
  ) {}

  /**
   * Counts one attempt for `key`. Returns 0 when it may go ahead, else the seconds to wait.
   * With `member`, the key counts distinct members instead of attempts: a member already counted in
   * the window goes ahead without counting again (while the key is not blocked), so one person's
   * retries on one account cost an address one unit, and only new members can reach the limit.
   */
  async take(key: string, policy: LimitPolicy, member?: string): Promise<number> {
    const until = this.blocked.get(key);
    if (until !== undefined) {
      const left = until - Date.now();
      if (left > 0) return Math.ceil(left / 1000);
      this.blocked.delete(key);
    }
    // Sweeping old counters is housekeeping: a failure must not fail the login, but it is logged.
    if (++this.calls % 500 === 0) void this.sweep().catch((err: Error) => this.log.warn(`attempt counters: sweep failed: ${err.message}`));
    const c = attemptCounters;
    const max = sql`${policy.max}::int`;
    const window = sql`make_interval(secs => ${policy.windowSeconds}::float8)`;
    const expired = sql`${c.window_start} <= now() - ${window}`;
    // Every attempt counts, or (with a member) only a member not yet counted in this window.
    const counts = member === undefined ? sql`true` : sql`NOT (${member}::text = ANY(coalesce(${c.members}, '{}')))`;
    const attempts = sql`CASE WHEN ${expired} THEN 1 WHEN ${counts} THEN ${c.attempts} + 1 ELSE ${c.attempts} END`;
    const windowStart = sql`CASE WHEN ${expired} THEN now() ELSE ${c.window_start} END`;
    const block = (n: SQL, start: SQL) =>
      policy.after === 'double'
        ? sql`CASE WHEN ${n} >= ${max} THEN now() + make_interval(secs => LEAST(power(2, ${n} - ${max}), ${policy.maxDelaySeconds ?? 900}::float8)) END`
        : sql`CASE WHEN ${n} >= ${max} THEN ${start} + ${window} END`;
    const firstMembers = member === undefined ? null : sql`ARRAY[${member}::text]`;
    const members =
      member === undefined
        ? c.members
        : sql`CASE WHEN ${expired} THEN ${firstMembers} WHEN ${counts} THEN array_append(coalesce(${c.members}, '{}'), ${member}::text) ELSE ${c.members} END`;
    // A member counted before adds nothing, so it moves no block either (the key is not blocked, or it would not get here).
    const blockedUntil =
      member === undefined
        ? block(attempts, windowStart)
        : sql`CASE WHEN ${expired} OR ${counts} THEN ${block(attempts, windowStart)} ELSE ${c.blocked_until} END`;
    // One statement: the key's row is locked while it is counted, so parallel attempts take turns.
    const counted = await this.db
      .insert(c)
      .values({ key, attempts: 1, window_start: sql`now()`, blocked_until: block(sql`1`, sql`now()`), members: firstMembers })
      .onConflictDoUpdate({
        target: c.key,
        set: { attempts, window_start: windowStart, blocked_until: blockedUntil, members },
        setWhere: sql`${c.blocked_until} IS NULL OR ${c.blocked_until} <= now()`,
      })
      .returning({ attempts: c.attempts });
    if (counted.length) return 0;
    const [wait] = await this.db
      .select({ seconds: sql<number>`extract(epoch FROM ${c.blocked_until} - now())::float8` })
      .from(c)
      .where(eq(c.key, key));
    const left = Math.max(0, Number(wait?.seconds ?? 0));
    this.remember(key, Date.now() + left * 1000);
    return Math.max(1, Math.ceil(left));
  }

  private remember(key: string, until: number): void {
    this.blocked.delete(key);
    this.blocked.set(key, until);
    if (this.blocked.size > BLOCKED_MEMO_MAX) {
      const oldest = this.blocked.keys().next();
      if (!oldest.done) this.blocked.delete(oldest.value);
    }
  }

  /** Forgets a key's attempts (after a successful login). */
  async reset(key: string): Promise<void> {
    this.blocked.delete(key);
    await this.db.delete(attemptCounters).where(eq(attemptCounters.key, key));
  }

  /**
   * Gives back one counted attempt (a login that succeeded), so only failures add up; with a member,
   * gives back that member's unit if it was counted (and forgets it).
   */
  async refund(key: string, member?: string): Promise<void> {
    const c = attemptCounters;
    const unit = member === undefined ? sql`1` : sql`(${member}::text = ANY(coalesce(${c.members}, '{}')))::int`;
    await this.db
      .update(c)
      .set({
        attempts: sql`greatest(${c.attempts} - ${unit}, 0)`,
        ...(member === undefined ? {} : { members: sql`array_remove(${c.members}, ${member}::text)` }),
      })
      .where(eq(c.key, key));
  }

  /** Drops counters nobody has touched for a day. */
  async sweep(): Promise<void> {
    const c = attemptCounters;
    await this.db
      .delete(c)
      .where(sql`${c.window_start} < now() - interval '1 day' AND (${c.blocked_until} IS NULL OR ${c.blocked_until} < now())`);
  }
}
