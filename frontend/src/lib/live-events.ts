// Live job events and the bell's unread count (GET /api/v1/jobs/events, server-sent events): read
// with fetch, since EventSource cannot send the bearer token (and a token in the URL would end up in
// logs). Whether the stream is
// live is kept here, so lists poll only while it is not (useLiveFallbackInterval).
import { createParser } from 'eventsource-parser';
import { doublingDelayMs } from '@app/domain/backoff';

export const JOB_EVENTS_URL = '/api/v1/jobs/events';

/** `notifications`: the user's notifications changed (a watch fired, some were read); the unread count now. */
export type LiveEvent = { kind: 'ready' } | { kind: 'jobs'; ids: number[] } | { kind: 'notifications'; unreadCount: number };

let connected = false;
const listeners = new Set<() => void>();

export function isLiveConnected(): boolean {
  return connected;
}

export function setLiveConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  for (const l of listeners) l();
}

export function subscribeLiveConnected(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Thrown when the server refuses the stream; `status` says whether trying again can help. */
export class LiveStreamError extends Error {
  constructor(readonly status: number | undefined) {
    super(`live updates unavailable${status ? ` (${status})` : ''}`);
  }
}

/** Reads one stream until it ends (resolves) or fails (rejects); events go to `onEvent` as they come. */
export async function readJobEvents(token: string, signal: AbortSignal, onEvent: (e: LiveEvent) => void): Promise<void> {
  const res = await fetch(JOB_EVENTS_URL, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' }, signal });
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    throw new LiveStreamError(res.status);
  }
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === 'ready') onEvent({ kind: 'ready' });
      else if (e.event === 'jobs') onEvent({ kind: 'jobs', ids: (JSON.parse(e.data) as { ids: number[] }).ids });
      else if (e.event === 'notifications')
        onEvent({ kind: 'notifications', unreadCount: (JSON.parse(e.data) as { unreadCount: number }).unreadCount });
    },
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

/** Wait before reconnecting after `failures` failed tries in a row: 1 s doubled, at most 30 s. */
export function reconnectDelay(failures: number): number {
  return doublingDelayMs(failures, 1000, 30_000);
}
