// Biblio Inventory API: GET {base}/api/product_search?isbn=… with header X-API-KEY,
// JSON {data:{meta,results}} back; a top-level `error` carries the marketplace's message.
import { cheapest, messageText, toNumber } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { biblioMapping } from './mapping.ts';

type Result = Record<string, unknown>;

export const biblioFormat: WireFormat = {
  request(isbn13, settings) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.credential) headers['X-API-KEY'] = settings.credential;
    return { url: `${settings.baseUrl}/api/product_search?${new URLSearchParams({ isbn: isbn13 })}`, headers };
  },
  parse(body) {
    const doc = parseJsonObject(body);
    if (doc.error !== undefined && doc.error !== null && doc.error !== false) {
      return { kind: 'failed', message: messageText(doc.error) || 'Biblio returned an empty error' };
    }
    const data = doc.data as { meta?: { number_found?: unknown }; results?: unknown } | undefined;
    if (!data || typeof data !== 'object' || !Array.isArray(data.results)) {
      throw new MalformedResponseError('no data.results array');
    }
    const results = data.results as unknown[];
    if (results.some((r) => typeof r !== 'object' || r === null)) throw new MalformedResponseError('a result that is not an object');
    if (results.length === 0 || toNumber(data.meta?.number_found) === 0) return { kind: 'no_offers', offers: [] };
    const best = cheapest(results as Result[], (r) => toNumber(r.price));
    return { kind: 'completed', record: biblioMapping.apply(best), offers: results };
  },
};

export function createBiblioAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('biblio', settings, biblioFormat);
}
