// AbeBooks Search Web Services, outputsize=long: <searchResults><resultCount/><Book>…</Book>…
import { CONDITIONS } from '../catalog.ts';
import type { SimulatedFormat } from './types.ts';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const element = (tag: string, value: string | number | null) =>
  value === null ? '' : `    <${tag}>${escape(String(value))}</${tag}>\n`;
const xml = (inner: string) => ({
  status: 200,
  contentType: 'text/xml; charset=utf-8',
  body: `<?xml version="1.0" encoding="UTF-8"?>\n<searchResults>\n${inner}</searchResults>\n`,
});

export const abeBooksSim: SimulatedFormat = {
  path: '/search',
  isbnParam: 'isbn',
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
    return xml(`  <resultCount>${listings.length}</resultCount>\n${books.join('')}`);
  },
  invalidIsbn: (value) => xml(`  <messages>Invalid ISBN value provided: ${escape(value)}</messages>\n`),
};
