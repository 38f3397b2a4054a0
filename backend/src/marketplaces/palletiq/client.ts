// PalletIQ, our assumed contract (marketplaces.md §4 has no public evidence):
// GET {base}/v1/evaluate?isbn=… with `Authorization: Bearer <key>`, JSON back:
//   {"isbn": "…", "winner": {"amazon": {"log_data": {"mp_decision": "…", "mm_val": 1.23}}}}
// `winner: null` means nothing to evaluate (no offers); a top-level `error` is the service's message.
import { messageText } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { palletIqMapping } from './mapping.ts';

export const palletIqFormat: WireFormat = {
  request(isbn13, settings) {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (settings.credential) headers.authorization = `Bearer ${settings.credential}`;
    return { url: `${settings.baseUrl}/v1/evaluate?${new URLSearchParams({ isbn: isbn13 })}`, headers };
  },
  parse(body) {
    const doc = parseJsonObject(body);
    if (doc.error !== undefined && doc.error !== null) {
      return { kind: 'failed', message: messageText(doc.error) || 'PalletIQ returned an empty error' };
    }
    if (!('winner' in doc)) throw new MalformedResponseError('no winner');
    if (doc.winner === null) return { kind: 'no_offers', offers: [] };
    const logData = (doc.winner as { amazon?: { log_data?: unknown } }).amazon?.log_data;
    if (typeof logData !== 'object' || logData === null) throw new MalformedResponseError('no winner.amazon.log_data');
    // The one evaluation is both the record and the only "offer".
    return { kind: 'completed', record: palletIqMapping.apply(doc), offers: [doc] };
  },
};

export function createPalletIqAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('pallet_iq', settings, palletIqFormat);
}
