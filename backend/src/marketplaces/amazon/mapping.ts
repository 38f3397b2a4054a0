// Amazon answer → amazon_price_lookups columns. Sources (README: marketplaces): Amazon's Selling
// Partner API models (catalogItems 2022-04-01, productPricing v0) and the examples inside them.
//   searchCatalogItems → Item {asin, summaries[{itemName, contributors}], identifiers, salesRanks}
//   getItemOffersBatch → responses[].body.payload {ItemCondition, Summary, Offers[OfferDetail]}
// A row is read from one composite object, `AmazonBook`: the catalog item, the offers payload of the
// Used request and the chosen offer (the cheapest landed used offer). Evidence per column:
// CERTAIN: the schema declares the key with this meaning; INFERRED: the key is declared but which
// entry or value we read is our reading (book-specific values no official sample shows).
import { defineMapping, toNumber, toText } from '../field-mapping.ts';

export interface Money {
  Amount?: unknown;
  CurrencyCode?: unknown;
}
export interface PriceEntry {
  condition?: unknown;
  LandedPrice?: Money;
  ListingPrice?: Money;
  Shipping?: Money;
}
export interface OfferDetail {
  SubCondition: string;
  ListingPrice: Money;
  Shipping: Money;
  SellerId?: string;
  SellerFeedbackRating?: { SellerPositiveFeedbackRating?: number; FeedbackCount?: number };
  IsFulfilledByAmazon: boolean;
  IsBuyBoxWinner?: boolean;
  PrimeInformation?: { IsPrime?: boolean };
  ShipsFrom?: { State?: string; Country?: string };
}
export interface OffersPayload {
  ASIN?: string;
  status: string;
  ItemCondition: string;
  Summary: {
    TotalOfferCount: number;
    LowestPrices?: PriceEntry[];
    BuyBoxPrices?: PriceEntry[];
    NumberOfOffers?: { condition?: unknown; OfferCount?: unknown }[];
  };
  Offers: OfferDetail[];
}
export interface CatalogItem {
  asin: string;
  summaries?: { marketplaceId?: string; itemName?: string; contributors?: { role?: { value?: string }; value?: string }[] }[];
  identifiers?: { identifiers?: { identifierType?: string; identifier?: string }[] }[];
  salesRanks?: SalesRanks[];
}
interface Rank {
  title?: string;
  rank?: number;
  websiteDisplayGroup?: string;
}
interface SalesRanks {
  classificationRanks?: Rank[];
  displayGroupRanks?: Rank[];
}

export interface AmazonBook {
  item: CatalogItem;
  payload?: OffersPayload;
  chosen?: OfferDetail;
}

/** Amazon's word for the book's own rank, as its website shows it (INFERRED: no official sample is a book). */
export const BOOK_DISPLAY_GROUP = 'book_display_on_website';

/** Amount + shipping, or the landed price Amazon computed. */
export function landed(p: PriceEntry): number | null {
  const total = toNumber(p.LandedPrice?.Amount);
  if (total !== null) return total;
  const price = toNumber(p.ListingPrice?.Amount);
  // In cents, as Amazon's own LandedPrice would be (21 + 3.99 is 24.990000000000002 in floating point).
  return price === null ? null : Math.round((price + (toNumber(p.Shipping?.Amount) ?? 0)) * 100) / 100;
}

/** Conditions arrive in any case ("new", "New"; sub-conditions "very_good", "VeryGood"): compared as bare letters. */
export const sameWord = (a: unknown, b: string) => typeof a === 'string' && a.replace(/[\s_-]/g, '').toLowerCase() === b.toLowerCase();

/** "very_good" / "VeryGood" / "very good" → "Very Good". */
export function readableCondition(value: unknown): string | null {
  const text = toText(value);
  if (text === null) return null;
  return text
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\b\w/g, (c) => c.toUpperCase());
}

/** The lowest landed price among the summary's entries of a condition. */
const lowest = (condition: string) => (value: unknown) => {
  const prices = (Array.isArray(value) ? (value as PriceEntry[]) : [])
    .filter((p) => sameWord(p.condition, condition))
    .map(landed)
    .filter((n): n is number => n !== null);
  return prices.length ? Math.min(...prices) : null;
};

/** Offers of a condition, summed over fulfilment channels (OfferCount is optional in the schema). */
const offerCount = (condition: string) => (value: unknown) => {
  const counts = (Array.isArray(value) ? (value as { condition?: unknown; OfferCount?: unknown }[]) : [])
    .filter((n) => sameWord(n.condition, condition))
    .map((n) => toNumber(n.OfferCount))
    .filter((n): n is number => n !== null);
  return counts.length ? counts.reduce((sum, n) => sum + n, 0) : null;
};

/** The Buy Box of the condition asked (used) when Amazon gives one, else the first it gives. */
function buyBox(value: unknown): number | null {
  const entries = Array.isArray(value) ? (value as PriceEntry[]) : [];
  const entry = entries.find((p) => sameWord(p.condition, 'used')) ?? entries[0];
  return entry ? landed(entry) : null;
}

