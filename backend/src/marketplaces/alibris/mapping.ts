// Alibris item search `book` → alibris_price_lookups columns (docs/marketplaces/alibris.md).
// Alibris sends every value as a string ("8.40"); number columns are converted.
import { defineMapping } from '../field-mapping.ts';

export const alibrisMapping = defineMapping('alibris', [
  { field: 'title', wire: 'title', evidence: 'CERTAIN' },
  { field: 'author', wire: 'author', evidence: 'CERTAIN' },
  { field: 'sellername', wire: 'sellername', evidence: 'CERTAIN' },
  // The seller's free text; fl_bookcond (1–6) is the normalised code, kept in `offers`.
  { field: 'condition', wire: 'condition', evidence: 'CERTAIN' },
  { field: 'price', wire: 'price', evidence: 'CERTAIN' }, // USD retail
  { field: 'sellercountry', wire: 'sellercountry', evidence: 'CERTAIN' },
]);
