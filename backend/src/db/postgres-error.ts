// The PostgreSQL error code of a failed statement, on either engine: node-postgres and PGlite set
// `code`, and drizzle wraps the driver's error as its `cause`.
export function postgresErrorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } } | undefined;
  const code = e?.cause?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}
