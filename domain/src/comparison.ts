// The job page's comparison across marketplaces: one row per ISBN of a job with each selling
// marketplace's chosen (cheapest) price, the best source, the spread and PalletIQ's verdict.
// Its field table drives the filter builder, the API's filters and sort, the columns and the CSV,
// like the marketplaces' own tables.
import { col, field, money, type FieldDef } from './fields.ts';
import { MARKETPLACES, type MarketplaceId } from './marketplaces.ts';
import { VELOCITY_FIELDS } from './velocity.ts';

/** Where a selling marketplace's price lives in its lookup row. */
export interface PriceSource {
  marketplace: MarketplaceId;
  /** Price columns, first non-empty wins: a total with shipping first when the marketplace gives one. */
  price: readonly string[];
  /** Added to the price when present (a shipping cost given apart from the price). */
  shipping?: string;
  /** The price counts only with its shipping known: an empty shipping is unknown, not free. */
  shippingRequired?: boolean;
  /** The row's currency column; without one the marketplace answers in USD (we ask it for USD). */
  currency?: string;
}

/** Best price and spread compare only prices in this currency: prices are never converted. */
export const COMPARISON_CURRENCY = 'USD';

export const PRICE_SOURCES: readonly PriceSource[] = [
  // totalListingPrice is book + first-book shipping (docs/marketplaces/abebooks.md); the bare price is the fallback.
  { marketplace: 'abe_books', price: ['total_listing_price', 'listing_price'] },
  // Biblio may answer in another currency and may give shipping apart.
  { marketplace: 'biblio', price: ['price'], shipping: 'shipping_price', currency: 'currency' },
  { marketplace: 'alibris', price: ['price'] },
  // Amazon's lowest landed (price + shipping) used offer, else its lowest new one.
  { marketplace: 'amazon', price: ['lowest_used_price', 'lowest_new_price'] },
  // eBay gives shipping apart (shippingOptions[].shippingCost); we ask EBAY_US, which answers in USD.
  // Empty only when eBay could not price CALCULATED shipping for any offer: no delivered price then.
  { marketplace: 'ebay', price: ['price'], shipping: 'shipping_cost', shippingRequired: true, currency: 'currency' },
];

/** Columns of one marketplace's lookup row shown in the comparison as they are (Amazon's demand and Buy Box). */
export interface ExtraColumn {
  marketplace: MarketplaceId;
  /** The lookup row's column. */
  column: string;
  /** The comparison's field. */
  name: string;
  label: string;
  money?: boolean;
}

export const EXTRA_COLUMNS: readonly ExtraColumn[] = [
  { marketplace: 'amazon', column: 'sales_rank', name: 'amazon_sales_rank', label: 'Amazon Sales Rank' },
  { marketplace: 'amazon', column: 'lowest_used_price', name: 'amazon_lowest_used', label: 'Amazon Lowest Used', money: true },
  { marketplace: 'amazon', column: 'lowest_new_price', name: 'amazon_lowest_new', label: 'Amazon Lowest New', money: true },
  { marketplace: 'amazon', column: 'buy_box_price', name: 'amazon_buy_box', label: 'Amazon Buy Box', money: true },
];

/** PalletIQ does not sell: it says whether to buy (decision) and what it is worth (value). */
export const DECISION_SOURCE = {
  marketplace: 'pallet_iq',
  decision: 'winner_amazon_log_data_mp_decision',
  value: 'winner_amazon_log_data_mm_val',
} as const satisfies { marketplace: MarketplaceId; decision: string; value: string };

/** The comparison's decision column, and the hidden rank it sorts by (the rule's position). */
export const DECISION_FIELD = 'decision';
export const DECISION_RANK = 'decision_rank';

