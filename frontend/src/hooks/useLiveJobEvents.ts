// Keeps the live job events stream open while signed in (mounted once, in AppLayout): every event
// refreshes the jobs tables and the job pages it names (lib/query-keys.ts); a notifications event
// sets the bell's count and refreshes the notifications page. Reconnects
// with backoff; while it is down, lists fall back to polling (useLiveFallbackInterval).
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import {
  LiveStreamError,
  isLiveConnected,
  readJobEvents,
  reconnectDelay,
  setLiveConnected,
  subscribeLiveConnected,
  type LiveEvent,
} from '../lib/live-events';
import { invalidateAll, jobPageKeys, jobsListKeys } from '../lib/query-keys';
import { getToken } from '../lib/session';
import { notificationsChanged, refetchNotifications } from '../components/watches/queries';

/**
 * A job page refetches at most once per this interval, the last event always answered: its
 * comparison of a 150k-ISBN job can take longer to read than the events' own interval (250 ms).
 */
export const JOB_PAGE_REFRESH_MS = 2000;

/** Runs `run(key)` at once, then at most once per `ms` per key, with a trailing run for events in between. */
export function throttlePerKey<K>(ms: number, run: (key: K) => void): { call: (key: K) => void; cancel: () => void } {
  const waiting = new Map<K, { timer: ReturnType<typeof setTimeout>; again: boolean }>();
  const open = (key: K) => {
    run(key);
    const timer = setTimeout(() => {
      const again = waiting.get(key)?.again;
      waiting.delete(key);
      if (again) open(key);
    }, ms);
    waiting.set(key, { timer, again: false });
  };
  return {
    call: (key) => {
      const w = waiting.get(key);
      if (w) w.again = true;
      else open(key);
    },
    cancel: () => {
      for (const w of waiting.values()) clearTimeout(w.timer);
      waiting.clear();
    },
  };
}

export function useLiveJobEvents(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const stop = new AbortController();
    // A refetch still running is let finish (cancelRefetch: false), or a slow page would never land.
    const jobPage = throttlePerKey(JOB_PAGE_REFRESH_MS, (id: number) =>
      invalidateAll(queryClient, jobPageKeys(id), { cancelRefetch: false }),
    );
    const onEvent = (e: LiveEvent) => {
      if (e.kind === 'ready') {
        // Live from now on; anything that changed before it may have been missed.
        setLiveConnected(true);
        void invalidateAll(queryClient, [...jobsListKeys(), ...jobPageKeys()]);
        void refetchNotifications(queryClient);
        return;
      }
      if (e.kind === 'notifications') {
        void notificationsChanged(queryClient, { unreadCount: e.unreadCount });
        return;
      }
      void invalidateAll(queryClient, jobsListKeys());
      for (const id of e.ids) jobPage.call(id);
    };
    void (async () => {
      let failures = 0;
      while (!stop.signal.aborted) {
        const token = getToken();
        if (!token) break; // logged out
        try {
          await readJobEvents(token, stop.signal, onEvent);
          failures = 0; // the server ended a working stream (restart, listener lost): reconnect soon
        } catch (err) {
          if (stop.signal.aborted) break;
          failures++;
          // A refused token ends the session elsewhere (the API's 403 handling); stop trying.
          if (err instanceof LiveStreamError && (err.status === 401 || err.status === 403)) break;
          console.warn('live updates: stream failed, pages poll until it is back', err);
        }
        setLiveConnected(false);
        await new Promise((resolve) => setTimeout(resolve, reconnectDelay(Math.max(1, failures))));
      }
      setLiveConnected(false);
    })();
    return () => {
      stop.abort();
      jobPage.cancel();
      setLiveConnected(false);
    };
  }, [queryClient]);
}

/** Whether the live stream is connected right now. */
export function useLiveConnected(): boolean {
  return useSyncExternalStore(subscribeLiveConnected, isLiveConnected);
}

/** `ms` while live updates are down (poll as before), false while they are live (no polling needed). */
export function useLiveFallbackInterval(ms: number): number | false {
  return useLiveConnected() ? false : ms;
}
