// One LISTEN per API process, fanned out to that process's open streams. Notifications from every
// process (workers, other API processes) are collected and handed on once per interval at most:
// each stream hears only of jobs its user may see (own jobs; superusers all), looked up for all
// streams at once in one query per flush. A stream lives no longer than the session it was opened
// with: its user is read again before every flush and every heartbeat interval (one query for all
// streams), and the stream ends once the password changed, or the user was deactivated or deleted;
// a superuser who lost the rights hears only of their own jobs from then on.
import { and, count, inArray, isNull } from 'drizzle-orm';
import { JOB_EVENTS_CHANNEL, addChange, decodeLiveEvents } from '../core/job-events.ts';
import type { Logger } from '../core/logging.ts';
import type { Db } from '../db/client.ts';
import type { Listen } from '../db/listen.ts';
import { jobs, notifications, revokedTokens, users } from '../db/schema.ts';

/** An open stream, as the hub sees it. */
export interface Subscriber {
  userId: string;
  /** Read again with the user: a demoted superuser stops hearing of other users' jobs. */
  superuser: boolean;
  /** The user's password_changed_at (ms) the stream's token was issued under. */
  passwordStamp: number;
  /** The user's session_stamp (ms) it was issued under: signing out everywhere or deactivation moves it. */
  sessionStamp: number;
  /** The token's id: signing out (that token alone) ends the stream too. */
  tokenId: string;
  /** Jobs that changed, all visible to this user. */
  send(jobIds: number[]): void;
  /** The user's notifications changed (a watch fired, some were read): their unread count now. */
  notify(unreadCount: number): void;
  /** The hub stops serving it (listener lost, shutdown): the client falls back and reconnects. */
  end(): void;
}

export interface HubOptions {
  db: Db;
  listen: Listen;
  intervalMs: number;
  /** How often open streams' users are read again when no event comes (the heartbeat interval). */
  recheckMs: number;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

export class JobEventsHub {
  private readonly subscribers = new Set<Subscriber>();
  private listener: { stop(): Promise<void> } | undefined;
  private up = false;
  private waiting: (() => void)[] = [];
  /** Changed jobs since the last flush; the owner when the notification named it. */
  private pending = new Map<number, string | undefined>();
  /** Users whose notifications changed since the last flush. */
  private notified = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private recheckTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly o: HubOptions) {}

