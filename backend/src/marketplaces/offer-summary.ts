// One offer as a dealer reads it at a glance (a book's page): the item's price, its shipping, what it
// costs delivered, condition, seller and listing. Each selling marketplace's folder exports its
// `normaliseOffer` (<id>/offers.ts), named in its registry entry, which reads its own wire format;
// the API sends the summaries and the browser only shows them.
import { z } from 'zod';

export const Amount = z.object({ value: z.number(), currency: z.string() }).meta({ id: 'OfferAmount' });
export type Amount = z.infer<typeof Amount>;

export const OfferSummary = z
  .object({
    price: Amount.nullable(),
    shipping: Amount.nullable(),
    /** The marketplace's total with shipping, else price + shipping; null while the shipping is unknown. */
    delivered: Amount.nullable(),
    condition: z.string().nullable(),
    seller: z.string().nullable(),
    /** The listing's address (with or without its scheme, as the marketplace sends it). */
    link: z.string().nullable(),
  })
  .meta({ id: 'OfferSummary' });
export type OfferSummary = z.infer<typeof OfferSummary>;

/** A marketplace's reading of one offer as it stored it (LookupOutcome.offers). */
export type OfferNormaliser = (offer: Record<string, unknown>) => OfferSummary;

const CODE = /^[A-Za-z]{3}$/;

/** A currency code as sent, upper-cased; USD when there is none. */
export const currencyCode = (...candidates: unknown[]): string => {
  const code = candidates.find((c): c is string => typeof c === 'string' && CODE.test(c));
  return code ? code.toUpperCase() : 'USD';
};

/** An amount when the value is a number or a number's text; else null. */
export function amount(value: unknown, currency: string): Amount | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? { value: n, currency } : null;
}

/** A `{value, currency}` object (eBay's amounts) as an amount. */
export function nestedAmount(value: unknown): Amount | null {
  const o = asObject(value);
  return o ? amount(o.value, currencyCode(o.currency)) : null;
}

export const asObject = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A value shown as text: null when empty. */
export const text = (v: unknown): string | null =>
  v === null || v === undefined || v === '' ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** The first of these values that is not empty, as text. */
export const firstText = (...values: unknown[]): string | null => values.map(text).find((t) => t !== null) ?? null;

/** An address to follow (a listing), with or without its scheme (marketplaces send both): no spaces, a dot in the host. */
export function link(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return /^(https?:\/\/|\/\/)?[^\s/]+\.[^\s/]+(\/\S*)?$/i.test(t) ? t : null;
}

/** Price + shipping in cents, when both are known and in one currency. */
export function delivered(price: Amount | null, shipping: Amount | null): Amount | null {
  if (!price || !shipping || price.currency !== shipping.currency) return null;
  return { value: (Math.round(price.value * 100) + Math.round(shipping.value * 100)) / 100, currency: price.currency };
}

/**
 * An offer whose price and shipping are plain amounts in one currency: delivered is their sum unless
 * the marketplace gives its own total.
 */
export function plainOffer(
  figures: { price: unknown; shipping: unknown; currency: string; total?: unknown },
  rest: Pick<OfferSummary, 'condition' | 'seller' | 'link'>,
): OfferSummary {
  const price = amount(figures.price, figures.currency);
  const shipping = amount(figures.shipping, figures.currency);
  return { price, shipping, delivered: amount(figures.total, figures.currency) ?? delivered(price, shipping), ...rest };
}

/**
 * An answer's offers summarised, cheapest delivered first (then by price; those without a price
 * last); null when the marketplace has no normaliser (PalletIQ's evaluation is no offer list) or no
 * offer has a price or a seller.
 */
export function summariseOffers(normalise: OfferNormaliser | undefined, offers: readonly Record<string, unknown>[]): OfferSummary[] | null {
  if (!normalise) return null;
  const rows = offers.map(normalise);
  if (!rows.some((r) => r.price || r.seller)) return null;
  const cost = (r: OfferSummary) => (r.delivered ?? r.price)?.value ?? Number.POSITIVE_INFINITY;
  return rows.sort((a, b) => cost(a) - cost(b));
}
