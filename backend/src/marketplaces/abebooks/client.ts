// AbeBooks Search Web Services: GET {base}/search?isbn=…&outputsize=long&sortorder=17&…, XML back.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { cheapest, messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, type WireFormat } from '../http.ts';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { abeBooksMapping } from './mapping.ts';

/** Listings kept per ISBN (the API allows up to 200). */
const MAX_RESULTS = 50;

const parser = new XMLParser({
  // Keep every value as text: ISBN-10s and vendor ids must not lose leading zeros.
  parseTagValue: false,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  // One <Book> must still be a list.
  isArray: (_name, jpath) => jpath === 'searchResults.Book',
});

type Book = Record<string, unknown>;

export const abeBooksFormat: WireFormat = {
  request(isbn13, settings) {
    const query = new URLSearchParams({
      isbn: isbn13,
      outputsize: 'long',
      sortorder: '17', // total price (book + shipping), ascending
      maxresults: String(MAX_RESULTS),
    });
    if (settings.credential) query.set('clientkey', settings.credential);
    return { url: `${settings.baseUrl}/search?${query}` };
  },
  parse(body) {
    const valid = XMLValidator.validate(body);
    if (valid !== true) throw new MalformedResponseError(`invalid XML (${valid.err.msg})`);
    const root = (parser.parse(body) as { searchResults?: unknown }).searchResults;
    if (root === undefined) throw new MalformedResponseError('no <searchResults> element');
    // An empty element parses to ''.
    const results = (typeof root === 'object' && root !== null ? root : {}) as { messages?: unknown; Book?: unknown[] };
    if (results.messages !== undefined) {
      return { kind: 'failed', message: messageText(results.messages) || 'AbeBooks returned an empty error message' };
    }
    const books = results.Book ?? [];
    if (books.some((b) => typeof b !== 'object' || b === null)) throw new MalformedResponseError('a <Book> without fields');
    return outcomeFor(books as Book[]);
  },
};

function outcomeFor(books: Book[]): LookupOutcome {
  if (books.length === 0) return { kind: 'no_offers', offers: [] };
  const best = cheapest(books, totalPrice);
  return { kind: 'completed', record: abeBooksMapping.apply(best), offers: books };
}

/** totalListingPrice, or price + first-book shipping when a listing leaves the total out. */
function totalPrice(book: Book): number | null {
  const total = toNumber(book.totalListingPrice);
  if (total !== null) return total;
  const price = toNumber(book.listingPrice);
  return price === null ? null : price + (toNumber(book.firstBookShipCost) ?? 0);
}

export function createAbeBooksAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('abe_books', settings, abeBooksFormat);
}
