// The marketplaces: identifiers, page texts and field tables shared by backend and frontend.
import type { FeeDefault } from './fee-schedule.ts';
import { col, field, money, type FieldDef } from './fields.ts';

/** Sidebar icons a marketplace may name (the frontend maps each to its picture: components/layout/marketplace-icons.ts). */
export const MARKETPLACE_ICONS = ['book', 'books', 'store', 'package', 'amazon', 'shopping-bag'] as const;
export type MarketplaceIcon = (typeof MARKETPLACE_ICONS)[number];

/** Columns of a marketplace's lookup row shown in the job comparison as they are (Amazon's demand and Buy Box). */
export interface ExtraColumnFacts {
  /** The lookup row's column. */
  column: string;
  /** The comparison's field. */
  name: string;
  label: string;
  money?: boolean;
}

/**
 * A marketplace books are sold on: it is a price source of the job comparison (best price, spread,
 * estimated profit), has a fee schedule and a price history.
 */
export interface SellingFacts {
  /** Price columns, first non-empty wins: a total with shipping first when the marketplace gives one. */
  price: readonly string[];
  /** Added to the price when present (a shipping cost given apart from the price). */
  shipping?: string;
  /** The price counts only with its shipping known: an empty shipping is unknown, not free. */
  shippingRequired?: boolean;
  /** The row's currency column; without one the marketplace answers in USD (we ask it for USD). */
  currency?: string;
  /** Columns of its lookup row the comparison shows as they are. */
  extraColumns?: readonly ExtraColumnFacts[];
  /** Its default fee schedule, with its source and date (docs/features/fees.md). */
  fees: FeeDefault;
}

/**
 * A marketplace that does not sell but advises (PalletIQ): whether to buy and what the book is
 * worth. The comparison shows them as `<id>_decision` and `<id>_value`.
 */
export interface DecisionFacts {
  /** Its lookup row's decision column (text). */
  decision: string;
  /** Its lookup row's value column (a number, USD). */
  value: string;
  /** Every value the decision column can hold, offered as a list by filters and rules. */
  values: readonly string[];
}

/** What the rest of the product knows about one marketplace (its row of the registry below). */
export interface MarketplaceFacts<Id extends string = string> {
  /** Key of its flags and progress on jobs (`abe_books`), its job_progress source and env settings. */
  id: Id;
  /** URL segment: /api/v1/{slug}/… and the page route /{slug}. */
  slug: string;
  /** Sidebar and checkbox label. */
  label: string;
  /** Page title. */
  title: string;
  /** Prefix of downloaded CSV files. */
  csvPrefix: string;
  /** Placeholder rows shown while a page loads. */
  placeholderRows: number;
  /** Database table holding this marketplace's lookups. */
  table: string;
  fields: readonly FieldDef[];
  /** Said wherever the marketplace's offers are shown, when it returns only some of them. */
  offersNote?: string;
  /** Its sidebar icon; without one a generic one. */
  icon?: MarketplaceIcon;
  /** Its colour in every chart (a Mantine palette shade), unlike every other marketplace's. */
  color: string;
  /** Books are sold there: how to read its price, and its fees. */
  selling?: SellingFacts;
  /** It advises rather than sells: its decision and value columns. */
  decision?: DecisionFacts;
}

// Columns every lookup row has, whatever the marketplace.
const created = col('created_at', 'Created At', 'date');
const updated = col('updated_at', 'Updated At', 'date');
const inputFilename = col('input_filename', 'Input Filename');
const jobId = col('isbn_lookup_job_id', 'Job ID', 'number');

const abeBooksFields: FieldDef[] = [
  col('id', 'Offer ID', 'number'),
  col('isbn', 'ISBN'),
  col('listing_url', 'Listing URL', 'text', true),
  money(col('listing_price', 'Listing Price', 'number')),
  money(col('total_listing_price', 'Total Listing Price', 'number')),
  col('quantity', 'Quantity', 'number'),
  col('listing_condition', 'Listing Condition'),
  col('item_condition', 'Item Condition'),
  col('seller_rating', 'Seller Rating', 'number'),
  // In the vendor's own currency, which the lookup row does not keep: a plain number, not USD.
  col('vendor_price', 'Vendor Price', 'number'),
  col('vendor_id', 'Vendor ID'),
  created,
  updated,
  inputFilename,
  jobId,
  col('lookup_status', 'Lookup Status'),
  field('title', 'Title'),
  field('author', 'Author'),
  field('vendor_name', 'Seller'),
];

