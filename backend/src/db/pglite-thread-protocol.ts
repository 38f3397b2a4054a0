// The messages between the API's thread and the thread that runs embedded PGlite (pglite-thread.ts
// and pglite-thread-body.ts). Only structured-clonable values cross: functions (drizzle's identity
// parsers) travel as the type ids they apply to, errors as their fields, COPY's blob as bytes.

export interface OpenRequest {
  dataDir?: string;
  /** A data directory's copy to start from (dumpPgliteSnapshot), as bytes. */
  snapshot?: Uint8Array<ArrayBuffer>;
}

export type Request =
  | { id: number; op: 'query'; sql: string; params?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[] }
  | { id: number; op: 'exec'; sql: string }
  | { id: number; op: 'listen'; listener: number; channel: string }
  | { id: number; op: 'unlisten'; listener: number }
  | { id: number; op: 'close' };

/** A PostgreSQL error's fields (code, detail, constraint, …) beside its message. */
export type ErrorFields = { message: string; name?: string } & Record<string, unknown>;

export interface QueryResult {
  rows: unknown[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
  /** COPY … TO '/dev/blob': the blob's bytes (a Blob is rebuilt from them on the API's side). */
  blobBytes?: Uint8Array<ArrayBuffer>;
}

export type Reply =
  | { type: 'reply'; id: number; ok: true; result?: QueryResult }
  | { type: 'reply'; id: number; ok: false; error: ErrorFields }
  | { type: 'notify'; listener: number; payload: string }
  | { type: 'ready' }
  | { type: 'failed'; error: ErrorFields };

/** An error's own fields, so PostgreSQL's `code` and `detail` survive the crossing. */
export function errorFields(err: unknown): ErrorFields {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: ErrorFields = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'object') continue;
    fields[key] = value;
  }
  return fields;
}

/** The error rebuilt on the API's side, with the same fields the engine's own error carried. */
export function errorFromFields(fields: ErrorFields): Error {
  const { message, name, ...rest } = fields;
  const err = new Error(message);
  if (name) err.name = name;
  return Object.assign(err, rest);
}
