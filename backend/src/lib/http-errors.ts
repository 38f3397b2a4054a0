// Errors are data: every failure leaves the server as {detail} with a status, never a stack trace.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** A 422 naming the offending field (or each of several), in FastAPI's shape. */
export function validationError(issues: ValidationIssue[]): HttpError;
export function validationError(loc: (string | number)[], msg: string, type?: string): HttpError;
export function validationError(locOrIssues: (string | number)[] | ValidationIssue[], msg?: string, type = 'value_error'): HttpError {
  if (msg === undefined) return new HttpError(422, locOrIssues as ValidationIssue[]);
  return new HttpError(422, [{ loc: locOrIssues as (string | number)[], msg, type }]);
}

/** A problem found by a schema (zod's issues, the domain's rule checks): where, what, and zod's code when there is one. */
export interface SchemaIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
}

/** Schema issues as one 422, each located under `at` (e.g. ['body', 'config']). */
export function issuesToHttpError(at: (string | number)[], issues: readonly SchemaIssue[]): HttpError {
  return validationError(
    issues.map((i) => ({ loc: [...at, ...(i.path as (string | number)[])], msg: i.message, type: i.code ?? 'value_error' })),
  );
}

/** 429 with the seconds to wait, for a limit that was reached. */
export const tooManyRequests = (detail: string, waitSeconds: number) => new HttpError(429, detail, { 'retry-after': String(waitSeconds) });

/** 404 "<what> not found", or `detail` where the API has always worded it otherwise. */
export const notFound = (what: string, detail = `${what} not found`) => new HttpError(404, detail);
export const forbidden = (detail = "The user doesn't have enough privileges") => new HttpError(403, detail);

/** Fastify's names for the parts of a request → FastAPI's, which the API's 422s use. */
const FASTAPI_LOC: Record<string, string> = { params: 'path', querystring: 'query', headers: 'header', body: 'body' };

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
      const where = FASTAPI_LOC[err.validationContext ?? 'body'] ?? err.validationContext ?? 'body';
      const issues: SchemaIssue[] = (err.validation as ZodLikeIssue[]).map((v) => {
        const issue = v.params?.issue;
        // Array indices as numbers, as FastAPI sends them (the instance path spells them as text).
        const path =
          issue?.path ??
          (v.instancePath ?? '')
            .split('/')
            .filter(Boolean)
            .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
        return {
          path,
          message: issue?.message ?? v.message ?? 'Invalid value',
          ...(issue?.code === undefined ? {} : { code: issue.code }),
        };
      });
      return reply.code(422).send({ detail: issuesToHttpError([where], issues).detail });
    }
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, body too large, wrong content type): a fixed sentence
      // per status, since their messages can quote the request back.
      return reply.code(status).send({ detail: CLIENT_ERROR_DETAIL[status] ?? 'Bad Request' });
    }
    if (isDatabaseConnectionError(err)) {
      req.log.warn({ err }, 'database connection lost during a request');
      return reply.code(503).header('retry-after', '5').send({ detail: 'The database is unavailable. Please try again in a moment.' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal Server Error' });
  });
}

const CLIENT_ERROR_DETAIL: Record<number, string> = {
  400: 'The request body could not be read',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  411: 'Length Required',
  413: 'The request body is too large',
  414: 'The address is too long',
  415: 'Unsupported Media Type',
  431: 'The request headers are too large',
};

/**
 * Errors Fastify's router meets before a route is chosen (a path parameter past maxParamLength, a
 * malformed %-escape): {detail} with the status, where Fastify's own answer quotes the path back.
 */
export function answerFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const status = err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  // These answers skip every hook, helmet's included: the headers that matter for a JSON error.
  void reply
    .code(status)
    .headers({ 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; frame-ancestors 'none'" })
    .send({ detail: CLIENT_ERROR_DETAIL[status] ?? 'Bad Request' });
}

/**
 * Errors Node's HTTP parser meets before Fastify sees a request (headers too large, a malformed
 * request line): answered as {detail} too, without echoing anything sent.
 */
export function clientErrorResponse(err: NodeJS.ErrnoException): string {
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'HPE_URI_TOO_LONG' ? 414 : 400;
  const body = JSON.stringify({ detail: CLIENT_ERROR_DETAIL[status] ?? 'Bad Request' });
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 414 ? 'URI Too Long' : 'Bad Request';
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The database went away mid-request (admin shutdown, connection failure, a cut socket). Drizzle
 * wraps the driver's error as `cause`, and a transaction whose connection broke reports its failed
 * ROLLBACK ("not queryable"), so the whole chain is looked at.
 */
function isDatabaseConnectionError(err: { code?: string; message?: string; cause?: unknown } | undefined, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  if (/^(57P0[1-3]|08\d\d\d)$/.test(err.code ?? '')) return true;
  if (/Connection terminated|ECONNRESET|ECONNREFUSED|not queryable/.test(err.message ?? '')) return true;
  return isDatabaseConnectionError(err.cause as typeof err, depth + 1);
}
