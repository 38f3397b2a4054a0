// Alibris public API: GET {base}/v1/public/search?qisbn=…&outputtype=json&qsort=p&chunk=…&apikey=…,
// JSON {status, message, book:[…]} back, or {Errors:{ErrorID, ErrorText}}.
import { cheapest, messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, parseRetryAfter, type WireFormat } from '../http.ts';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { alibrisMapping } from './mapping.ts';

/** Offers kept per ISBN (the API's default page size). */
const CHUNK = 25;

type Book = Record<string, unknown>;

/**
 * Alibris' API sits behind Mashery, which answers for it with HTTP 403 and an X-Mashery-Error-Code
 * header (its error-code table; a captured 403 shows the header with a short text/xml body).
 * Over-QPS and over-rate mean "slow down": retry. Anything else is about the key: final.
 */
const MASHERY_SLOW_DOWN: Record<string, { reason: string; waitMs?: number }> = {
  ERR_403_DEVELOPER_OVER_QPS: { reason: 'Alibris: over the queries-per-second limit (ERR_403_DEVELOPER_OVER_QPS)' },
  // The daily quota: backing off by seconds would spend every attempt before it refills.
  ERR_403_DEVELOPER_OVER_RATE: { reason: 'Alibris: over the daily request quota (ERR_403_DEVELOPER_OVER_RATE)', waitMs: 15 * 60_000 },
};
const MASHERY_FINAL: Record<string, string> = {
  ERR_403_DEVELOPER_INACTIVE: 'Alibris: the API key is inactive (ERR_403_DEVELOPER_INACTIVE)',
  ERR_403_NOT_AUTHORIZED: 'Alibris: the API key is not authorised for this API (ERR_403_NOT_AUTHORIZED)',
  ERR_596_SERVICE_NOT_FOUND: 'Alibris: the API key is missing or unknown (ERR_596_SERVICE_NOT_FOUND)',
};

function masheryOutcome(status: number, headers: Headers, body: string): LookupOutcome | undefined {
  const code = headers.get('x-mashery-error-code')?.trim().toUpperCase() ?? bodyCode(body);
  if (!code) return undefined;
  const slow = MASHERY_SLOW_DOWN[code];
  if (slow) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after')) ?? slow.waitMs;
    const retry = { kind: 'retry', reason: slow.reason, rateLimited: true } as const;
    return retryAfterMs === undefined ? retry : { ...retry, retryAfterMs };
  }
  return { kind: 'failed', message: MASHERY_FINAL[code] ?? `Alibris refused the request (${code}, HTTP ${status})` };
}

/** Mashery's body says the same in words ("Developer Over Qps") when a proxy drops the header. */
function bodyCode(body: string): string | undefined {
  if (/developer over qps/i.test(body)) return 'ERR_403_DEVELOPER_OVER_QPS';
  if (/developer over rate/i.test(body)) return 'ERR_403_DEVELOPER_OVER_RATE';
  if (/developer inactive/i.test(body)) return 'ERR_403_DEVELOPER_INACTIVE';
  return undefined;
}

export const alibrisFormat: WireFormat = {
  classifyStatus: (status, headers, body) => (status === 403 || status === 596 ? masheryOutcome(status, headers, body) : undefined),
  request(isbn13, settings) {
    const query = new URLSearchParams({ qisbn: isbn13, outputtype: 'json', qsort: 'p', chunk: String(CHUNK) });
    if (settings.credential) query.set('apikey', settings.credential);
    return { url: `${settings.baseUrl}/v1/public/search?${query}`, headers: { accept: 'application/json' } };
  },
  parse(body) {
    const doc = parseJsonObject(body);
    if (doc.Errors !== undefined && doc.Errors !== null) {
      return { kind: 'failed', message: messageText(doc.Errors) || 'Alibris returned an empty error' };
    }
    // status "0" is success; another status with a message is an error in the envelope (INFERRED).
    if (doc.status !== undefined && String(doc.status) !== '0') {
      return { kind: 'failed', message: messageText(doc.message) || `Alibris status ${String(doc.status)}` };
    }
    if (doc.book === undefined || doc.book === null) return { kind: 'no_offers', offers: [] };
    // XML-to-JSON converters turn a single <book> into an object rather than a list.
    const books = Array.isArray(doc.book) ? doc.book : [doc.book];
    if (books.some((b) => typeof b !== 'object' || b === null)) throw new MalformedResponseError('a book that is not an object');
    if (books.length === 0) return { kind: 'no_offers', offers: [] };
    const best = cheapest(books as Book[], (b) => toNumber(b.price));
    return { kind: 'completed', record: alibrisMapping.apply(best), offers: books };
  },
};

export function createAlibrisAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('alibris', settings, alibrisFormat);
}
