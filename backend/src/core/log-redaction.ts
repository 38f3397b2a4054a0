// Errors as logged: pino's standard shape, without the values a failed database statement carried.
// Drizzle's DrizzleQueryError keeps the statement's parameters (emails, password hashes, tokens) in
// `params` and repeats them in its message and stack; a server error's `detail` quotes row values
// ("Key (email)=(…) already exists", "Failing row contains (…)").
import { pino } from 'pino';

export const REDACTED = '[redacted]';

type Serialized = ReturnType<typeof pino.stdSerializers.err>;

export function errorForLog(err: unknown): Serialized {
  const out = pino.stdSerializers.err(err as Error);
  if (!(err instanceof Error)) return out;
  for (const e of causeChain(err)) {
    if (Array.isArray(e.params)) {
      // The exact line DrizzleQueryError writes, so a value holding a newline goes with it.
      const said = `\nparams: ${e.params}`;
      out.message = out.message.replaceAll(said, `\nparams: ${REDACTED}`);
      out.stack = out.stack.replaceAll(said, `\nparams: ${REDACTED}`);
    }
  }
  const fields = out as unknown as Record<string, unknown>;
  if ('params' in fields) fields.params = REDACTED;
  if (isServerError(err)) fields.detail = REDACTED;
  return out;
}

/** The error and its causes (as pino's message and stack join them), guarded against cycles. */
function causeChain(err: Error): (Error & { params?: unknown })[] {
  const chain: Error[] = [];
  for (let e: unknown = err; e instanceof Error && !chain.includes(e); e = e.cause) chain.push(e);
  return chain;
}

/** A PostgreSQL server error (node-postgres or PGlite): its detail line may quote values. */
function isServerError(err: Error): boolean {
  const e = err as Error & { severity?: unknown; detail?: unknown };
  return typeof e.severity === 'string' && typeof e.detail === 'string';
}
