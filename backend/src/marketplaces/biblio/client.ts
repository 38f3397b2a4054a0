// Biblio Inventory API: GET {base}/api/product_search?isbn=…&currency=USD&ship_to_country=USA&
// sort_field=price&sort_direction=asc&results_per_page=50 with header X-API-KEY (what Biblio's
// announcement and the public clients send), JSON {data:{meta,results}} back; a top-level `error`
// carries the marketplace's message.
import { cheapest, messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { biblioMapping } from './mapping.ts';
import { must } from '@app/domain/must';

type Result = Record<string, unknown>;

/** Prices are asked for, and compared, in this currency. */
export const BIBLIO_CURRENCY = 'USD';
/** One page of offers, cheapest first (a public client notes 199 as the API's page limit). */
const RESULTS_PER_PAGE = 50;

export const biblioFormat: WireFormat = {
  request(isbn13, settings) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.credential) headers['X-API-KEY'] = settings.credential;
    const query = new URLSearchParams({
      isbn: isbn13,
      currency: BIBLIO_CURRENCY,
      ship_to_country: 'USA',
      sort_field: 'price',
      sort_direction: 'asc',
      results_per_page: String(RESULTS_PER_PAGE),
    });
    return { url: `${settings.baseUrl}/api/product_search?${query}`, headers };
  },
  parse(body) {
    const doc = parseJsonObject(body);
    if (doc.error !== undefined && doc.error !== null && doc.error !== false) {
      return { kind: 'failed', message: messageText(doc.error) || 'Biblio returned an empty error' };
    }
    const data = doc.data as { meta?: { number_found?: unknown }; results?: unknown } | undefined;
    if (!data || typeof data !== 'object') throw new MalformedResponseError('no data object');
    // Nothing found comes back as number_found 0 with results empty, null or left out.
    if (toNumber(data.meta?.number_found) === 0 && (data.results === undefined || data.results === null)) {
      return { kind: 'no_offers', offers: [] };
    }
    if (!Array.isArray(data.results)) throw new MalformedResponseError('no data.results array');
    const results = data.results as unknown[];
    if (results.some((r) => typeof r !== 'object' || r === null)) throw new MalformedResponseError('a result that is not an object');
    if (results.length === 0 || toNumber(data.meta?.number_found) === 0) return { kind: 'no_offers', offers: [] };
    const best = cheapestInOneCurrency(results as Result[]);
    return { kind: 'completed', record: biblioMapping.apply(best), offers: results };
  },
};

/**
 * The headline is the cheapest delivered copy: price plus shipping where the offer gives shipping
 * (the comparison shows the same sum, so choosing by price alone could headline a dearer copy).
 * Prices in different currencies are never compared: the cheapest offer in the requested currency
 * wins (an offer without a currency is taken to be in it, since we asked for it). When no offer is
 * in that currency, the cheapest in the first offer's currency is kept, with its currency beside it.
 */
function cheapestInOneCurrency(results: Result[]): Result {
  const currencyOf = (r: Result) =>
    typeof r.currency === 'string' && r.currency.trim() ? r.currency.trim().toUpperCase() : BIBLIO_CURRENCY;
  const requested = results.filter((r) => currencyOf(r) === BIBLIO_CURRENCY);
  const pool = requested.length
    ? requested
    : results.filter((r) => currencyOf(r) === currencyOf(must(results[0], 'biblio: cheapest of no offers')));
  return cheapest(pool, deliveredPrice);
}

/** Price plus shipping (none given counts as none charged, as the comparison adds it); null without a price. */
function deliveredPrice(r: Result): number | null {
  const price = toNumber(r.price);
  return price === null ? null : price + (toNumber(r.shipping_price) ?? 0);
}

export function createBiblioAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('biblio', settings, biblioFormat);
}
