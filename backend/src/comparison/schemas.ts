// Shapes of a job's comparison across marketplaces and of its price distribution.
import { z } from 'zod';
import { COMPARISON_FIELDS, PRICE_SOURCES } from '@app/domain/comparison';
import { CountFields } from '../lib/api-schemas.ts';
import { fieldSchema } from '../lookups/schemas.ts';

export const ComparisonRow = z
  .object(Object.fromEntries(COMPARISON_FIELDS.map((f) => [f.name, fieldSchema(f)])))
  .meta({ id: 'ComparisonRow' });

export const ComparisonPage = z.object({ data: z.array(ComparisonRow), ...CountFields }).meta({ id: 'ComparisonPage' });

export const PriceBucket = z
  .object({
    from: z.number(),
    to: z.number().nullable().meta({ description: 'Exclusive upper edge; null for the last bucket, which holds every higher price' }),
    counts: z.object(Object.fromEntries(PRICE_SOURCES.map((s) => [s.marketplace, z.number().int()]))),
  })
  .meta({ id: 'PriceBucket' });

export const PriceDistribution = z
  .object({
    currency: z.string(),
    bucket_width: z.number(),
    buckets: z.array(PriceBucket),
    other_currency: z.number().int().meta({ description: 'Prices left out because they are not in the currency above' }),
  })
  .meta({ id: 'PriceDistribution' });

const ResultFigures = {
  books: z.number().int(),
  cost: z.number().nullable().meta({ description: "Books × the job's cost per book; null while the cost is not set" }),
  estimated_profit: z.number().meta({ description: 'Sum of the Estimated Profit of the books that have one' }),
  priced: z.number().int().meta({ description: 'Books with an Estimated Profit (a best price)' }),
};

export const JobResults = z
  .object({
    job_id: z.number().int(),
    books: z.number().int(),
    cost_per_book: z.number().nullable(),
    all: z.object(ResultFigures).meta({ id: 'ResultFigures' }),
    decisions: z
      .array(z.object({ outcome: z.string(), ...ResultFigures }).meta({ id: 'DecisionResult' }))
      .meta({ description: 'Per decision (empty until judged), in no particular order' }),
    best_sources: z
      .array(z.object({ source: z.string().nullable(), books: z.number().int() }).meta({ id: 'BestSourceCount' }))
      .meta({ description: 'Books per best source, most first; source null: no US dollar price to compare' }),
  })
  .meta({ id: 'JobResults' });
