// What selling one book costs on a marketplace: the shape of a fee schedule and of the default each
// selling marketplace's registry entry declares (domain/src/marketplaces.ts). Apart from fees.ts so
// the registry can declare its defaults without importing what is derived from the registry.

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
