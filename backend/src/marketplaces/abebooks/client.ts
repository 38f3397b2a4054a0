// AbeBooks Search Web Services: GET {base}/search?isbn=…&outputsize=long&sortorder=17&…, XML back.
// Checked against the official v1 guide's samples and two real captures (docs/marketplaces/abebooks.md).
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
  // Real answers carry numeric character references (&#233;, &#x26;) besides the five XML ones.
  htmlEntities: true,
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
      // The guide's localised editions mark both "always needed"; without them prices come in the
      // account's default currency and shipping to its default country.
      currency: 'USD',
      destinationcountry: 'USA',
    });
    if (settings.credential) query.set('clientkey', settings.credential);
    return { url: `${settings.baseUrl}/search?${query}` };
  },
  parse(body) {
    const valid = XMLValidator.validate(body);
    if (valid !== true) {
      // AbeBooks prints some error messages with a raw `&` (the guide's stop-words message): still
      // its own answer, final, not a garbled body worth asking again.
      const message = unparsedMessages(body);
      if (message !== undefined) return { kind: 'failed', message: message || 'AbeBooks returned an empty error message' };
      throw new MalformedResponseError(`invalid XML (${valid.err.msg})`);
    }
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

/** The text of a <messages> element in a body that is not well-formed XML, whitespace folded. */
function unparsedMessages(body: string): string | undefined {
  const m = /<searchResults>\s*<messages>([\s\S]*?)<\/messages>/i.exec(body);
  return m?.[1]?.replace(/\s+/g, ' ').trim();
}

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
