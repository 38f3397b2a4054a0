// How fast a book sells, read from its Amazon sales rank over time (docs/features/velocity.md): rank
// drops over 30 / 90 / 180 days, the time-weighted average rank over 90 / 180 days, and the days with
// a sale in the last 180, from Keepa's rank series when we have one, else from our own Amazon looks,
// with how many ranked points they rest on. The comparison's velocity fields are this table.
import { col, type FieldDef } from './fields.ts';

/** A rank drop (taken as a sale) is a step to a rank better than the previous one by more than this share. */
export const SALE_RANK_IMPROVEMENT = 0.1;

/** Windows, in days, of the drop counts and the averages; days with a sale look back the longest one. */
export const DROP_WINDOWS = [30, 90, 180] as const;
export const AVERAGE_WINDOWS = [90, 180] as const;
export const SALE_DAYS_WINDOW = 180;

/**
 * Fewer ranked points than this within the last 180 days (about one a fortnight) and the book page
 * marks the figures as resting on a thin history: several sales between two looks show as one drop.
 */
export const THIN_VELOCITY_OBSERVATIONS = 12;

/** The `marketplace` of the history points that came from Keepa (Amazon's history before our looks). */
export const KEEPA_SOURCE = 'keepa';

/** Where the figures of a book come from: Keepa's series, or our own looks at Amazon. */
export const VELOCITY_SOURCES = ['keepa', 'amazon'] as const;
export type VelocitySource = (typeof VELOCITY_SOURCES)[number];

/**
 * The comparison's velocity fields, in the order of its columns; `stored` is book_velocity's column. Numbers
 * filter and sort like the other numbers; the source and the observation count say how thin they are.
 */
export const VELOCITY_FIELDS: readonly (FieldDef & { stored: string })[] = [
  { ...col('rank_drops_30', 'Rank Drops 30d', 'number'), stored: 'rank_drops_30' },
  { ...col('rank_drops_90', 'Rank Drops 90d', 'number'), stored: 'rank_drops_90' },
  { ...col('rank_drops_180', 'Rank Drops 180d', 'number'), stored: 'rank_drops_180' },
  { ...col('avg_rank_90', 'Avg Rank 90d', 'number'), stored: 'avg_rank_90' },
  { ...col('avg_rank_180', 'Avg Rank 180d', 'number'), stored: 'avg_rank_180' },
  { ...col('sale_days_180', 'Sale Days 180d', 'number'), stored: 'sale_days_180' },
  { ...col('velocity_observations', 'Rank Observations', 'number'), stored: 'observations' },
  { ...col('velocity_source', 'Velocity Source'), stored: 'source' },
];