/** The book's rank: its books display group, else the first display group, else the first classification. */
export function bookRank(value: unknown): Rank | undefined {
  const all = Array.isArray(value) ? (value as SalesRanks[]) : [];
  const ranks = all.flatMap((r) => r.displayGroupRanks ?? []);
  const classification = all.flatMap((r) => r.classificationRanks ?? []);
  return ranks.find((r) => r.websiteDisplayGroup === BOOK_DISPLAY_GROUP) ?? ranks[0] ?? classification[0];
}

/** Contributors whose role is author, else every contributor; "; " between them. */
function authors(value: unknown): string | null {
  const all = Array.isArray(value) ? (value as { role?: { value?: string }; value?: string }[]) : [];
  const named = all.filter((c) => typeof c.value === 'string' && c.value !== '');
  const writers = named.filter((c) => sameWord(c.role?.value, 'author'));
  return (writers.length ? writers : named).map((c) => c.value).join('; ') || null;
}

/** The product page (Amazon gives no offer URL; amazon.com for the US marketplace). */
export const productUrl = (asin: unknown) =>
  typeof asin === 'string' && asin ? `https://www.amazon.com/dp/${encodeURIComponent(asin)}` : null;

const flag = (v: unknown) => (typeof v === 'boolean' ? String(v) : null);

export const amazonMapping = defineMapping('amazon', [
  { field: 'asin', wire: 'item.asin', evidence: 'CERTAIN' },
  // marketplaceIds takes exactly one id, so the first summary is that marketplace's.
  { field: 'title', wire: 'item.summaries.0.itemName', evidence: 'CERTAIN' },
  { field: 'author', wire: 'item.summaries.0.contributors', evidence: 'INFERRED', convert: authors },
  { field: 'sales_rank', wire: 'item.salesRanks', evidence: 'INFERRED', convert: (v) => toNumber(bookRank(v)?.rank) },
  { field: 'sales_rank_category', wire: 'item.salesRanks', evidence: 'INFERRED', convert: (v) => toText(bookRank(v)?.title) },
  { field: 'lowest_used_price', wire: 'payload.Summary.LowestPrices', evidence: 'CERTAIN', convert: lowest('used') },
  // From the Used request's summary, whose entries carry their own condition: no second (New) batch.
  { field: 'lowest_new_price', wire: 'payload.Summary.LowestPrices', evidence: 'INFERRED', convert: lowest('new') },
  { field: 'buy_box_price', wire: 'payload.Summary.BuyBoxPrices', evidence: 'INFERRED', convert: buyBox },
  { field: 'used_offer_count', wire: 'payload.Summary.NumberOfOffers', evidence: 'CERTAIN', convert: offerCount('used') },
  { field: 'new_offer_count', wire: 'payload.Summary.NumberOfOffers', evidence: 'INFERRED', convert: offerCount('new') },
  { field: 'total_offer_count', wire: 'payload.Summary.TotalOfferCount', evidence: 'CERTAIN' },
  { field: 'product_url', wire: 'item.asin', evidence: 'INFERRED', convert: productUrl },
  { field: 'condition', wire: 'payload.ItemCondition', evidence: 'CERTAIN' },
  { field: 'sub_condition', wire: 'chosen.SubCondition', evidence: 'CERTAIN', convert: readableCondition },
  { field: 'listing_price', wire: 'chosen.ListingPrice.Amount', evidence: 'CERTAIN' },
  { field: 'shipping', wire: 'chosen.Shipping.Amount', evidence: 'CERTAIN' },
  { field: 'seller_id', wire: 'chosen.SellerId', evidence: 'CERTAIN' },
  { field: 'seller_feedback_percent', wire: 'chosen.SellerFeedbackRating.SellerPositiveFeedbackRating', evidence: 'CERTAIN' },
  { field: 'seller_feedback_count', wire: 'chosen.SellerFeedbackRating.FeedbackCount', evidence: 'CERTAIN' },
  { field: 'fulfilled_by_amazon', wire: 'chosen.IsFulfilledByAmazon', evidence: 'CERTAIN', convert: flag },
  { field: 'prime', wire: 'chosen.PrimeInformation.IsPrime', evidence: 'CERTAIN', convert: flag },
  { field: 'buy_box_winner', wire: 'chosen.IsBuyBoxWinner', evidence: 'CERTAIN', convert: flag },
]);

/** One offer as the offers drawer shows it (flat keys it knows: price, shipping, condition, seller). */
export function offerRow(o: OfferDetail, condition: string, asin: string): Record<string, unknown> {
  return {
    listing_price: toNumber(o.ListingPrice.Amount),
    shipping_price: toNumber(o.Shipping.Amount),
    currency: toText(o.ListingPrice.CurrencyCode),
    condition: readableCondition(condition),
    sub_condition: readableCondition(o.SubCondition),
    seller: o.SellerId ?? null,
    seller_feedback_percent: o.SellerFeedbackRating?.SellerPositiveFeedbackRating ?? null,
    seller_feedback_count: o.SellerFeedbackRating?.FeedbackCount ?? null,
    fulfilled_by_amazon: o.IsFulfilledByAmazon,
    prime: o.PrimeInformation?.IsPrime ?? null,
    buy_box_winner: o.IsBuyBoxWinner ?? null,
    ships_from: [o.ShipsFrom?.State, o.ShipsFrom?.Country].filter(Boolean).join(', ') || null,
    product_url: productUrl(asin),
  };
}