/** Names of a price source's columns in the comparison row. */
export const priceField = (id: MarketplaceId) => `${id}_price`;
export const currencyField = (id: MarketplaceId) => `${id}_currency`;
export const statusField = (id: MarketplaceId) => `${id}_status`;
/** The price's change since the previous look at the ISBN on that marketplace (price history). */
export const changeField = (id: MarketplaceId) => `${id}_change`;
/** How many offers the marketplace's answer had. */
export const offersField = (id: MarketplaceId) => `${id}_offers`;
/** The best USD price now minus the best of the previous looks' USD prices. */
export const BEST_PRICE_CHANGE = 'best_price_change';

/** Change columns, shown with their direction (▼ / ▲) rather than a sign. */
export const CHANGE_FIELDS: ReadonlySet<string> = new Set([...PRICE_SOURCES.map((s) => changeField(s.marketplace)), BEST_PRICE_CHANGE]);

/**
 * Every comparison column. `id` is the row's place in the upload (the first enabled marketplace's
 * lookup id): the default order and the tie-breaker of every sort; it is not shown.
 */
export const COMPARISON_FIELDS: readonly FieldDef[] = [
  { ...field('id', 'Row', 'number', { filterable: false }), required: true },
  { ...col('isbn', 'ISBN'), required: true },
  // Open Library's book details (book_details) first; the marketplaces' listing titles fill in.
  col('title', 'Title'),
  col('author', 'Author'),
  col('publisher', 'Publisher'),
  col('publish_year', 'Year', 'number'),
  ...PRICE_SOURCES.map((s) =>
    money(col(priceField(s.marketplace), MARKETPLACES[s.marketplace].label, 'number'), currencyField(s.marketplace)),
  ),
  money(col('best_price', 'Best Price', 'number')),
  col('best_source', 'Best Source'),
  // The outcome of the first matching buy rule (decisions/ stores it when the job is judged), sorted
  // in rule order ("No rule" last); empty while the job was never judged.
  { ...col(DECISION_FIELD, 'Decision'), sortColumn: DECISION_RANK },
  money(col('spread', 'Spread', 'number')),
  // Selling at the best price, after the best source's fees and the job's cost per book (domain/src/fees.ts).
  money(col('estimated_profit', 'Estimated Profit', 'number')),
  ...EXTRA_COLUMNS.map((e) => (e.money ? money(col(e.name, e.label, 'number')) : col(e.name, e.label, 'number'))),
  // How fast the book sells, from its Amazon sales rank over time (velocity.ts; docs/features/velocity.md).
  ...VELOCITY_FIELDS.map(({ stored: _, ...f }) => f),
  col('pallet_iq_decision', 'PalletIQ Decision'),
  money(col('pallet_iq_value', 'PalletIQ Value', 'number')),
  // Change since the previous look (price history): empty until an ISBN was looked at twice in one currency.
  ...PRICE_SOURCES.map((s) =>
    money(col(changeField(s.marketplace), `${MARKETPLACES[s.marketplace].label} Change`, 'number'), currencyField(s.marketplace)),
  ),
  money(col(BEST_PRICE_CHANGE, 'Best Price Change', 'number')),
  // Not shown as columns; filterable, and in the CSV.
  ...PRICE_SOURCES.map((s) => field(currencyField(s.marketplace), `${MARKETPLACES[s.marketplace].label} Currency`)),
  ...PRICE_SOURCES.map((s) => field(offersField(s.marketplace), `${MARKETPLACES[s.marketplace].label} Offers`, 'number')),
  ...[...PRICE_SOURCES.map((s) => s.marketplace), DECISION_SOURCE.marketplace].map((id) =>
    field(statusField(id), `${MARKETPLACES[id].label} Status`),
  ),
];

/** The CSV's columns: everything but the internal row id. */
export const COMPARISON_CSV_FIELDS: readonly FieldDef[] = COMPARISON_FIELDS.filter((f) => f.name !== 'id');

/** The marketplace a comparison column belongs to (its data is absent when the job does not ask it). */
export function comparisonFieldSource(name: string): MarketplaceId | undefined {
  if (name.startsWith(`${DECISION_SOURCE.marketplace}_`)) return DECISION_SOURCE.marketplace;
  return PRICE_SOURCES.find((s) => name.startsWith(`${s.marketplace}_`))?.marketplace;
}
