// Biblio product_search: {data:{meta,results}}; each result carries every field of our Biblio table
// (group A evidenced, groups B and C speculative: docs/marketplaces/biblio.md).
import { must } from '@app/domain/must';
import { hash32 } from '../../sandbox/random.ts';
import { json, money, withoutNulls, type SimulatedFormat } from '../../sandbox/formats/types.ts';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const slugOf = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export const biblioSim: SimulatedFormat = {
  read: (path, query, headers) =>
    path === '/api/product_search' ? { isbn: query.get('isbn') ?? '', key: header(headers['x-api-key']) } : null,
  offers(book, listings) {
    const slug = slugOf(`${book.title} ${book.author}`);
    // Nothing found: number_found 0 and no results at all (real answers vary: left out, null, []).
    if (listings.length === 0) {
      const meta = { page: '1', pages: '0', number_found: 0, fulltext: '' };
      return json({ data: hash32('biblio-empty', book.isbn13) % 2 ? { meta } : { meta, results: null } });
    }
    const results = listings.map((l, i) => {
      const sku = String(1_000_000_000 + (hash32('biblio', book.isbn13, i) % 1_000_000_000));
      const link = `https://www.biblio.com/book/${slug}/d/${sku}`;
      const reduced = l.price;
      const original = Math.round(reduced * 1.2 * 100) / 100;
      const jacket = l.binding === 'Hardcover';
      return withoutNulls({
        biblio_sku: sku,
        book_id: `b${sku}`,
        product_id: `p${sku}`,
        listing_id: l.id,
        isbn: book.isbn13,
        isbn10: book.isbn10,
        isbn13: book.isbn13,
        isbn_match: 'exact',
        title: book.title,
        subtitle: '',
        author: book.author,
        illustrator: null,
        publisher: book.publisher,
        publish_date: String(book.year),
        publish_place: l.seller.city,
        edition: l.firstEdition ? 'First Edition' : 'Reprint',
        binding: l.binding,
        format: l.binding === 'Hardcover' ? 'hardcover' : 'paperback',
        first_edition: l.firstEdition,
        signed: l.signed,
        inscribed: false,
        jacket,
        dust_jacket: jacket ? 'Yes' : 'No',
        jacket_condition: jacket ? l.condition.name : null,
        book_condition: l.condition.name,
        numeric_condition: l.condition.code,
        language: 'English',
        pages: String(120 + (hash32(book.isbn13) % 600)),
        size: '8vo',
        category: 'Fiction',
        keywords: `${book.title.toLowerCase()}; ${must(book.author.split(',')[0], 'split gives a part').toLowerCase()}`,
        description: `${l.condition.name} copy. ${l.binding}.`,
        item_note: l.quantity > 1 ? `${l.quantity} copies available.` : '',
        price: money(reduced),
        currency: 'USD',
        currency_conversion_rate: 1,
        listing_orig_price: money(original),
        listing_reduced_price: money(reduced),
        dealer_discount: l.seller.rating >= 4 ? 10 : 0,
        quantity: l.quantity,
        shipping_price: money(l.shipping),
        shipping_method: l.shipping === 0 ? 'Free' : 'Standard',
        ship_to_country: 'USA',
        availability: 'In stock',
        location: `Shelf ${String.fromCharCode(65 + (i % 26))}${1 + (i % 9)}`,
        date_added: new Date(Date.UTC(2020, 0, 1) + (hash32('added', l.id) % 1500) * 86_400_000).toISOString().slice(0, 10),
        seller: l.seller.name,
        seller_id: l.seller.id,
        seller_city: l.seller.city,
        seller_state: l.seller.state,
        seller_country: l.seller.country3.slice(0, 2),
        seller_email: `orders@${slugOf(l.seller.name)}.example`,
        seller_phone: `+1 555 01${l.seller.id.slice(-2)}`,
        seller_rating: l.seller.rating,
        ninety_day_fulfillment: Math.round((0.8 + l.seller.rating * 0.04) * 100) / 100,
        ninety_day_count: 10 * l.seller.rating + (hash32(l.seller.id) % 50),
        return_policy: '14 days',
        canonical_book_link: link,
        url: link,
        affiliate_url: `${link}?aid=sandbox`,
        slug,
        photo: `https://img.biblio.com/sandbox/${sku}.jpg`,
        photo_count: 1 + (i % 3),
      });
    });
    return json({ data: { meta: { page: '1', pages: '1', number_found: results.length, fulltext: '' }, results } });
  },
  invalidIsbn: (value) => json({ error: `Invalid value for parameter isbn: ${value}` }, 400),
  badKey: () => json({ error: 'Invalid API key' }, 401),
};
