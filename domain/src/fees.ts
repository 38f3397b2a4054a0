// Seller fees per selling marketplace and the profit a sale at the best price would leave.
// Defaults come from published fee tables (docs/features/fees.md, The defaults), declared by each
// selling marketplace's registry entry (domain/src/marketplaces.ts); each carries its source, the
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
import type { FeeDefault, FeeSchedule } from './fee-schedule.ts';
import { MARKETPLACE_LIST, MARKETPLACES, type MarketplaceFacts, type MarketplaceId } from './marketplaces.ts';

export { FEE_CERTAINTIES, type FeeCertainty, type FeeDefault, type FeeSchedule } from './fee-schedule.ts';

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

/** The marketplaces a book is sold on: the comparison's price sources (PalletIQ only advises). */
export const SELLING_MARKETPLACES: readonly MarketplaceId[] = PRICE_SOURCES.map((s) => s.marketplace);
export const SELLING_SLUGS = SELLING_MARKETPLACES.map((id) => MARKETPLACES[id].slug);

/** Each selling marketplace's default schedule, as its registry entry declares it. */
export function feeDefaultsOf<Id extends string>(registry: readonly MarketplaceFacts<Id>[]): Partial<Record<Id, FeeDefault>> {
  return Object.fromEntries(registry.flatMap((m) => (m.selling ? [[m.id, m.selling.fees]] : []))) as Partial<Record<Id, FeeDefault>>;
}

export const FEE_DEFAULTS: Readonly<Partial<Record<MarketplaceId, FeeDefault>>> = feeDefaultsOf(MARKETPLACE_LIST);

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
