// Every query key and request of watches and notifications, in one module: the book and job pages'
// watch sections, the bell, the notifications page and the live stream's handler all go through it.
//   ['watches', {isbn} | {jobId}]          the watches of one book or one job
//   ['notifications', 'unread']            the bell's count (set from the live stream as it changes)
//   ['notifications', 'list', {page, …}]   a page of the notifications page
import { NOTIFICATIONS_PAGE_SIZE } from '@app/domain/watches';
import type { QueryClient } from '@tanstack/react-query';
import {
  createWatch,
  deleteWatch,
  markNotificationsRead,
  readNotifications,
  readUnreadCount,
  readWatches,
  updateWatch,
} from '../../client/sdk.gen';
import type { UnreadCount, WatchCreateInput } from '../../client/types.gen';

/** What a watch is of: one book or one job. */
export type WatchTarget = { isbn: string } | { jobId: number };

export const watchesKey = (target: WatchTarget) => ['watches', target] as const;

export const watchesQuery = (target: WatchTarget) => ({
  queryKey: watchesKey(target),
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await readWatches({ query: target, signal })).data,
});

export type WatchBody = Required<Pick<WatchCreateInput, 'name' | 'conditions' | 'email'>>;

/** Saves a watch: a new one of `target`, or the changes to watch `id`. */
export async function saveWatch(target: WatchTarget, id: number | undefined, body: WatchBody) {
  if (id !== undefined) return (await updateWatch({ path: { id }, body })).data;
  return (await createWatch({ body: { ...target, ...body } })).data;
}

export const removeWatch = async (id: number) => (await deleteWatch({ path: { id } })).data;

export const NOTIFICATIONS_KEY = ['notifications'] as const;
export const UNREAD_COUNT_KEY = [...NOTIFICATIONS_KEY, 'unread'] as const;
export const NOTIFICATIONS_LIST_KEY = [...NOTIFICATIONS_KEY, 'list'] as const;

export const unreadCountQuery = {
  queryKey: UNREAD_COUNT_KEY,
  queryFn: async ({ signal }: { signal: AbortSignal }) => (await readUnreadCount({ signal })).data,
};

/** usePagedQuery's options for the notifications page (the API pages by number, 20 a page). */
export const notificationsPaged = {
  queryKey: NOTIFICATIONS_LIST_KEY,
  pageSize: NOTIFICATIONS_PAGE_SIZE,
  fetchPage: async ({ skip, limit, signal }: { skip: number; limit: number; signal: AbortSignal }) =>
    (await readNotifications({ query: { page: Math.floor(skip / limit) + 1 }, signal })).data,
};

/** Marks these notifications read (all of the user's when `ids` is missing); answers the unread count. */
export const markRead = async (ids?: number[]) => (await markNotificationsRead({ body: ids ? { ids } : {} })).data;

/**
 * The user's notifications changed (the live stream said so, or they were read here): the bell
 * shows `unread` at once, and the notifications pages are read again, and the watches shown (a
 * watch that fired reads "Fired" now).
 */
export async function notificationsChanged(queryClient: QueryClient, unread: UnreadCount): Promise<void> {
  queryClient.setQueryData(UNREAD_COUNT_KEY, unread);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_LIST_KEY }),
    queryClient.invalidateQueries({ queryKey: ['watches'] }),
  ]);
}

/** After a reconnect anything may have been missed: the count and the pages are read again. */
export const refetchNotifications = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
