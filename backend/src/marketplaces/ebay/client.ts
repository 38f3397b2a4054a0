// eBay Buy Browse API: GET {base}/buy/browse/v1/item_summary/search?gtin={isbn}&limit=50&sort=price
// &filter=buyingOptions:{FIXED_PRICE} with an application token (token.ts) and X-EBAY-C-MARKETPLACE-ID.
// Why these parameters (README: marketplaces): gtin takes an ISBN and cannot be combined with q;
// FIXED_PRICE only, because a dealer buys at a price now and an auction's current bid is not one
// (it is also eBay's default, sent explicitly so a change of default cannot bring auctions in);
// sort=price orders by price + shipping, so the 50 we read are the cheapest, not Best Match's 50.
// X-EBAY-C-ENDUSERCTX carries the dealer's delivery location (EBAY_DELIVERY_COUNTRY / _POSTAL_CODE), as
// the contract recommends with sort=price: eBay then prices CALCULATED shipping for that place.
import { z } from 'zod';
import { toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { LookupOutcome, MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { ebayMapping, offerShipping } from './mapping.ts';
import { AppTokenSource } from './token.ts';

/** Prices are compared in this currency (EBAY_US answers in it; other marketplaces convert to it or not). */
export const EBAY_CURRENCY = 'USD';
export const SEARCH_PATH = '/buy/browse/v1/item_summary/search';
const LIMIT = 50;

/** eBay's settings beyond EBAY_CLIENT_ID (registry extraEnv). */
export const EBAY_ENV = {
  EBAY_CLIENT_SECRET: z.string().optional(),
  /** Where the token endpoint is, when not on the Browse API's host (EBAY_BASE_URL or production). */
  EBAY_AUTH_URL: z.url().optional(),
  /** X-EBAY-C-MARKETPLACE-ID: which eBay site is searched (its currency is the answer's). */
  EBAY_MARKETPLACE_ID: z
    .string()
    .regex(/^EBAY_[A-Z_]+$/, 'an eBay marketplace id such as EBAY_US')
    .default('EBAY_US'),
  /** Where the dealer's books are delivered: eBay computes CALCULATED shipping (and sorts by price) for it. */
  EBAY_DELIVERY_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, 'a two-letter country code such as US')
    .default('US'),
  EBAY_DELIVERY_POSTAL_CODE: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/, 'a postal code such as 19406')
    .optional(),
};
const EbayExtra = z.object(EBAY_ENV);

type Summary = Record<string, unknown>;

/** One token source per process and keyset: every adapter (one per worker) shares its token and its exchange. */
const tokenSources = new Map<string, AppTokenSource>();

function tokenSourceFor(authUrl: string, clientId: string, clientSecret: string, timeoutMs: number): AppTokenSource {
  const key = JSON.stringify([authUrl, clientId, clientSecret]);
  let source = tokenSources.get(key);
  if (!source) {
    source = new AppTokenSource({ authUrl, clientId, clientSecret }, timeoutMs);
    tokenSources.set(key, source);
  }
  return source;
}

export function ebayFormat(settings: MarketplaceSettings): WireFormat {
  const extra = EbayExtra.parse(settings.extra ?? {});
  const authUrl = (extra.EBAY_AUTH_URL ?? settings.baseUrl).replace(/\/+$/, '');
  // Without EBAY_CLIENT_ID the sandbox (or EBAY_BASE_URL) stands in and takes any keyset; with an id
  // and no secret, every lookup fails saying so rather than asking eBay with half a keyset.
  const missingSecret = settings.credential !== undefined && !extra.EBAY_CLIENT_SECRET;
  const tokens = tokenSourceFor(authUrl, settings.credential ?? 'sandbox', extra.EBAY_CLIENT_SECRET ?? 'sandbox', settings.timeoutMs);
  let lastToken: string | undefined;
  const endUserContext = deliveryContext(extra.EBAY_DELIVERY_COUNTRY, extra.EBAY_DELIVERY_POSTAL_CODE);
  return {
    request(isbn13) {
      const query = new URLSearchParams({ gtin: isbn13, limit: String(LIMIT), sort: 'price', filter: 'buyingOptions:{FIXED_PRICE}' });
      return {
        url: `${settings.baseUrl}${SEARCH_PATH}?${query}`,
        headers: {
          accept: 'application/json',
          'X-EBAY-C-MARKETPLACE-ID': extra.EBAY_MARKETPLACE_ID,
          'X-EBAY-C-ENDUSERCTX': endUserContext,
        },
      };
    },
    async authorize(signal) {
      if (missingSecret)
        return { outcome: { kind: 'failed', message: 'EBAY_CLIENT_SECRET is not set: eBay needs the whole application keyset' } };
      const got = await tokens.get(signal);
      if ('outcome' in got) return got;
      lastToken = got.token;
      return { headers: { authorization: `Bearer ${got.token}` } };
    },
    classifyStatus(status, headers, body) {
      // 401: the token was refused (expired early, revoked): drop it and ask again with a new one.
      if (status === 401) {
        if (lastToken) tokens.invalidate(lastToken);
        return { kind: 'retry', reason: `eBay refused the access token (401${errorSuffix(body)})` };
      }
      // 429 errorId 2001 without Retry-After reads as the daily quota (a third-party fixture's shape):
      // retrying soon cannot help. With Retry-After, the shared rules honour it.
      if (status === 429 && !headers.has('retry-after') && errorIds(body).includes(2001))
        return { kind: 'retry', reason: 'eBay daily call limit reached (429)', retryAfterMs: 3_600_000 };
      return undefined;
    },
    parse: parseSearch,
  };
}

