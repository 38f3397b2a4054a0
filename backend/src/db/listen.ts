// LISTEN on a notification channel, over whichever engine was opened. On PostgreSQL a dedicated
// pg.Client (a pool connection would be handed to other queries and lose the LISTEN), reconnected
// with backoff when the server drops it; on PGlite the one instance (in process or on its thread), which
// delivers the NOTIFYs of every query run through it.
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { DbLog } from './log.ts';
import type { EmbeddedEngine } from './embedded-engine.ts';
import { doublingDelayMs } from '@app/domain/backoff';

export interface ListenHandlers {
  /** A notification's payload. */
  message(payload: string): void;
  /** LISTEN is in place (at start and after every reconnect): notifications flow from now on. */
  up(): void;
  /** The connection was lost: notifications sent until the next up() are missed. */
  down(): void;
}

/** Listens on `channel` until the returned stop() resolves. */
export type Listen = (channel: string, handlers: ListenHandlers) => { stop(): Promise<void> };

export const RECONNECT_MIN_MS = 100;
export const RECONNECT_MAX_MS = 10_000;

export function pgListen(url: string, log: DbLog): Listen {
  return (channel, handlers) => {
    let stopped = false;
    let client: pg.Client | undefined;
    const wake = new AbortController();
    const run = async () => {
      let failures = 0;
      while (!stopped) {
        const c = new pg.Client({ connectionString: url });
        client = c;
        const lost = new Promise<Error>((resolve) => {
          c.on('error', resolve);
          c.on('end', () => resolve(new Error('connection ended')));
        });
        c.on('notification', (n) => {
          if (n.channel === channel) handlers.message(n.payload ?? '');
        });
        try {
          await c.connect();
          await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (err) {
          c.end().catch(() => {}); // already broken: its own error is the one logged below
          if (stopped) return;
          const delay = doublingDelayMs(++failures, RECONNECT_MIN_MS, RECONNECT_MAX_MS);
          log.warn(`database: listening on ${channel} failed (${(err as Error).message}); retrying in ${delay} ms`);
          await sleep(delay, undefined, { signal: wake.signal }).catch(() => {});
          continue;
        }
        failures = 0;
        handlers.up();
        const err = await lost;
        if (stopped) return;
        handlers.down();
        log.warn(`database: the connection listening on ${channel} was lost (${err.message}); reconnecting`);
        c.end().catch(() => {}); // broken already; ending it only frees the socket
      }
    };
    const running = run();
    return {
      async stop() {
        stopped = true;
        wake.abort();
        await client?.end().catch((err: Error) => log.warn(`database: closing the ${channel} listener: ${err.message}`));
        await running;
      },
    };
  };
}

export function pgliteListen(lite: EmbeddedEngine, log: DbLog): Listen {
  return (channel, handlers) => {
    const unlisten = lite.listen(channel, handlers.message).then(
      (off) => {
        handlers.up();
        return off;
      },
      (err: Error) => {
        log.error(`database: listening on ${channel} failed: ${err.message}`);
        return undefined;
      },
    );
    return {
      async stop() {
        const off = await unlisten;
        if (!lite.closed) await off?.();
      },
    };
  };
}
