// Reads a server-sent event stream over real HTTP (inject waits for a response's end, which a
// stream never reaches), as the browser does: fetch with a bearer token, parsed by eventsource-parser.
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface EventStream {
  status: number;
  /** Every event received so far (comments excluded). */
  events: EventSourceMessage[];
  /** Heartbeat comments received so far. */
  comments: number;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  /** Waits until an event matches, failing after `timeoutMs`. */
  waitFor(match: (e: EventSourceMessage) => boolean, timeoutMs?: number): Promise<EventSourceMessage>;
  /** The job ids of every `jobs` event so far. */
  jobIds(): number[];
  close(): void;
}

export async function openEventStream(url: string, token?: string): Promise<EventStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: abort.signal });
  const events: EventSourceMessage[] = [];
  const stream: EventStream = {
    status: res.status,
    events,
    comments: 0,
    ended: Promise.resolve(),
    async waitFor(match, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = events.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
        await sleep(20);
      }
    },
    jobIds: () => events.filter((e) => e.event === 'jobs').flatMap((e) => (JSON.parse(e.data) as { ids: number[] }).ids),
    close: () => abort.abort(),
  };
  if (!res.ok || !res.body) {
    await res.body?.cancel();
    return stream;
  }
  const parser = createParser({
    onEvent: (e) => events.push(e),
    onComment: () => stream.comments++,
  });
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  stream.ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(value);
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
  })();
  return stream;
}
