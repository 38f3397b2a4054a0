// eBay ItemSummary (Buy Browse item_summary/search) → ebay_price_lookups columns.
// Evidence: CERTAIN = a field of eBay's OpenAPI contract (buy_browse v1.20.4) that both third-party
// captures of real answers carry with this type; INFERRED = in the contract, but no capture shows it
// for a book (condition names of book listings, shipping type on calculated shipping).
import { defineMapping, toNumber, toText } from '../field-mapping.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : undefined);

/**
 * The offer's shipping: the cheapest option with a cost (shippingOptions[].shippingCost.value, a
 * string), else the first option's type alone (CALCULATED shipping may come without a cost when no
 * delivery location is sent). Undefined when the summary has no shipping options.
 */
export const offerShipping = (offer: unknown) => shippingOf(obj(offer)?.shippingOptions);

function shippingOf(options: unknown): { cost: number | null; type: string | null } | undefined {
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const read = options.map((o) => ({ cost: toNumber(obj(obj(o)?.shippingCost)?.value), type: toText(obj(o)?.shippingCostType) }));
  const priced = read.filter((o) => o.cost !== null).sort((a, b) => (a.cost ?? 0) - (b.cost ?? 0));
  return priced[0] ?? read[0];
}

export const ebayMapping = defineMapping('ebay', [
  { field: 'title', wire: 'title', evidence: 'CERTAIN' },
  // ConvertedAmount.value is a string ("349.00") in the contract and both captures.
  { field: 'price', wire: 'price.value', evidence: 'CERTAIN' },
  { field: 'currency', wire: 'price.currency', evidence: 'CERTAIN' },
  { field: 'shipping_cost', wire: 'shippingOptions', evidence: 'CERTAIN', convert: (v) => shippingOf(v)?.cost ?? null },
  { field: 'shipping_type', wire: 'shippingOptions', evidence: 'CERTAIN', convert: (v) => shippingOf(v)?.type ?? null },
  // "Used", "Like New", "Very Good"… for books: the contract points to eBay's condition table, not seen.
  { field: 'condition', wire: 'condition', evidence: 'INFERRED' },
  { field: 'condition_id', wire: 'conditionId', evidence: 'CERTAIN' },
  // Since 2025-09-26 some developers get an immutable user id here instead of a U.S. username.
  { field: 'seller_username', wire: 'seller.username', evidence: 'CERTAIN' },
  // A string ("98.0") in the contract and the captures.
  { field: 'seller_feedback_percentage', wire: 'seller.feedbackPercentage', evidence: 'CERTAIN' },
  { field: 'seller_feedback_score', wire: 'seller.feedbackScore', evidence: 'CERTAIN' },
  { field: 'listing_url', wire: 'itemWebUrl', evidence: 'CERTAIN' },
  {
    field: 'buying_options',
    wire: 'buyingOptions',
    evidence: 'CERTAIN',
    convert: (v) => (Array.isArray(v) ? v.map(String).join(', ') || null : toText(v)),
  },
  { field: 'item_id', wire: 'itemId', evidence: 'CERTAIN' },
]);
