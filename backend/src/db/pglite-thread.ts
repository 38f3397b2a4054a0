// Embedded PGlite on a thread of its own, behind the part of PGlite's interface drizzle and we use.
// PGlite runs every statement synchronously: on the API's thread, a lookups page over 600k rows or a
// write-back step blocked health checks, live streams and every other request for its whole length
// (issue 29: 1.4 s stalls of the liveness check during a 150k × 4 paste). Here the API's thread only
// waits for a message, and keeps answering meanwhile.
//
// PGlite is one session, so statements are sent one at a time and a transaction holds the session
// from BEGIN to COMMIT, as PGlite's own mutex does in process; waiting people go before waiting
// background work (db/work-lane.ts).
import { Worker } from 'node:worker_threads';
import type { DbLog } from './log.ts';
import { SessionLock, type SessionActivity } from './session-lock.ts';
import type { EmbeddedEngine, EmbeddedQueryOptions, EmbeddedResults, EmbeddedTx } from './embedded-engine.ts';
import { errorFromFields, type OpenRequest, type QueryResult, type Reply, type Request } from './pglite-thread-protocol.ts';

const ENTRY = new URL('./pglite-thread-entry.mjs', import.meta.url);

type Pending = { resolve: (result: QueryResult | undefined) => void; reject: (err: Error) => void };
type Outgoing = Request extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class PgliteThread implements EmbeddedEngine {
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private readonly lock = new SessionLock();
  private nextId = 1;
  private failure: Error | undefined;
  closed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly log: DbLog,
  ) {
    worker.on('message', (reply: Reply) => this.receive(reply));
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the database thread stopped (exit code ${code})`)));
  }

  /** Starts the thread and resolves once its database is open and migrated. */
  static start(open: OpenRequest, log: DbLog): Promise<PgliteThread> {
    const worker = new Worker(ENTRY, {
      workerData: open,
      transferList: open.snapshot ? [open.snapshot.buffer] : [],
    });
    return new Promise((resolve, reject) => {
      const onStart = (reply: Reply) => {
        if (reply.type === 'ready') {
          worker.off('message', onStart);
          resolve(new PgliteThread(worker, log));
        } else if (reply.type === 'failed') {
          worker.off('message', onStart);
          void worker.terminate();
          reject(errorFromFields(reply.error));
        }
      };
      worker.on('message', onStart);
      worker.once('error', reject);
    });
  }

  activity(): SessionActivity {
    return this.lock.activity();
  }

  query<T>(sql: string, params?: unknown[], options?: EmbeddedQueryOptions): Promise<EmbeddedResults<T>> {
    return this.lock.hold(() => this.sendQuery<T>(sql, params, options));
  }

  exec(sql: string): Promise<unknown> {
    return this.lock.hold(() => this.send({ op: 'exec', sql }));
  }

  transaction<T>(work: (tx: EmbeddedTx) => Promise<T>): Promise<T> {
    return this.lock.hold(async () => {
      await this.send({ op: 'exec', sql: 'BEGIN' });
      let closed = false;
      const tx: EmbeddedTx = {
        query: (sql, params, options) => this.sendQuery(sql, params, options),
        exec: (sql) => this.send({ op: 'exec', sql }),
        rollback: async () => {
          await this.send({ op: 'exec', sql: 'ROLLBACK' });
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await work(tx);
        if (!closed) await this.send({ op: 'exec', sql: 'COMMIT' });
        return result;
      } catch (err) {
        if (!closed && !this.failure) await this.send({ op: 'exec', sql: 'ROLLBACK' });
        throw err;
      }
    });
  }

  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.nextId++;
    this.listeners.set(listener, callback);
    await this.send({ op: 'listen', listener, channel });
    return async () => {
      this.listeners.delete(listener);
      if (!this.closed) await this.send({ op: 'unlisten', listener });
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.hold(async () => {
      await this.send({ op: 'close' }).catch(() => {});
      this.closed = true;
    });
    await this.worker.terminate();
  }

  private async sendQuery<T>(sql: string, params?: unknown[], options?: EmbeddedQueryOptions): Promise<EmbeddedResults<T>> {
    const rawTypes = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    const result = await this.send({ op: 'query', sql, params, rowMode: options?.rowMode, rawTypes });
    if (!result) throw new Error('the database thread answered a query without rows');
    const { blobBytes, ...rest } = result;
    return { ...rest, rows: rest.rows as T[], blob: blobBytes ? new Blob([blobBytes]) : undefined };
  }

  private send(req: Outgoing): Promise<QueryResult | undefined> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('the embedded database is closed'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  private receive(reply: Reply): void {
    if (reply.type === 'notify') {
      this.listeners.get(reply.listener)?.(reply.payload);
      return;
    }
    if (reply.type !== 'reply') return;
    const waiting = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (!waiting) return;
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(errorFromFields(reply.error));
  }

  private fail(err: Error): void {
    if (this.failure || this.closed) return;
    this.failure = err;
    this.closed = true;
    this.log.error(`database: ${err.message}`);
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}
