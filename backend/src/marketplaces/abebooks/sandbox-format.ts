// AbeBooks Search Web Services, outputsize=long: <searchResults><resultCount/><Book>…</Book>…
import { CONDITIONS } from '../../sandbox/catalog.ts';
import { hash32 } from '../../sandbox/random.ts';
import { queryParam, type SandboxReply, type SimulatedFormat } from '../../sandbox/formats/types.ts';

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const element = (tag: string, value: string | number | null) =>
  value === null ? '' : `    <${tag}>${escapeXml(String(value))}</${tag}>\n`;
const xml = (inner: string, status = 200): SandboxReply => ({
  status,
  contentType: 'text/xml; charset=utf-8',
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<searchResults>\n${inner}</searchResults>\n`,
});
/** Some real answers come in ISO-8859-1, declared only in the XML declaration. */
const latin1 = (inner: string): SandboxReply => ({
  status: 200,
  contentType: 'text/xml',
  encoding: 'latin1',
  body: `<?xml version="1.0" encoding="ISO-8859-1"?>\n<searchResults>\n${inner}</searchResults>\n`,
});

export const abeBooksSim: SimulatedFormat = {
  read: (path, query) => (path === '/search' ? { isbn: query.get('isbn') ?? '', key: queryParam(query, 'clientkey') } : null),
  offers(book, listings) {
    // Sorted as sortorder=17 asks: total price ascending.
    const sorted = [...listings].sort((a, b) => a.price + a.shipping - (b.price + b.shipping));
    const books = sorted.map((l) => {
      const fields: Array<[string, string | number | null]> = [
        ['bookId', l.id],
        ['isbn10', book.isbn10],
        ['isbn13', book.isbn13],
        ['listingCondition', l.condition === CONDITIONS[0] ? 'NEW BOOK' : 'NOT NEW BOOK'],
        ['itemCondition', l.condition.name],
        ['quantity', l.quantity],
        ['vendorCurrency', 'USD'],
        ['listingPrice', l.price.toFixed(2)],
        ['firstBookShipCost', l.shipping.toFixed(1)],
        ['extraBookShipCost', '0'],
        ['minShipDays', '0'],
        ['maxShipDays', '0'],
        ['totalListingPrice', (l.price + l.shipping).toFixed(2)],
        ['listingUrl', `www.abebooks.com/servlet/ListingDetails?bi=${l.id}&cm_ven=sws&cm_cat=sws&cm_pla=sws&cm_ite=${l.id}`],
        ['author', book.author],
        ['title', book.title],
        ['publisherName', book.publisher],
        ['vendorName', l.seller.name],
        ['vendorLocation', `${l.seller.city}, ${l.seller.state}, ${l.seller.country}`],
        ['vendorId', l.seller.id],
        ['sellerRating', l.seller.rating],
        ['bindingType', l.binding === 'Hardcover' ? 'H' : 'S'],
        ['publicationYear', book.year],
        ['vendorPrice', l.price.toFixed(2)],
      ];
      return `  <Book>\n${fields.map(([t, v]) => element(t, v)).join('')}  </Book>\n`;
    });
    const inner = `  <resultCount>${listings.length}</resultCount>\n${books.join('')}`;
    // One ISBN in four answers in ISO-8859-1 (names with accents are where it shows).
    return hash32('abebooks-charset', book.isbn13) % 4 === 0 ? latin1(inner) : xml(inner);
  },
  invalidIsbn: (value) => xml(`  <messages>Invalid ISBN value provided: ${escapeXml(value)}</messages>\n`),
  // The guide: HTTP 401 for a missing or wrong client key.
  badKey: () => xml('  <messages>Invalid client key</messages>\n', 401),
};