// Biblio: the specification's columns, then the ~70 listing fields it filters on
// (evidenced first, then assumed: docs/marketplaces/biblio.md).
const biblioFields: FieldDef[] = [
  col('id', 'Offer ID', 'number'),
  col('isbn', 'ISBN'),
  col('book_link', 'Canonical Book Link', 'text', true),
  col('product_id', 'Product ID'),
  money(col('price', 'Price', 'number'), 'currency'),
  created,
  updated,
  inputFilename,
  jobId,
  col('lookup_status', 'Lookup Status'),
  ...(
    [
      // Keys public clients read off real answers first, then ones seen elsewhere in Biblio's JSON,
      // then the spec's and our own guesses (backend biblio/mapping.ts says which is which).
      ['author', 'Author'],
      ['title', 'Title'],
      ['subtitle', 'Subtitle'],
      ['publisher', 'Publisher'],
      ['currency', 'Currency'],
      ['photo', 'Photo'],
      ['publish_date', 'Publish Date'],
      ['biblio_sku', 'Biblio SKU'],
      ['book_id', 'Book ID'],
      ['illustrator', 'Illustrator'],
      ['publish_place', 'Publish Place'],
      ['first_edition', 'First Edition'],
      ['signed', 'Signed'],
      ['jacket', 'Jacket'],
      ['format', 'Format'],
      ['book_condition', 'Book Condition'],
      ['seller', 'Seller'],
      ['seller_id', 'Seller ID'],
      ['seller_country', 'Seller Country'],
      ['slug', 'Slug'],
      ['isbn10', 'ISBN-10'],
      ['isbn13', 'ISBN-13'],
      ['edition', 'Edition'],
      ['binding', 'Binding'],
      ['jacket_condition', 'Jacket Condition'],
      ['language', 'Language'],
      ['pages', 'Pages'],
      ['keywords', 'Keywords'],
      ['description', 'Description'],
      ['listing_id', 'Listing ID'],
      ['date_added', 'Date Added'],
      ['ship_to_country', 'Ship To Country'],
      ['seller_city', 'Seller City'],
      ['seller_state', 'Seller State'],
      ['url', 'URL'],
      ['affiliate_url', 'Affiliate URL'],
      ['isbn_match', 'ISBN Match'],
      ['shipping_method', 'Shipping Method'],
      ['seller_email', 'Seller Email'],
      ['seller_phone', 'Seller Phone'],
      ['return_policy', 'Return Policy'],
      ['item_note', 'Item Note'],
      ['size', 'Size'],
      ['category', 'Category'],
      ['dust_jacket', 'Dust Jacket'],
      ['inscribed', 'Inscribed'],
      ['availability', 'Availability'],
      ['location', 'Location'],
    ] as const
  ).map(([name, label]) => field(name, label)),
  ...(
    [
      ['currency_conversion_rate', 'Currency Conversion Rate'],
      ['ninety_day_fulfillment', 'Ninety Day Fulfillment'],
      ['ninety_day_count', 'Ninety Day Count'],
      ['dealer_discount', 'Dealer Discount'],
      ['numeric_condition', 'Numeric Condition'],
      ['quantity', 'Quantity'],
      ['listing_orig_price', 'Listing Original Price'],
      ['listing_reduced_price', 'Listing Reduced Price'],
      ['shipping_price', 'Shipping Price'],
      ['seller_rating', 'Seller Rating'],
      ['photo_count', 'Photo Count'],
    ] as const
  ).map(([name, label]) => (name.endsWith('_price') ? money(field(name, label, 'number'), 'currency') : field(name, label, 'number'))),
];

const alibrisFields: FieldDef[] = [
  col('isbn', 'ISBN'),
  inputFilename,
  jobId,
  col('title', 'Title'),
  col('sellername', 'Seller Name'),
  col('condition', 'Condition'),
  money(col('price', 'Price', 'number')),
  col('sellercountry', 'Ships From'),
  col('lookup_status', 'Status'),
  created,
  updated,
  field('id', 'Offer ID', 'number'),
  field('author', 'Author'),
];

/**
 * PalletIQ's marketplace decision (mp_decision) as stored: PalletIQ's word as it sends it (the
 * sandbox answers accept or reject), or a boolean as "true" / "false" (backend palletiq/mapping.ts).
 */
export const PALLET_IQ_DECISIONS = ['accept', 'reject', 'true', 'false'] as const;
export type PalletIqDecision = (typeof PALLET_IQ_DECISIONS)[number];

