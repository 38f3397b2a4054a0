// AbeBooks Search Web Services <Book> element → abe_books_price_lookups columns
// (docs/marketplaces/abebooks.md). Tags are XML text; number columns are converted from it. Every tag here
// is in the official guide.
import { defineMapping, withScheme } from '../field-mapping.ts';

export const abeBooksMapping = defineMapping('abe_books', [
  { field: 'listing_url', wire: 'listingUrl', evidence: 'CERTAIN', convert: withScheme },
  { field: 'listing_price', wire: 'listingPrice', evidence: 'CERTAIN' },
  // "Total book price": price + first-book shipping is INFERRED from the name; we also sort on it.
  { field: 'total_listing_price', wire: 'totalListingPrice', evidence: 'INFERRED' },
  { field: 'quantity', wire: 'quantity', evidence: 'CERTAIN' },
  { field: 'listing_condition', wire: 'listingCondition', evidence: 'CERTAIN' },
  { field: 'item_condition', wire: 'itemCondition', evidence: 'CERTAIN' },
  { field: 'seller_rating', wire: 'sellerRating', evidence: 'CERTAIN' },
  // In the vendor's currency (vendorCurrency), not the requested one.
  { field: 'vendor_price', wire: 'vendorPrice', evidence: 'CERTAIN' },
  { field: 'vendor_id', wire: 'vendorId', evidence: 'CERTAIN' },
  { field: 'title', wire: 'title', evidence: 'CERTAIN' },
  { field: 'author', wire: 'author', evidence: 'CERTAIN' },
  { field: 'vendor_name', wire: 'vendorName', evidence: 'CERTAIN' },
]);