/** `contextualLocation=country%3DUS%2Czip%3D19406`: the values URL-encoded, as the contract's example shows. */
export const deliveryContext = (country: string, postalCode: string | undefined) =>
  `contextualLocation=${encodeURIComponent(`country=${country}${postalCode ? `,zip=${postalCode}` : ''}`)}`;

/** An auction without Buy It Now: its price is a current bid, not a price to buy at (we filter for FIXED_PRICE). */
const isAuctionOnly = (s: Summary) => Array.isArray(s.buyingOptions) && !s.buyingOptions.includes('FIXED_PRICE');

/** A SearchPagedCollection: offers, none, or eBay's error envelope `{errors:[{errorId, message, …}]}`. */
export function parseSearch(body: string): LookupOutcome {
  const doc = parseJsonObject(body);
  if (Array.isArray(doc.errors) && doc.errors.length > 0) return { kind: 'failed', message: `eBay: ${errorText(doc.errors)}` };
  const summaries = doc.itemSummaries;
  // No match: total 0 and itemSummaries left out (the contract marks every field optional).
  if (summaries === undefined || summaries === null) {
    if (doc.total === undefined && doc.href === undefined) throw new MalformedResponseError('neither itemSummaries nor total');
    // A refused gtin comes back as a 200 with a warning (errorId 12022) and no items.
    if (Array.isArray(doc.warnings) && doc.warnings.length > 0) return { kind: 'failed', message: `eBay: ${errorText(doc.warnings)}` };
    return { kind: 'no_offers', offers: [] };
  }
  if (!Array.isArray(summaries)) throw new MalformedResponseError('itemSummaries is not an array');
  if (summaries.some((s) => typeof s !== 'object' || s === null)) throw new MalformedResponseError('an item summary that is not an object');
  // An auction arriving despite filter=buyingOptions:{FIXED_PRICE} is skipped: not an offer at all.
  const offers = (summaries as Summary[]).filter((s) => !isAuctionOnly(s));
  if (offers.length === 0) return { kind: 'no_offers', offers: [] };
  return { kind: 'completed', record: ebayMapping.apply(chosenOffer(offers)), offers };
}

/**
 * The cheapest delivered price (price + shipping) among offers in USD. Unknown shipping is unknown,
 * never free: an offer without a shipping cost (CALCULATED that eBay could not price for the delivery
 * location, or no shipping options) stays among the offers but is left out of the choice. When no
 * offer's shipping is known, the cheapest price is shown with its shipping empty and its type
 * (CALCULATED), and the comparison leaves eBay out of the best price (domain PRICE_SOURCES). We chose
 * this over a configured estimate: a dealer compares delivered prices, and a guessed cost would rank
 * offers on a number eBay never gave. Currencies are never compared: with no USD offer, the cheapest
 * in the first offer's currency.
 */
export function chosenOffer(offers: Summary[]): Summary {
  const currency = (o: Summary) => String((o.price as Summary | undefined)?.currency ?? '').toUpperCase();
  const usd = offers.filter((o) => currency(o) === EBAY_CURRENCY);
  const inCurrency = usd.length ? usd : offers.filter((o) => currency(o) === currency(offers[0] as Summary));
  const price = (o: Summary) => toNumber((o.price as Summary | undefined)?.value) ?? Infinity;
  const shipping = (o: Summary) => offerShipping(o)?.cost ?? null;
  const delivered = inCurrency.filter((o) => shipping(o) !== null);
  const [pool, total] = delivered.length ? [delivered, (o: Summary) => price(o) + (shipping(o) ?? 0)] : [inCurrency, price];
  return pool.reduce((best, o) => (total(o) < total(best) ? o : best));
}

function errorIds(body: string): number[] {
  try {
    const doc = JSON.parse(body) as { errors?: { errorId?: unknown }[] };
    return Array.isArray(doc.errors) ? doc.errors.map((e) => Number(e?.errorId)) : [];
  } catch {
    return [];
  }
}

function errorSuffix(body: string): string {
  try {
    const doc = JSON.parse(body) as { errors?: unknown };
    return Array.isArray(doc.errors) ? `: ${errorText(doc.errors)}` : '';
  } catch {
    return '';
  }
}

/** "12022 The 'gtin' value … is invalid." for each error of eBay's envelope. */
function errorText(errors: unknown[]): string {
  return errors
    .map((e) => {
      const o = (e ?? {}) as Record<string, unknown>;
      return [o.errorId, o.longMessage ?? o.message].filter((v) => v !== undefined && v !== null && v !== '').join(' ');
    })
    .filter(Boolean)
    .join('; ');
}

export function createEbayAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('ebay', settings, ebayFormat(settings));
}