const palletIqFields: FieldDef[] = [
  col('id', 'Offer ID', 'number'),
  col('isbn', 'ISBN'),
  col('winner_amazon_log_data_mp_decision', 'MP Decision'),
  money(col('winner_amazon_log_data_mm_val', 'PalletIQ Profit', 'number')),
  col('lookup_status', 'Status'),
  field('input_filename', 'Input Filename'),
  field('isbn_lookup_job_id', 'Job ID', 'number'),
  field('created_at', 'Created At', 'date'),
  field('updated_at', 'Updated At', 'date'),
  // What PalletIQ's answer carries besides the decision (meta.* and winner.amazonLogData.fba_decision).
  field('title', 'Title'),
  field('asin', 'ASIN'),
  field('image_url', 'Image URL', 'text', { link: true }),
  field('weight', 'Weight', 'number'),
  field('fba_decision', 'FBA Decision'),
];

// Amazon (Selling Partner API): the book's catalog facts and sales rank (searchCatalogItems), the
// per-book summary of its used and new offers and the chosen offer (getItemOffersBatch). Amazon sends
// at most 20 offers per condition; it gives no seller name, quantity or offer URL (backend amazon/mapping.ts).
const amazonFields: FieldDef[] = [
  col('id', 'Offer ID', 'number'),
  col('isbn', 'ISBN'),
  col('asin', 'ASIN'),
  col('title', 'Title'),
  col('sales_rank', 'Sales Rank', 'number'),
  money(col('lowest_used_price', 'Lowest Used', 'number')),
  money(col('lowest_new_price', 'Lowest New', 'number')),
  money(col('buy_box_price', 'Buy Box', 'number')),
  col('used_offer_count', 'Used Offers', 'number'),
  col('lookup_status', 'Status'),
  created,
  updated,
  inputFilename,
  jobId,
  // What the schema declares first (backend amazon/mapping.ts: CERTAIN), then our readings (INFERRED).
  field('total_offer_count', 'Total Offers', 'number'),
  // The chosen offer: the cheapest landed used offer.
  field('condition', 'Condition'),
  field('sub_condition', 'Sub-condition'),
  money(field('listing_price', 'Listing Price', 'number')),
  money(field('shipping', 'Shipping', 'number')),
  field('seller_id', 'Seller ID'),
  field('seller_feedback_percent', 'Seller Feedback %', 'number'),
  field('seller_feedback_count', 'Seller Feedback Count', 'number'),
  field('fulfilled_by_amazon', 'FBA'),
  field('prime', 'Prime'),
  field('buy_box_winner', 'Buy Box Winner'),
  field('author', 'Author'),
  field('sales_rank_category', 'Sales Rank Category'),
  field('new_offer_count', 'New Offers', 'number'),
  field('product_url', 'Amazon Page', 'text', { link: true }),
];

// eBay Buy Browse item_summary/search: the chosen (cheapest price + shipping, in USD) listing's
// ItemSummary fields (backend ebay/mapping.ts gives each one's evidence in eBay's contract).
const ebayFields: FieldDef[] = [
  col('id', 'Offer ID', 'number'),
  col('isbn', 'ISBN'),
  col('title', 'Title'),
  money(col('price', 'Price', 'number'), 'currency'),
  money(col('shipping_cost', 'Shipping', 'number'), 'currency'),
  col('condition', 'Condition'),
  col('seller_username', 'Seller'),
  col('seller_feedback_percentage', 'Feedback %', 'number'),
  col('listing_url', 'Listing URL', 'text', true),
  col('lookup_status', 'Status'),
  created,
  updated,
  inputFilename,
  jobId,
  field('currency', 'Currency'),
  field('shipping_type', 'Shipping Type'),
  field('condition_id', 'Condition ID'),
  field('seller_feedback_score', 'Feedback Score', 'number'),
  field('buying_options', 'Buying Options'),
  field('item_id', 'Item ID'),
];

/** Lookup columns that always have a value (NOT NULL in every lookup table). */
const REQUIRED_LOOKUP_FIELDS = new Set(['id', 'isbn', 'created_at', 'updated_at', 'isbn_lookup_job_id', 'lookup_status']);

const markRequired = (fields: FieldDef[]): FieldDef[] => fields.map((f) => ({ ...f, required: REQUIRED_LOOKUP_FIELDS.has(f.name) }));

/**
 * THE registry of marketplaces: one entry each, in display order. Every per-marketplace list in
 * the product (ids, slugs, job flags, API enum, routes, sidebar, tables) is derived from it.
 */
