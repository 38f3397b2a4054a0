// Biblio product_search result → biblio_price_lookups columns (docs/marketplaces/biblio.md).
// Biblio's API is key-gated and undocumented beyond a few fields, so most of this table is our
// assumed contract: same-named keys. A real sample response corrects it here and nowhere else.
import { defineMapping, type Evidence, type FieldMapping } from '../field-mapping.ts';

const same = (evidence: Evidence, fields: string[]): FieldMapping[] => fields.map((field) => ({ field, wire: field, evidence }));

export const biblioMapping = defineMapping('biblio', [
  // Group A: seen on the wire in two independent clients.
  ...same('CERTAIN', ['title', 'author', 'subtitle', 'publisher', 'photo', 'currency', 'price']),
  // The spec's "canonical book link"; the key evidenced publicly is canonical_book_link.
  { field: 'book_link', wire: 'canonical_book_link', evidence: 'INFERRED' },
  // Seen in Biblio's other JSON (jaxie) or as search parameters, so probably response keys too.
  ...same('INFERRED', [
    'publish_date',
    'biblio_sku',
    'book_id',
    'illustrator',
    'publish_place',
    'first_edition',
    'signed',
    'jacket',
    'format',
    'book_condition',
  ]),
  // Group B (the spec's names) and group C (simulator candidates): no public evidence at all.
  ...same('UNKNOWN', [
    'product_id',
    'seller',
    'seller_id',
    'seller_country',
    'slug',
    'isbn10',
    'isbn13',
    'edition',
    'binding',
    'jacket_condition',
    'language',
    'pages',
    'keywords',
    'description',
    'listing_id',
    'date_added',
    'ship_to_country',
    'seller_city',
    'seller_state',
    'url',
    'affiliate_url',
    'isbn_match',
    'shipping_method',
    'seller_email',
    'seller_phone',
    'return_policy',
    'item_note',
    'size',
    'category',
    'dust_jacket',
    'inscribed',
    'availability',
    'location',
    'currency_conversion_rate',
    'ninety_day_fulfillment',
    'ninety_day_count',
    'dealer_discount',
    'numeric_condition',
    'quantity',
    'listing_orig_price',
    'listing_reduced_price',
    'shipping_price',
    'seller_rating',
    'photo_count',
  ]),
]);
