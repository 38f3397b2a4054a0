// Response shapes of the price-lookup API. Each marketplace's row is built from its field table;
// the one parametric operation answers with any of them (which one follows from {market}).
import { z } from 'zod';
import { MARKETPLACE_LIST, type MarketplaceInfo } from '@app/domain/marketplaces';
import type { FieldDef } from '@app/domain/fields';
import { CountFields } from '../lib/api-schemas.ts';

/** A field's value in a response: its type, nullable unless the field is required. */
export function fieldSchema(f: FieldDef) {
  const base = f.type === 'number' ? z.number() : f.type === 'date' ? z.date() : z.string();
  return f.required ? base : base.nullable();
}

/** When the marketplace answered the lookup, and whether the answer was copied from an earlier lookup of the ISBN. */
const AnswerAge = {
  answered_at: z.date().nullable().meta({ description: 'When the marketplace answered (for a reused answer: the original answer)' }),
  reused: z.boolean().meta({ description: 'Filled from a recent answer for the same ISBN instead of a new request' }),
};

const pascal = (id: string) => id.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/**
 * One marketplace's lookup row. Strict: the response union below keeps a row whole only if exactly
 * one member matches its columns (a loose member would strip another marketplace's extra fields).
 */
export function lookupRowSchema(m: MarketplaceInfo) {
  return z
    .strictObject({
      ...Object.fromEntries(m.fields.map((f) => [f.name, fieldSchema(f)])),
      // A queued lookup that failed before and waits for another try: when, and why.
      retry_at: z.date().nullable(),
      retry_reason: z.string().nullable(),
      ...AnswerAge,
    })
    .meta({ id: `${pascal(m.id)}PriceLookup` });
}

export const PriceLookupRow = z.union(MARKETPLACE_LIST.map(lookupRowSchema));
export type PriceLookupRow = z.infer<typeof PriceLookupRow>;

export const PriceLookups = z.object({ data: z.array(PriceLookupRow), ...CountFields }).meta({ id: 'PriceLookups' });

export const LookupOffers = z
  .object({
    id: z.number().int(),
    isbn: z.string(),
    lookup_status: z.string(),
    last_error: z.string().nullable(),
    attempts: z.number().int(),
    offers: z.array(z.record(z.string(), z.unknown())),
    ...AnswerAge,
  })
  .meta({ id: 'LookupOffers' });
