// Shapes of the fee schedule API and of a job's cost per book.
import { z } from 'zod';
import { FEE_CERTAINTIES, FEE_FIELD_LABELS, FEE_LIMITS, SELLING_MARKETPLACES, SELLING_SLUGS, type FeeSchedule } from '@app/domain/fees';
import type { MarketplaceId } from '@app/domain/marketplaces';

/** The {market} segment of /fee-schedules/{market}: a selling marketplace's slug; anything else is a 422 naming `market`. */
export const SellingMarketParam = z.object({
  market: z
    .enum(SELLING_SLUGS as [string, ...string[]])
    .meta({ id: 'SellingMarketSlug', description: 'A marketplace books are sold on: its URL segment' }),
});

const limited = (f: keyof FeeSchedule) => {
  const { min, max } = FEE_LIMITS[f];
  const msg = `${FEE_FIELD_LABELS[f]} must be between ${min} and ${max}`;
  return z
    .number({ error: `${FEE_FIELD_LABELS[f]} must be a number` })
    .min(min, msg)
    .max(max, msg);
};

/** A bound of the commission: a number within its limits, or null (or left out) for none. */
const bound = (f: 'min_commission' | 'max_commission') => limited(f).nullable().default(null);

export const FeeScheduleIn = z
  .object({
    percent: limited('percent'),
    min_commission: bound('min_commission'),
    max_commission: bound('max_commission'),
    fixed: limited('fixed'),
    shipping_credit: limited('shipping_credit'),
  })
  .refine((s) => s.min_commission === null || s.max_commission === null || s.min_commission <= s.max_commission, {
    message: 'Maximum commission cannot be below the minimum',
    path: ['max_commission'],
  })
  .meta({ id: 'FeeScheduleIn' });

const Figures = {
  percent: z.number(),
  min_commission: z.number().nullable(),
  max_commission: z.number().nullable(),
  fixed: z.number(),
  shipping_credit: z.number(),
};

export const FeeDefaultOut = z
  .object({
    ...Figures,
    source: z.string(),
    source_url: z.string(),
    as_of: z.string().meta({ description: 'The date the source gives for the figures' }),
    certainty: z.enum(FEE_CERTAINTIES),
    note: z.string(),
  })
  .meta({ id: 'FeeDefault' });

export const FeeScheduleOut = z
  .object({
    marketplace: z.enum(SELLING_MARKETPLACES as [MarketplaceId, ...MarketplaceId[]]),
    ...Figures,
    is_default: z.boolean().meta({ description: 'No superuser has set it: the default below is in force' }),
    updated_at: z.date().nullable(),
    updated_by: z.object({ id: z.string(), email: z.string(), full_name: z.string().nullable() }).nullable(),
    default: FeeDefaultOut,
  })
  .meta({ id: 'FeeSchedule' });

export const FeeSchedulesOut = z.object({ data: z.array(FeeScheduleOut) }).meta({ id: 'FeeSchedules' });

/** Largest cost accepted: beyond any book or pallet, still well inside a double's exact range. */
export const MAX_COST = 1_000_000_000;

const cost = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(MAX_COST, `${label} is too large`)
    .nullable();

export const JobCostIn = z
  .object({
    cost_per_book: cost('Cost per book').optional(),
    pallet_cost: cost('Pallet cost')
      .optional()
      .meta({ description: "The pallet's cost: divided by the job's books to give the cost per book" }),
  })
  .meta({ id: 'JobCostIn', description: 'Either cost_per_book or pallet_cost; null clears the cost' });