const REGISTRY = [
  {
    id: 'abe_books',
    slug: 'abe-books',
    label: 'Abe Books',
    title: 'Abe Books Price Lookups',
    csvPrefix: 'abe_books',
    placeholderRows: 15,
    table: 'abe_books_price_lookups',
    fields: markRequired(abeBooksFields),
    icon: 'book',
    color: 'red.7',
    selling: {
      // totalListingPrice is book + first-book shipping (docs/marketplaces/abebooks.md); the bare price is the fallback.
      price: ['total_listing_price', 'listing_price'],
      fees: {
        percent: 8,
        min_commission: 0.5,
        max_commission: 40,
        fixed: 0,
        // No credit: the dealer sets the shipping the buyer pays, which is already in the compared total.
        shipping_credit: 0,
        source: 'AbeBooks Bookseller Policies and Bookseller Agreement',
        source_url: 'https://www.abebooks.com/docs/BooksellerCentral/agreement/overview.shtml',
        as_of: '2008-04-28',
        certainty: 'CONFIRMED',
        note: 'Commission on price + shipping, at least US$0.50 and at most US$40 per item. Not modelled: card-processing fee, monthly subscription.',
      },
    },
  },
  {
    id: 'biblio',
    slug: 'biblio',
    label: 'Biblio',
    title: 'Biblio Price Lookups',
    csvPrefix: 'biblio',
    placeholderRows: 13,
    table: 'biblio_price_lookups',
    fields: markRequired(biblioFields),
    icon: 'books',
    color: 'blue.6',
    selling: {
      // Biblio may answer in another currency and may give shipping apart.
      price: ['price'],
      shipping: 'shipping_price',
      currency: 'currency',
      fees: {
        percent: 15,
        min_commission: null,
        max_commission: null,
        fixed: 0,
        shipping_credit: 0,
        source: 'Rare Book Hub, Biblio seller plans (Plan A)',
        source_url: 'https://www.rarebookhub.com/articles/340',
        as_of: '2006-02',
        certainty: 'HISTORICAL',
        note: 'Plan A: 15 % of sales, no monthly fee; current plans not confirmed. Not modelled: payment-processing fee, Plan B.',
      },
    },
  },
  {
    id: 'alibris',
    slug: 'alibris',
    label: 'Alibris',
    title: 'Alibris Price Lookups',
    csvPrefix: 'alibris',
    placeholderRows: 4,
    table: 'alibris_price_lookups',
    fields: markRequired(alibrisFields),
    icon: 'store',
    color: 'teal.7',
    selling: {
      price: ['price'],
      fees: {
        percent: 20,
        min_commission: null,
        max_commission: null,
        fixed: 0,
        shipping_credit: 0,
        source: 'Rare Book Hub, Alibris commission-only model',
        source_url: 'https://www.rarebookhub.com/articles/290',
        as_of: 'before 2005',
        certainty: 'UNCERTAIN',
        note: 'Historical 20 % commission; current commission, per-item fee and shipping credit are unconfirmed: check the Alibris seller agreement.',
      },
    },
  },
  {
    id: 'pallet_iq',
    slug: 'pallet-iq',
    label: 'PalletIQ',
    title: 'PalletIQ Price Lookups',
    csvPrefix: 'pallet_iq',
    placeholderRows: 4,
    table: 'pallet_iq_price_lookups',
    fields: markRequired(palletIqFields),
    icon: 'package',
    color: 'gray.7',
    // PalletIQ does not sell: it says whether to buy (decision) and what it is worth (value).
    decision: {
      decision: 'winner_amazon_log_data_mp_decision',
      value: 'winner_amazon_log_data_mm_val',
      values: PALLET_IQ_DECISIONS,
    },
  },
  {
    id: 'amazon',
    slug: 'amazon',
    label: 'Amazon',
    title: 'Amazon Price Lookups',
    csvPrefix: 'amazon',
    placeholderRows: 10,
    table: 'amazon_price_lookups',
    fields: markRequired(amazonFields),
    offersNote: 'Amazon returns at most 20 used offers per book (its own choice of them), so the site may list more.',
    icon: 'amazon',
    color: 'orange.7',
    selling: {
      // Amazon's lowest landed (price + shipping) used offer, else its lowest new one.
      price: ['lowest_used_price', 'lowest_new_price'],
      extraColumns: [
        { column: 'sales_rank', name: 'amazon_sales_rank', label: 'Amazon Sales Rank' },
        { column: 'lowest_used_price', name: 'amazon_lowest_used', label: 'Amazon Lowest Used', money: true },
        { column: 'lowest_new_price', name: 'amazon_lowest_new', label: 'Amazon Lowest New', money: true },
        { column: 'buy_box_price', name: 'amazon_buy_box', label: 'Amazon Buy Box', money: true },
      ],
      fees: {
        // Books: 15 % referral fee, no per-item minimum; $1.80 closing fee for media since 2017-03-01.
        percent: 15,
        min_commission: null,
        max_commission: null,
        fixed: 1.8,
        // The compared price is Amazon's landed price, which already holds the shipping the buyer pays
        // (the seller's shipping credit), so no credit is added on top.
        shipping_credit: 0,
        source: 'Amazon Seller Central fee table (Books, referral 15 %) and the media closing fee notice',
        source_url: 'https://sellercentral.amazon.com/forums/t/new-fees-for-media-new-shipping/224195',
        as_of: '2021-04-19',
        certainty: 'CONFIRMED',
        note: 'Referral fee on price + shipping: sources conflict on whether shipping counts, so the conservative reading. Not modelled: Professional plan $39.99/month or Individual $0.99 per item, FBA fees.',
      },
    },
  },
  {
    id: 'ebay',
    slug: 'ebay',
    label: 'eBay',
    title: 'eBay Price Lookups',
    csvPrefix: 'ebay',
    placeholderRows: 10,
    table: 'ebay_price_lookups',
    fields: markRequired(ebayFields),
    icon: 'shopping-bag',
    color: 'grape.7',
    selling: {
      // eBay gives shipping apart (shippingOptions[].shippingCost); we ask EBAY_US, which answers in USD.
      // Empty only when eBay could not price CALCULATED shipping for any offer: no delivered price then.
      price: ['price'],
      shipping: 'shipping_cost',
      shippingRequired: true,
      currency: 'currency',
      fees: {
        // Final value fee, Books & Magazines, no Store: 15.3 % of the total sale (item + shipping + tax)
        // up to $7,500, plus a per-order fee of $0.30 (order ≤ $10) or $0.40 (> $10).
        percent: 15.3,
        min_commission: null,
        max_commission: null,
        // One fixed fee per item: the $0.40 of orders over $10 (conservative for cheaper ones).
        fixed: 0.4,
        shipping_credit: 0,
        source: 'eBay selling fees (final value fee, Books & Magazines) and per-order fee',
        source_url: 'https://www.ebay.com/help/selling/fees-credits-invoices/selling-fees?id=4822',
        as_of: '2026-09-20',
        certainty: 'CONFIRMED',
        note: '15.3 % of item + shipping up to $7,500 (2.35 % above, not modelled) plus $0.40 per order ($0.30 when the order is $10 or less). Not modelled: the +4 points for below-standard sellers, tax in the fee base, Store subscriptions.',
      },
    },
  },
] as const satisfies readonly MarketplaceFacts[];

