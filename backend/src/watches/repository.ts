// Watches and notifications as stored: everyone sees and changes only their own (superusers too: a
// watch is a personal alert, not shared data). Someone else's watch is "not found".
import { and, count, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Filter } from '@app/domain/fields';
import type { Db } from '../db/client.ts';
import { notifications, watchStates, watches } from '../db/schema.ts';
import type { Page } from '../db/page.ts';

type Owner = { id: string };

export type WatchRow = typeof watches.$inferSelect;

export interface NewWatch {
  isbn: string | null;
  jobId: number | null;
  name: string | null;
  conditions: Filter[];
  email: boolean;
}

export interface WatchChange {
  name?: string | null;
  conditions?: Filter[];
  email?: boolean;
}

/** The user's watches, newest first, of one book or one job when asked. */
export async function listWatches(db: Db, user: Owner, by: { isbn?: string | undefined; jobId?: number | undefined }) {
  const where = and(
    eq(watches.user_id, user.id),
    by.isbn === undefined ? undefined : eq(watches.isbn, by.isbn),
    by.jobId === undefined ? undefined : eq(watches.job_id, by.jobId),
  );
  const rows = await db.select().from(watches).where(where).orderBy(desc(watches.id));
  return { data: rows, count: rows.length };
}

export async function createWatch(db: Db, user: Owner, w: NewWatch): Promise<WatchRow> {
  const [row] = await db
    .insert(watches)
    .values({ user_id: user.id, isbn: w.isbn, job_id: w.jobId, name: w.name, conditions: w.conditions, email: w.email })
    .returning();
  if (!row) throw new Error('INSERT … RETURNING returned no row');
  return row;
}

const own = (user: Owner, id: number): SQL | undefined => and(eq(watches.id, id), eq(watches.user_id, user.id));

/**
 * Changes the user's watch; undefined when it is not theirs. New conditions are a new question:
 * every book of the watch is armed again (its last firing still counts for the day's limit).
 */
export async function updateWatch(db: Db, user: Owner, id: number, change: WatchChange): Promise<WatchRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(watches)
      .set({ ...change, ...(change.conditions ? { armed: true } : {}) })
      .where(own(user, id))
      .returning();
    if (row && change.conditions) await tx.update(watchStates).set({ armed: true }).where(eq(watchStates.watch_id, id));
    return row;
  });
}

/** Deletes the user's watch (its notifications stay, without it); false when it is not theirs. */
export async function deleteWatch(db: Db, user: Owner, id: number): Promise<boolean> {
  const gone = await db.delete(watches).where(own(user, id)).returning({ id: watches.id });
  return gone.length > 0;
}

/** Turns these watches' email off, whoever asks (the caller proved the link was ours); the ids of those still there. */
export async function stopWatchEmail(db: Db, ids: readonly number[]): Promise<number[]> {
  const stopped = await db
    .update(watches)
    .set({ email: false })
    .where(inArray(watches.id, [...ids]))
    .returning({ id: watches.id });
  return stopped.map((r) => r.id);
}

export async function unreadCount(db: Db, user: Owner): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.user_id, user.id), isNull(notifications.read_at)));
  return row?.n ?? 0;
}

/** A page of the user's notifications, newest first, with the total and the unread count. */
export async function listNotifications(db: Db, user: Owner, page: Page) {
  const mine = eq(notifications.user_id, user.id);
  const data = await db
    .select({
      id: notifications.id,
      watch_id: notifications.watch_id,
      isbn: notifications.isbn,
      job_id: notifications.job_id,
      message: notifications.message,
      created_at: notifications.created_at,
      read_at: notifications.read_at,
    })
    .from(notifications)
    .where(mine)
    .orderBy(desc(notifications.id))
    .offset(page.skip)
    .limit(page.limit);
  const [total] = await db.select({ n: count() }).from(notifications).where(mine);
  return { data, count: total?.n ?? 0, unreadCount: await unreadCount(db, user) };
}

/** Marks the user's notifications read (these ids, or all of them); returns the unread count after. */
export async function markRead(db: Db, user: Owner, ids: readonly number[] | undefined): Promise<number> {
  await db
    .update(notifications)
    .set({ read_at: sql`now()` })
    .where(and(eq(notifications.user_id, user.id), isNull(notifications.read_at), ids ? inArray(notifications.id, [...ids]) : undefined));
  return unreadCount(db, user);
}
