// Alibris public API: GET {base}/v1/public/search?qisbn=…&outputtype=json&qsort=p&chunk=…&apikey=…,
// JSON {status, message, book:[…]} back, or {Errors:{ErrorID, ErrorText}}.
import { cheapest, messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { alibrisMapping } from './mapping.ts';

/** Offers kept per ISBN (the API's default page size). */
const CHUNK = 25;

type Book = Record<string, unknown>;

export const alibrisFormat: WireFormat = {
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
