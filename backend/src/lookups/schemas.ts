// Response shapes of one marketplace's lookups, built from its field table.
import { z } from 'zod';
import type { MarketplaceInfo } from '@app/domain/marketplaces';
import type { FieldDef } from '@app/domain/fields';
import { CountFields } from '../lib/api-schemas.ts';

function fieldSchema(f: FieldDef) {
  const base = f.type === 'number' ? z.number() : f.type === 'date' ? z.date() : z.string();
  return f.required ? base : base.nullable();
}

const pascal = (id: string) => id.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

export function lookupSchemas(m: MarketplaceInfo) {
  const row = z
    .object({
      ...Object.fromEntries(m.fields.map((f) => [f.name, fieldSchema(f)])),
      // A queued lookup that failed before and waits for another try: when, and why.
      retry_at: z.date().nullable(),
      retry_reason: z.string().nullable(),
    })
    .meta({ id: `${pascal(m.id)}PriceLookup` });
  const list = z.object({ data: z.array(row), ...CountFields }).meta({ id: `${pascal(m.id)}PriceLookups` });
  const offers = z
    .object({
      id: z.number().int(),
      isbn: z.string(),
      lookup_status: z.string(),
      last_error: z.string().nullable(),
      attempts: z.number().int(),
      offers: z.array(z.record(z.string(), z.unknown())),
    })
    .meta({ id: `${pascal(m.id)}Offers` });
  return { row, list, offers };
}
