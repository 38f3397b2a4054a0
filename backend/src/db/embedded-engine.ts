// What the app needs of embedded PGlite, whether it runs in process (tests, scripts) or on its own
// thread (the API: pglite-thread.ts). PGlite itself has this shape; drizzle's PGlite driver calls
// query() and transaction() only.
import type { SessionActivity } from './session-lock.ts';
export interface EmbeddedQueryOptions {
  rowMode?: 'array' | 'object';
  /** Per type id, how to read a value; drizzle passes identity functions (keep the text). */
  parsers?: Record<number, (value: string, typeId: number) => unknown>;
}

export interface EmbeddedResults<T> {
  rows: T[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  /** COPY … TO '/dev/blob' hands its output back here. */
  blob?: Blob;
}

export interface EmbeddedTx {
  query<T>(sql: string, params?: unknown[], options?: EmbeddedQueryOptions): Promise<EmbeddedResults<T>>;
  exec(sql: string): Promise<unknown>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export interface EmbeddedEngine {
  query<T>(sql: string, params?: unknown[], options?: EmbeddedQueryOptions): Promise<EmbeddedResults<T>>;
  exec(sql: string): Promise<unknown>;
  transaction<T>(work: (tx: EmbeddedTx) => Promise<T>): Promise<T>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  readonly closed: boolean;
  close(): Promise<void>;
  /** On its own thread: what the one session is doing, without asking it (readiness). */
  activity?(): SessionActivity;
}
