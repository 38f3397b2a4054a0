// "These jobs changed": said by whatever process changes a job (the worker as lookups finish, the
// API as jobs are created or acted on), heard by every API process through PostgreSQL's
// LISTEN/NOTIFY (live/hub.ts), so live updates work across processes, not only within one.
// A writer collects the jobs it touched and sends one notification per interval at most: a busy
// worker sends a few a second, not one per batch.
import { param, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Logger } from './logging.ts';

export const JOB_EVENTS_CHANNEL = 'job_events';

/** A changed job; `owner` is given when the job may be gone (deleted), so its owner still hears of it. */
export interface JobChange {
  id: number;
  owner?: string;
}

/** One notification's payload: `[id, …]` entries, or `[id, owner]` pairs where the owner was given. */
type Payload = (number | [number, string])[];

/** NOTIFY payloads must stay under 8000 bytes: bigger flushes are split. */
const MAX_PAYLOAD_BYTES = 7000;

export function encodeJobChanges(changes: JobChange[]): string[] {
  const chunks: string[] = [];
  let entries: string[] = [];
  let size = 2;
  for (const c of changes) {
    const entry = JSON.stringify(c.owner === undefined ? c.id : [c.id, c.owner]);
    if (entries.length && size + entry.length + 1 > MAX_PAYLOAD_BYTES) {
      chunks.push(`[${entries.join(',')}]`);
      entries = [];
      size = 2;
    }
    entries.push(entry);
    size += entry.length + 1;
  }
  if (entries.length) chunks.push(`[${entries.join(',')}]`);
  return chunks;
}

/** The changes in a payload; anything malformed is thrown as an Error (the listener logs it). */
export function decodeJobChanges(payload: string): JobChange[] {
  return decodeLiveEvents(payload).jobs;
}

/**
 * A payload's job changes and the users whose notifications changed (`{"notified": userId}`
 * entries, sent by watches/ as a watch fires or notifications are read, so a bell shows the new
 * unread count without polling). One channel for both: each API process keeps one LISTEN.
 */
export function decodeLiveEvents(payload: string): { jobs: JobChange[]; notified: string[] } {
  const parsed = JSON.parse(payload) as Payload;
  if (!Array.isArray(parsed)) throw new Error(`job event payload is not a list: ${payload.slice(0, 100)}`);
  const jobs: JobChange[] = [];
  const notified: string[] = [];
  for (const e of parsed as unknown[]) {
    if (Number.isInteger(e)) jobs.push({ id: e as number });
    else if (Array.isArray(e) && Number.isInteger(e[0]) && typeof e[1] === 'string') jobs.push({ id: e[0], owner: e[1] });
    else if (isNotified(e)) notified.push(e.notified);
    else throw new Error(`job event entry is malformed: ${JSON.stringify(e).slice(0, 100)}`);
  }
  return { jobs, notified };
}

const isNotified = (e: unknown): e is { notified: string } =>
  typeof e === 'object' && e !== null && typeof (e as { notified?: unknown }).notified === 'string';

/**
 * `SELECT pg_notify(…)` telling every API process that the users `userIds` (a query of user ids as
 * `user_id`) have new or newly read notifications. Sent inside the transaction that changed them,
 * it is delivered at commit, and not at all on a rollback.
 */
export const notifyUsersSql = (userIds: SQL) =>
  sql`SELECT pg_notify(${JOB_EVENTS_CHANNEL}, json_build_array(json_build_object('notified', u.user_id::text))::text) FROM (${userIds}) u`;

/** Tells the users' live streams that their notifications changed (outside a transaction of the caller's). */
export async function notifyUsers(db: Db, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.execute(notifyUsersSql(sql`SELECT DISTINCT unnest(${param([...userIds])}::uuid[]) AS user_id`));
}

/** Adds a change to those waiting to be sent: a job named twice is kept once, with its owner if either named it. */
export function addChange(pending: Map<number, string | undefined>, { id, owner }: JobChange): void {
  if (owner !== undefined || !pending.has(id)) pending.set(id, owner);
}

export class JobEvents {
  private pending = new Map<number, string | undefined>();
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly intervalMs: number,
    private readonly log: Pick<Logger, 'error'>,
  ) {}

  /**
   * Says these jobs changed (progress, status, name…); their viewers hear of it within the interval.
   * Give `owner` when the job is being deleted: afterwards nobody could look it up.
   */
  touched(jobIds: number | readonly number[], owner?: string): void {
    for (const id of typeof jobIds === 'number' ? [jobIds] : jobIds) addChange(this.pending, { id, owner });
    if (this.pending.size && !this.timer && !this.closed) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
    }
  }

  /** Sends what is pending now. Failures are logged: a missed event only delays a screen until its next one. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const changes = [...this.pending].map(([id, owner]) => (owner === undefined ? { id } : { id, owner }));
    this.pending.clear();
    if (changes.length === 0) return this.sending;
    this.sending = this.sending.then(() => this.send(changes));
    return this.sending;
  }

  /** Sends what is pending and stops: for shutdown, before the database closes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async send(changes: JobChange[]): Promise<void> {
    try {
      // Raw SQL: pg_notify is a function call the query builder has no verb for; every chunk in one statement.
      await this.db.execute(sql`SELECT pg_notify(${JOB_EVENTS_CHANNEL}, p) FROM unnest(${param(encodeJobChanges(changes))}::text[]) AS p`);
    } catch (err) {
      this.log.error({ err, jobs: changes.length }, 'sending job events failed; open pages catch up at their next event');
    }
  }
}
