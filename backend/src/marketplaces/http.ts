// The HTTP half every adapter shares: one GET, then the status and body classified into a LookupOutcome.
// Each marketplace supplies only how to build its request and how to read its body.
import type { MarketplaceId } from '@app/domain/marketplaces';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings } from './types.ts';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError, readBodyCapped } from '../lib/capped-body.ts';

export interface HttpRequest {
  url: string;
  headers?: Record<string, string>;
}

export interface WireFormat {
  request(isbn13: string, settings: MarketplaceSettings): HttpRequest;
  /** Reads a response body. Throws on a body it cannot make sense of: that becomes a retry. */
  parse(body: string): LookupOutcome;
  /**
   * A marketplace's own reading of an HTTP status, before the shared rules below (e.g. Alibris'
   * gateway says "slow down" with a 403). Undefined leaves the answer to the shared rules.
   */
  classifyStatus?(status: number, headers: Headers, body: string): LookupOutcome | undefined;
  /**
   * Headers that must be obtained before the request (an OAuth access token), or the lookup's outcome
   * when they cannot be (credentials refused: failed; the token service down: retry).
   */
  authorize?(signal: AbortSignal): Promise<{ headers: Record<string, string> } | { outcome: LookupOutcome }>;
}

/** A body that is not in the marketplace's format (truncated, an HTML error page, a changed schema). */
export class MalformedResponseError extends Error {}

export function httpAdapter(id: MarketplaceId, settings: MarketplaceSettings, format: WireFormat): MarketplaceAdapter {
  return {
    id,
    async lookup(isbn13, opts) {
      const { url, headers } = format.request(isbn13, settings);
      // A token first where the marketplace needs one (eBay's application token): refused → failed.
      const auth = format.authorize ? await format.authorize(opts.signal) : { headers: {} };
      if ('outcome' in auth) return auth.outcome;
      const init = { headers: { accept: '*/*', ...headers, ...auth.headers } };
      const answer = await timedFetch(url, init, settings.timeoutMs, opts.signal, settings.maxResponseBytes);
      return 'outcome' in answer ? answer.outcome : classify(answer.status, answer.headers, answer.body, format);
    },
  };
}

/**
 * An HTTP answer as text, or why there was none: a retry (timeout, network error, our stop), or a
 * failure (an answer larger than the cap: the same question would get the same answer).
 */
export type FetchedText =
  | { status: number; headers: Headers; body: string }
  | { outcome: (LookupOutcome & { kind: 'retry' }) | (LookupOutcome & { kind: 'failed' }) };

/** One request with our own timeout and the caller's signal; the body (at most `maxBytes`) decoded in its declared charset. */
export async function timedFetch(
  url: string,
  init: RequestInit,
  timeoutMs: number,
  signal: AbortSignal,
  maxBytes = DEFAULT_MAX_RESPONSE_BYTES,
): Promise<FetchedText> {
  // Our own timeout + the caller's signal. Not AbortSignal.any/timeout: on Node 20, any() keeps a
  // reference per call on the long-lived caller signal, which grows for the worker's whole life.
  const controller = new AbortController();
  const cancel = () => controller.abort();
  signal.addEventListener('abort', cancel, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    if (signal.aborted) throw signal.reason;
    const res = await fetch(url, { ...init, signal: controller.signal });
    const body = decodeBody(await readBodyCapped(res, maxBytes), res.headers.get('content-type'));
    return { status: res.status, headers: res.headers, body };
  } catch (err) {
    if (err instanceof ResponseTooLargeError) return { outcome: { kind: 'failed', message: `Marketplace ${err.message}` } };
    if (timedOut) return { outcome: { kind: 'retry', reason: `Timed out after ${timeoutMs} ms` } };
    if (signal.aborted) return { outcome: { kind: 'retry', reason: 'Cancelled: the worker is stopping' } };
    return { outcome: { kind: 'retry', reason: `Network error: ${describe(err)}` } };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', cancel);
  }
}

/**
 * Our decisions (few marketplaces document their HTTP codes; docs/marketplaces/ says which):
 * - 401/403: the key is wrong; retrying cannot fix it, so failed.
 * - 429, 408, 5xx: transient; retry, honouring Retry-After when sent.
 * - 2xx: the body decides (offers, none, or an error message); an unreadable body is retried,
 *   because a truncated or proxy-mangled body is usually a one-off.
 * - other 4xx: failed, with the marketplace's own message when the body carries one.
 */
export function classify(status: number, headers: Headers, body: string, format: WireFormat): LookupOutcome {
  const own = format.classifyStatus?.(status, headers, body);
  if (own) return own;
  if (status === 401 || status === 403) return { kind: 'failed', message: `Marketplace rejected the credentials (${status})` };
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after'));
    const retry: LookupOutcome =
      status === 429
        ? { kind: 'retry', reason: 'Rate limited (429)', rateLimited: true }
        : { kind: 'retry', reason: `Marketplace unavailable (${status})` };
    return retryAfterMs === undefined ? retry : { ...retry, retryAfterMs };
  }
  let outcome: LookupOutcome;
  try {
    outcome = format.parse(body);
  } catch (err) {
    if (status >= 200 && status < 300) return { kind: 'retry', reason: `Malformed response: ${describe(err)}` };
    return { kind: 'failed', message: `Marketplace answered HTTP ${status}` };
  }
  if (status >= 200 && status < 300) return outcome;
  return outcome.kind === 'failed' ? outcome : { kind: 'failed', message: `Marketplace answered HTTP ${status}` };
}

/**
 * Bytes → text in the charset the answer declares: the Content-Type's charset, else an XML
 * declaration's encoding (AbeBooks has answered ISO-8859-1), else UTF-8. An unknown label falls
 * back to UTF-8 rather than failing the lookup.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const declared =
    /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/i.exec(new TextDecoder('latin1').decode(bytes.subarray(0, 200)))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? err.message;
  }
  return String(err);
}

/** JSON marketplaces answer with one object; anything else is not their format. */
export function parseJsonObject(body: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new MalformedResponseError('invalid JSON');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new MalformedResponseError('not a JSON object');
  return doc as Record<string, unknown>;
}
