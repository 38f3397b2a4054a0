// Alibris item search, outputtype=json: every value a string; Errors{ErrorID,ErrorText} on error.
import { json, money, type SimulatedFormat } from './types.ts';

export const alibrisSim: SimulatedFormat = {
  path: '/v1/public/search',
  isbnParam: 'qisbn',
  offers(book, listings) {
    // qsort=p: price ascending.
    const books = [...listings]
      .sort((a, b) => a.price - b.price)
      .map((l) => ({
        title: book.title,
        author: book.author,
        bin: l.id.slice(-11),
        isbn: book.isbn13,
        condition: `${l.condition.name}.`,
        fl_bookcond: String(l.condition.code),
        fl_cover: l.binding === 'Hardcover' ? 'H' : 'S',
        ...(l.signed ? { fl_signed: '1' } : {}),
        ...(l.firstEdition ? { fl_edition: '1' } : {}),
        price: money(l.price),
        qty_avail: String(l.quantity),
        reliability: String(l.seller.rating),
        shiploc: l.seller.country3 === 'USA' ? 'DOM' : 'INT',
        sellername: l.seller.name,
        sellercity: l.seller.city,
        sellerstate: l.seller.state,
        sellercountry: l.seller.country3,
        publisher: book.publisher,
        date_pub: String(book.year),
        work_id: String(Number(book.isbn13.slice(-6))),
      }));
    return json({ status: '0', message: 'Success', book: books });
  },
  invalidIsbn: (value) => json({ Errors: { ErrorID: '105', ErrorText: `Invalid ISBN: ${value}` } }),
};
