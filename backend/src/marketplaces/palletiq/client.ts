// PalletIQ: GET {base}/v1/isbn/{isbn}/0?token=<key>, JSON back (contract and evidence in mapping.ts).
// `status: "failed"` is PalletIQ saying it has nothing to evaluate for this ISBN: final, shown as
// no offers (asking again gives the same answer). What the trailing `/0` selects is UNKNOWN; the
// public client always sends 0.
import { messageText } from '../field-mapping.ts';
import { MalformedResponseError, httpAdapter, parseJsonObject, type WireFormat } from '../http.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../types.ts';
import { palletIqMapping } from './mapping.ts';

export const palletIqFormat: WireFormat = {
  request(isbn13, settings) {
    const query = settings.credential ? `?${new URLSearchParams({ token: settings.credential })}` : '';
    return { url: `${settings.baseUrl}/v1/isbn/${encodeURIComponent(isbn13)}/0${query}`, headers: { accept: 'application/json' } };
  },
  parse(body) {
    const doc = parseJsonObject(body);
    if (doc.status === 'failed') return { kind: 'no_offers', offers: [] };
    // Not evidenced: an `error`/`message` beside a false status is read as PalletIQ's own refusal.
    if (doc.error !== undefined && doc.error !== null) {
      return { kind: 'failed', message: messageText(doc.error) || 'PalletIQ returned an empty error' };
    }
    if (doc.status === false) return { kind: 'failed', message: messageText(doc.message) || 'PalletIQ refused the request' };
    const winner = doc.winner as { amazonLogData?: unknown } | null | undefined;
    if (winner === null) return { kind: 'no_offers', offers: [] };
    if (typeof winner !== 'object' || typeof winner.amazonLogData !== 'object' || winner.amazonLogData === null) {
      throw new MalformedResponseError('no winner.amazonLogData');
    }
    // The one evaluation is both the record and the only "offer".
    return { kind: 'completed', record: palletIqMapping.apply(doc), offers: [doc] };
  },
};

export function createPalletIqAdapter(settings: MarketplaceSettings): MarketplaceAdapter {
  return httpAdapter('pallet_iq', settings, palletIqFormat);
}
