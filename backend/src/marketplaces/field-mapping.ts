// Wire key → our column, in one table per marketplace. The column's type (text | number) comes from
// the domain field table, so a wire value is converted the same way everywhere.
import { MARKETPLACES, dataFields, type MarketplaceId } from '@app/domain/marketplaces';
import type { LookupRecord } from './types.ts';
import { must } from '@app/domain/must';

/** How sure we are that the wire key exists and means this (docs/marketplaces/README.md, Evidence levels). */
export type Evidence = 'CERTAIN' | 'INFERRED' | 'UNKNOWN';

export interface FieldMapping {
  /** Our column (a data field of the marketplace's table). */
  field: string;
  /** Key in the marketplace's offer; dots walk into nested objects. */
  wire: string;
  evidence: Evidence;
  /** Replaces the type's default conversion (e.g. adding a URL scheme). */
  convert?: (value: unknown) => string | number | null;
}

export interface Mapping {
  marketplace: MarketplaceId;
  entries: readonly FieldMapping[];
  apply(offer: unknown): LookupRecord;
}

/** Builds a mapping; throws at import time when it does not cover the table's data columns exactly once. */
export function defineMapping(marketplace: MarketplaceId, entries: FieldMapping[]): Mapping {
  const columns = new Map(dataFields(MARKETPLACES[marketplace]).map((f) => [f.name, f.type]));
  const mapped = entries.map((e) => e.field);
  const missing = [...columns.keys()].filter((c) => !mapped.includes(c));
  const unknown = mapped.filter((c, i) => !columns.has(c) || mapped.indexOf(c) !== i);
  if (missing.length || unknown.length) {
    throw new Error(`${marketplace} mapping: unmapped columns [${missing}], unknown or repeated [${unknown}]`);
  }
  const converters = entries.map((e) => ({
    field: e.field,
    path: e.wire.split('.'),
    convert: e.convert ?? (columns.get(e.field) === 'number' ? toNumber : toText),
  }));
  return {
    marketplace,
    entries,
    apply(offer) {
      const record: LookupRecord = {};
      for (const c of converters) record[c.field] = c.convert(walk(offer, c.path));
      return record;
    },
  };
}

function walk(value: unknown, path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** Marketplaces send numbers as JSON numbers or as text ("12.0", "0.99"); anything else is unknown. */
export function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

export function toText(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** AbeBooks sends listing URLs without a scheme; the UI links them. */
export function withScheme(value: unknown): string | null {
  const text = toText(value);
  if (text === null) return null;
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text.replace(/^\/+/, '')}`;
}

/** The offer with the lowest price; offers without a readable price lose to any priced one. */
export function cheapest<T>(offers: readonly T[], price: (offer: T) => number | null): T {
  let best = must(offers[0], 'cheapest of at least one offer');
  let bestPrice = price(best) ?? Infinity;
  for (const offer of offers.slice(1)) {
    const p = price(offer) ?? Infinity;
    if (p < bestPrice) [best, bestPrice] = [offer, p];
  }
  return best;
}

/** The text of an error element or object, whatever shape the parser or marketplace gave it. */
export function messageText(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value)) return value.map(messageText).filter(Boolean).join('; ');
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const direct = o.message ?? o.text ?? o.ErrorText ?? o['#text'];
    return direct !== undefined ? messageText(direct) : Object.values(o).map(messageText).filter(Boolean).join('; ');
  }
  return value === null || value === undefined ? '' : String(value);
}
