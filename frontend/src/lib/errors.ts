// Turning API failures into what the user reads. The one mapping from an error to toast text
// lives here (house habit 4); src/lib/api.ts makes every failed call throw an ApiError.
import { LOGIN_LIST_ERROR, TOAST } from './messages';

/** A failed API call: HTTP status (undefined for network failures) and the parsed body. */
export class ApiError extends Error {
  readonly status: number | undefined;
  readonly body: unknown;

  constructor(status: number | undefined, body: unknown, message?: string) {
    super(message ?? (typeof body === 'string' && body ? body : `Request failed${status ? ` (${status})` : ''}`));
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** Status names (docs/requirements.md, Errors and toasts), used for log lines and fallbacks. */
export const STATUS_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Validation Error',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

type Detail = { kind: 'text'; text: string } | { kind: 'list'; first: string | undefined } | { kind: 'none' };

function readDetail(err: unknown): Detail {
  const body = err instanceof ApiError ? err.body : err;
  if (body && typeof body === 'object' && 'detail' in body) {
    const detail = (body as { detail: unknown }).detail;
    if (typeof detail === 'string') return { kind: 'text', text: detail };
    if (Array.isArray(detail)) {
      const msg = (detail[0] as { msg?: unknown } | undefined)?.msg;
      return { kind: 'list', first: typeof msg === 'string' ? msg : undefined };
    }
  }
  return { kind: 'none' };
}

/** Shared error toast message: detail string, first msg of a list detail, else 'Something went wrong.' */
export function errorToastMessage(err: unknown): string {
  const d = readDetail(err);
  if (d.kind === 'text') return d.text;
  if (d.kind === 'list' && d.first) return d.first;
  return TOAST.genericError;
}

/** Sign-up failure message: the detail, or the client's own message (e.g. a network error). */
export function signUpErrorMessage(err: unknown): string {
  const d = readDetail(err);
  if (d.kind === 'text') return d.text;
  if (d.kind === 'list' && d.first) return d.first;
  if (err instanceof Error && err.message) return err.message;
  return TOAST.genericError;
}

/** Login failure shown inline: the detail string; a list detail becomes 'Something went wrong'. */
export function loginErrorMessage(err: unknown): string {
  const d = readDetail(err);
  if (d.kind === 'text') return d.text;
  return LOGIN_LIST_ERROR;
}

export function errorStatus(err: unknown): number | undefined {
  return err instanceof ApiError ? err.status : undefined;
}

/** No answer at all, not even an error status: the request never reached the server (no signal). */
export function gotNoAnswer(err: unknown): boolean {
  return errorStatus(err) === undefined;
}

/** The parts of a request a 422's `loc` starts with (FastAPI's names); the field's path follows. */
const REQUEST_PARTS = new Set(['body', 'query', 'path', 'header']);

/**
 * The one way a form shows a 422 beside its inputs: each message by the path of the field it names
 * (its `loc` after the request part, joined by dots: "percent", "rules.1.conditions.0.field"), the
 * first message per field; empty for any other failure.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  const body = err instanceof ApiError ? err.body : err;
  const detail = body && typeof body === 'object' && 'detail' in body ? (body as { detail: unknown }).detail : undefined;
  if (!Array.isArray(detail)) return {};
  const out: Record<string, string> = {};
  for (const d of detail as { loc?: unknown; msg?: unknown }[]) {
    if (!Array.isArray(d.loc) || typeof d.msg !== 'string') continue;
    const path = REQUEST_PARTS.has(d.loc[0]) ? d.loc.slice(1) : d.loc;
    if (path.length === 0) continue;
    out[path.join('.')] ??= d.msg;
  }
  return out;
}
