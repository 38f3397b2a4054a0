// Seller fees per selling marketplace and the profit a sale at the best price would leave.
// Defaults come from published fee tables (docs/features/fees.md, The defaults); each carries its source, the
// date the source gives and how sure we are, because fee tables change every few years and a default
// is only as good as its date. Superusers override them (fee_schedules table); the comparison's
// estimated_profit is computed in SQL from the schedules in force with the formula below.
//
// Modelled: a percentage commission bounded per item (AbeBooks: at least US$0.50, at most US$40),
// a fixed fee per item and a shipping credit per item.
// Left out on purpose (per-item figures cannot say them):
// - card-processing fees when the marketplace takes the payment (AbeBooks 5.5 % / 3.5 %, Biblio's
//   amount unknown): they depend on how the buyer pays;
// - monthly subscriptions (AbeBooks from $25 a month, Biblio plan B, Alibris $9.95): they are per
//   month, not per book;
// - Biblio's commission-free sales to other dealers.
import { PRICE_SOURCES } from './comparison.ts';
import { MARKETPLACES, type MarketplaceId } from './marketplaces.ts';

/** What selling one book costs on a marketplace. */
export interface FeeSchedule {
  /** Commission, percent of the price the comparison shows (with shipping where the marketplace gives it). */
  percent: number;
  /** The commission's per-item minimum and maximum, in USD; null: no bound. */
  min_commission: number | null;
  max_commission: number | null;
  /** Fixed fee per item sold, in USD. */
  fixed: number;
  /** What the marketplace pays the seller towards shipping, in USD. */
  shipping_credit: number;
}

export const FEE_FIELDS = [
  'percent',
  'min_commission',
  'max_commission',
  'fixed',
  'shipping_credit',
] as const satisfies readonly (keyof FeeSchedule)[];

/** Fields that may be null (no bound). */
export const OPTIONAL_FEE_FIELDS: readonly (keyof FeeSchedule)[] = ['min_commission', 'max_commission'];

/** Allowed values of each schedule field (inclusive), checked by the API. */
export const FEE_LIMITS: Record<keyof FeeSchedule, { min: number; max: number }> = {
  percent: { min: 0, max: 100 },
  min_commission: { min: 0, max: 1000 },
  max_commission: { min: 0, max: 1000 },
  fixed: { min: 0, max: 1000 },
  shipping_credit: { min: 0, max: 1000 },
};

export const FEE_FIELD_LABELS: Record<keyof FeeSchedule, string> = {
  percent: 'Commission (%)',
  min_commission: 'Minimum commission',
  max_commission: 'Maximum commission',
  fixed: 'Fixed fee per item',
  shipping_credit: 'Shipping credit',
};

/** CONFIRMED: stated by the platform or two consistent sources; HISTORICAL: true at a past date; UNCERTAIN: weak or no source. */
export const FEE_CERTAINTIES = ['CONFIRMED', 'HISTORICAL', 'UNCERTAIN'] as const;
export type FeeCertainty = (typeof FEE_CERTAINTIES)[number];

/** A default schedule and where its figures come from. */
export interface FeeDefault extends FeeSchedule {
  source: string;
  source_url: string;
  /** The date the source gives for the figures, as precise as it is. */
  as_of: string;
  certainty: FeeCertainty;
  note: string;
}

/** The marketplaces a book is sold on: the comparison's price sources (PalletIQ only advises). */
export const SELLING_MARKETPLACES: readonly MarketplaceId[] = PRICE_SOURCES.map((s) => s.marketplace);
export const SELLING_SLUGS = SELLING_MARKETPLACES.map((id) => MARKETPLACES[id].slug);

export const FEE_DEFAULTS: Readonly<Partial<Record<MarketplaceId, FeeDefault>>> = {
  abe_books: {
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
  biblio: {
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
  alibris: {
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
  amazon: {
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
  ebay: {
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
};

/** A selling marketplace's default (every selling marketplace has one: see fees.test.ts). */
export function feeDefault(id: MarketplaceId): FeeDefault {
  const d = FEE_DEFAULTS[id];
  if (!d) throw new Error(`${id} is not a selling marketplace`);
  return d;
}

/** The commission on one sale: percent of the price, within its per-item bounds. */
export function commission(price: number, s: FeeSchedule): number {
  const raw = (s.percent / 100) * price;
  return Math.min(Math.max(raw, s.min_commission ?? raw), s.max_commission ?? raw);
}

/** Fee for one sale: the commission plus the fixed fee. */
export const saleFee = (price: number, s: FeeSchedule) => commission(price, s) + s.fixed;

/**
 * What selling at `price` on a marketplace with schedule `s` earns after the book's cost: the price
 * (with shipping where the marketplace gives it, which AbeBooks also charges commission on) less the
 * fee (bounded commission + fixed), plus the shipping credit, less what the book cost (0 when unknown). The SQL in
 * backend/src/comparison/query.ts computes the same.
 */
export function estimatedProfit(price: number, s: FeeSchedule, costPerBook: number | null): number {
  return price - saleFee(price, s) + s.shipping_credit - (costPerBook ?? 0);
}

/** Cost per book from a pallet's cost: spread evenly over the job's books (none: no cost can be said). */
export function costFromPallet(palletCost: number, books: number): number | null {
  return books > 0 ? palletCost / books : null;
}
