// Alibris item search, outputtype=json: every value a string; Errors{ErrorID,ErrorText} on error.
// Its gateway (Mashery) refuses keys and rates with 403 + X-Mashery-Error-Code, not 429.
import { json, money, queryParam, type SandboxReply, type SimulatedFormat } from '../../sandbox/formats/types.ts';

const mashery = (code: string, text: string): SandboxReply => ({
  status: 403,
  contentType: 'text/xml',
  headers: { 'x-mashery-error-code': code, server: 'Mashery Proxy' },
  body: `<h1>${text}</h1>`,
});

export const alibrisSim: SimulatedFormat = {
  read: (path, query) => (path === '/v1/public/search' ? { isbn: query.get('qisbn') ?? '', key: queryParam(query, 'apikey') } : null),
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
    // No match: the envelope without `book` (INFERRED from clients that test for it).
    return json(books.length ? { status: '0', message: 'Success', book: books } : { status: '0', message: 'Success' });
  },
  invalidIsbn: (value) => json({ Errors: { ErrorID: '105', ErrorText: `Invalid ISBN: ${value}` } }),
  badKey: () => mashery('ERR_403_DEVELOPER_INACTIVE', 'Developer Inactive'),
  rateLimited: () => mashery('ERR_403_DEVELOPER_OVER_QPS', 'Developer Over Qps'),
};
