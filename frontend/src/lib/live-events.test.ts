import { afterEach, describe, expect, it, vi } from 'vitest';
import { type LiveEvent, LiveStreamError, readJobEvents } from './live-events';

afterEach(() => vi.unstubAllGlobals());

/** A stream answering `chunks` one after another, as the server writes them. */
function streamOf(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

describe('the live stream', () => {
  it('reads ready, the jobs that changed and the unread count, however the bytes are split, heartbeats ignored', async () => {
    const fetch = vi.fn(async () =>
      streamOf([
        'event: ready\ndata: {}\n\n: ping\n\nevent: jo',
        'bs\ndata: {"ids":[4,7]}\n\nevent: notifications\ndata: {"unread',
        'Count":3}\n\n',
      ]),
    );
    vi.stubGlobal('fetch', fetch);
    const events: LiveEvent[] = [];
    await readJobEvents('token-1', new AbortController().signal, (e) => events.push(e));
    expect(events).toEqual([{ kind: 'ready' }, { kind: 'jobs', ids: [4, 7] }, { kind: 'notifications', unreadCount: 3 }]);
    expect(fetch).toHaveBeenCalledWith(
      '/api/v1/jobs/events',
      expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'Bearer token-1' }) }),
    );
  });

  it('says why when the server refuses it', async () => {
    vi.stubGlobal('fetch', async () => new Response('{"detail":"nope"}', { status: 403 }));
    const failure = readJobEvents('token-1', new AbortController().signal, () => {});
    await expect(failure).rejects.toBeInstanceOf(LiveStreamError);
    await expect(failure).rejects.toHaveProperty('status', 403);
  });
});
