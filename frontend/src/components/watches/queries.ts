// Every query and request of watches and notifications, in one module: the book and job pages'
// watch sections, the bell, the notifications page and the live stream's handler all go through it.
// Queries and keys are the generated client's (client/@tanstack); none is typed by hand.
import { NOTIFICATIONS_PAGE_SIZE } from '@app/domain/watches';
import type { QueryClient } from '@tanstack/react-query';
import { createWatch, deleteWatch, markNotificationsRead, updateWatch } from '../../client/sdk.gen';
import {
  readNotificationsOptions,
  readNotificationsQueryKey,
  readUnreadCountOptions,
  readUnreadCountQueryKey,
  readWatchesOptions,
  readWatchesQueryKey,
} from '../../client/@tanstack/react-query.gen';
import type { UnreadCount, WatchCreateInput } from '../../client/types.gen';
import { everyCall, invalidateAll } from '../../lib/query-keys';

/** What a watch is of: one book or one job. */
export type WatchTarget = { isbn: string } | { jobId: number };

export const watchesKey = (target: WatchTarget) => readWatchesQueryKey({ query: target });

export const watchesQuery = (target: WatchTarget) => readWatchesOptions({ query: target });

export type WatchBody = Required<Pick<WatchCreateInput, 'name' | 'conditions' | 'email'>>;

/** Saves a watch: a new one of `target`, or the changes to watch `id`. */
export async function saveWatch(target: WatchTarget, id: number | undefined, body: WatchBody) {
  if (id !== undefined) return (await updateWatch({ path: { id }, body })).data;
  return (await createWatch({ body: { ...target, ...body } })).data;
}

export const removeWatch = async (id: number) => (await deleteWatch({ path: { id } })).data;

export const unreadCountQuery = readUnreadCountOptions();

/** usePagedQuery's options for the notifications page (the API pages by number, 20 a page). */
export const notificationsPaged = {
  pageSize: NOTIFICATIONS_PAGE_SIZE,
  pageQuery: ({ skip, limit }: { skip: number; limit: number }) =>
    readNotificationsOptions({ query: { page: Math.floor(skip / limit) + 1 } }),
};

/** Marks these notifications read (all of the user's when `ids` is missing); answers the unread count. */
export const markRead = async (ids?: number[]) => (await markNotificationsRead({ body: ids ? { ids } : {} })).data;

/**
 * The user's notifications changed (the live stream said so, or they were read here): the bell
 * shows `unread` at once, and the notifications pages are read again, and the watches shown (a
 * watch that fired reads "Fired" now).
 */
export async function notificationsChanged(queryClient: QueryClient, unread: UnreadCount): Promise<void> {
  queryClient.setQueryData(readUnreadCountQueryKey(), unread);
  await invalidateAll(queryClient, [everyCall(readNotificationsQueryKey), everyCall(readWatchesQueryKey)]);
}

/** After a reconnect anything may have been missed: the count and the pages are read again. */
export const refetchNotifications = (queryClient: QueryClient) =>
  invalidateAll(queryClient, [everyCall(readUnreadCountQueryKey), everyCall(readNotificationsQueryKey)]);