export type MarketplaceId = (typeof REGISTRY)[number]['id'];
export type MarketplaceSlug = (typeof REGISTRY)[number]['slug'];

export interface MarketplaceInfo extends MarketplaceFacts<MarketplaceId> {
  slug: MarketplaceSlug;
}

export const MARKETPLACE_LIST: readonly MarketplaceInfo[] = REGISTRY;
export const MARKETPLACE_IDS: readonly MarketplaceId[] = REGISTRY.map((m) => m.id);
export const MARKETPLACE_SLUGS: readonly MarketplaceSlug[] = REGISTRY.map((m) => m.slug);

/** One value per marketplace, keyed by id: how per-marketplace records are built from the registry. */
export function byMarketplace<T>(value: (m: MarketplaceInfo) => T): Record<MarketplaceId, T> {
  // fromEntries cannot know that the keys are exactly the ids; the registry guarantees it.
  return Object.fromEntries(MARKETPLACE_LIST.map((m) => [m.id, value(m)])) as Record<MarketplaceId, T>;
}

export const MARKETPLACES: Record<MarketplaceId, MarketplaceInfo> = byMarketplace((m) => m);

/** The marketplace behind a slug (one typed as, or validated against, MARKETPLACE_SLUGS). */
export function marketplaceOfSlug(slug: MarketplaceSlug): MarketplaceInfo {
  const m = MARKETPLACE_LIST.find((x) => x.slug === slug);
  if (!m) throw new Error(`No marketplace has the slug ${slug}`);
  return m;
}

/** Columns every lookup table has that are bookkeeping, not marketplace data. */
export const COMMON_LOOKUP_FIELDS = ['id', 'isbn', 'created_at', 'updated_at', 'input_filename', 'isbn_lookup_job_id', 'lookup_status'];

/** Marketplace-specific data columns (what an adapter fills in). */
export function dataFields(m: MarketplaceInfo): FieldDef[] {
  return m.fields.filter((f) => !COMMON_LOOKUP_FIELDS.includes(f.name));
}
