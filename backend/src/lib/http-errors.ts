// Errors are data: every failure leaves the server as {detail} with a status, never a stack trace.
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: string | ValidationIssue[],
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : 'Validation Error');
  }
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** A 422 naming the offending field, in FastAPI's shape. */
export function validationError(loc: (string | number)[], msg: string, type = 'value_error'): HttpError {
  return new HttpError(422, [{ loc, msg, type }]);
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const forbidden = (detail = "The user doesn't have enough privileges") => new HttpError(403, detail);

interface ZodLikeIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: (string | number)[]; code?: string; message?: string } };
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { validationContext?: string }, req, reply) => {
    if (err instanceof HttpError) {
      return reply.code(err.statusCode).headers(err.headers).send({ detail: err.detail });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      const detail: ValidationIssue[] = (err.validation as ZodLikeIssue[]).map((v) => {
        const issue = v.params?.issue;
        const path = issue?.path ?? (v.instancePath ?? '').split('/').filter(Boolean);
        return { loc: [where, ...path], msg: issue?.message ?? v.message ?? 'Invalid value', type: issue?.code ?? 'value_error' };
      });
      return reply.code(422).send({ detail });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): keep the message, drop the stack.
      return reply.code(status).send({ detail: err.message });
    }
    if (isDatabaseConnectionError(err)) {
      req.log.warn({ err }, 'database connection lost during a request');
      return reply.code(503).header('retry-after', '5').send({ detail: 'The database is unavailable. Please try again in a moment.' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
}

/** The database went away mid-request (admin shutdown, connection failure, a cut socket). */
function isDatabaseConnectionError(err: { code?: string; message?: string }): boolean {
  return /^(57P0[1-3]|08\d\d\d)$/.test(err.code ?? '') || /Connection terminated|ECONNRESET|ECONNREFUSED/.test(err.message ?? '');
}