  /** Starts listening (the first time) and waits up to `timeoutMs` for notifications to flow. */
  async ready(timeoutMs: number): Promise<boolean> {
    if (this.closed) return false;
    this.listener ??= this.o.listen(JOB_EVENTS_CHANNEL, {
      message: (payload) => this.received(payload),
      up: () => {
        this.up = true;
        for (const resolve of this.waiting.splice(0)) resolve();
      },
      down: () => {
        this.up = false;
        // Events are being missed: streams end, so pages poll until they reconnect and catch up.
        this.endAll();
      },
    });
    if (this.up) return true;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      timer = setTimeout(resolve, timeoutMs);
    });
    clearTimeout(timer);
    return this.up && !this.closed;
  }

  /** Adds a stream; returns its removal. */
  add(s: Subscriber): () => void {
    this.subscribers.add(s);
    this.recheckTimer ??= setInterval(() => void this.recheckUsers().catch((err) => this.recheckFailed(err)), this.o.recheckMs).unref();
    return () => {
      this.subscribers.delete(s);
      if (this.subscribers.size === 0) this.stopRechecks();
    };
  }

  /** Open streams of one user. */
  streamsOf(userId: string): number {
    let n = 0;
    for (const s of this.subscribers) if (s.userId === userId) n++;
    return n;
  }

  /** Ends every stream and stops listening: for shutdown (`app.close()` must not wait on open streams). */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopRechecks();
    this.endAll();
    for (const resolve of this.waiting.splice(0)) resolve();
    await this.listener?.stop();
  }

  private stopRechecks(): void {
    clearInterval(this.recheckTimer);
    this.recheckTimer = undefined;
  }

  private recheckFailed(err: unknown): void {
    this.o.log.error({ err }, 'reading the users of live streams failed; they are read again at the next flush or interval');
  }

  /**
   * Reads the users of all open streams in one query (and their signed-out tokens in another): a
   * stream whose user is gone, inactive, signed out, or whose password or session stamp changed
   * since its token was issued ends; the others take the user's current
   * superuser flag.
   */
  private async recheckUsers(): Promise<void> {
    if (this.subscribers.size === 0) return;
    const ids = [...new Set([...this.subscribers].map((s) => s.userId))];
    const rows = await this.o.db
      .select({
        id: users.id,
        active: users.is_active,
        superuser: users.is_superuser,
        stamp: users.password_changed_at,
        session: users.session_stamp,
      })
      .from(users)
      .where(inArray(users.id, ids));
    const tokenIds = [...this.subscribers].map((s) => s.tokenId);
    const revoked = new Set(
      (await this.o.db.select({ jti: revokedTokens.jti }).from(revokedTokens).where(inArray(revokedTokens.jti, tokenIds))).map(
        (r) => r.jti,
      ),
    );
    const current = new Map(rows.map((r) => [r.id, r]));
    for (const s of [...this.subscribers]) {
      const u = current.get(s.userId);
      if (!u?.active || u.stamp.getTime() !== s.passwordStamp || u.session.getTime() !== s.sessionStamp || revoked.has(s.tokenId)) {
        this.subscribers.delete(s);
        s.end();
      } else s.superuser = u.superuser;
    }
    if (this.subscribers.size === 0) this.stopRechecks();
  }

  private endAll(): void {
    const all = [...this.subscribers];
    this.subscribers.clear();
    for (const s of all) s.end();
  }

  private received(payload: string): void {
    try {
      const { jobs: changes, notified } = decodeLiveEvents(payload);
      for (const change of changes) addChange(this.pending, change);
      for (const user of notified) this.notified.add(user);
    } catch (err) {
      this.o.log.error({ err }, 'a job event could not be read; ignored');
      return;
    }
    if (!this.timer && !this.closed) this.timer = setTimeout(() => void this.flush(), this.o.intervalMs);
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const changes = this.pending;
    this.pending = new Map();
    const notified = this.notified;
    this.notified = new Set();
    if (this.subscribers.size === 0) return;
    try {
      // Nobody hears of a job on the strength of a session that has ended meanwhile.
      await this.recheckUsers();
      const owners = await this.ownersOf(changes);
      for (const s of this.subscribers) {
        const visible = s.superuser ? [...owners.keys()] : [...owners].filter(([, owner]) => owner === s.userId).map(([id]) => id);
        if (visible.length) s.send(visible);
      }
      const unread = await this.unreadCounts(notified);
      for (const s of this.subscribers) {
        const n = unread.get(s.userId);
        if (n !== undefined) s.notify(n);
      }
    } catch (err) {
      this.o.log.error({ err, jobs: changes.size }, 'delivering job events failed; pages catch up at their next event');
    }
  }

  /** The unread notification count of each notified user with an open stream here (one query for all). */
  private async unreadCounts(notified: Set<string>): Promise<Map<string, number>> {
    const listening = [...notified].filter((id) => this.streamsOf(id) > 0);
    if (listening.length === 0) return new Map();
    const rows = await this.o.db
      .select({ user: notifications.user_id, n: count() })
      .from(notifications)
      .where(and(inArray(notifications.user_id, listening), isNull(notifications.read_at)))
      .groupBy(notifications.user_id);
    // A user whose notifications were all read has no row: their count is 0.
    const counts = new Map(listening.map((id) => [id, 0]));
    for (const r of rows) counts.set(r.user, r.n);
    return counts;
  }

  /** Each changed job's owner: as notified, else from the jobs table (a job gone meanwhile is left out). */
  private async ownersOf(changes: Map<number, string | undefined>): Promise<Map<number, string>> {
    const owners = new Map<number, string>();
    const unknown: number[] = [];
    for (const [id, owner] of changes) {
      if (owner === undefined) unknown.push(id);
      else owners.set(id, owner);
    }
    if (unknown.length) {
      const rows = await this.o.db.select({ id: jobs.id, owner: jobs.owner_id }).from(jobs).where(inArray(jobs.id, unknown));
      for (const r of rows) owners.set(r.id, r.owner);
    }
    return owners;
  }
}
