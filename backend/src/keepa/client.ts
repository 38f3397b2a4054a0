// Keepa's product request for ISBNs' Amazon history: one GET /product per batch of up to 100 codes
// (`code=` takes ISBN-13s as EANs), paced on Keepa's shared token bucket (tokens.ts). Each answer's
// envelope, a 429's included, updates the shared balance; a 429 waits out the refill and asks again.
// `stats=` costs no token and is the only way Keepa sends its `stats` object (its own rank drops,
// average ranks and current prices), so every request asks for it.
import { setTimeout as sleep } from 'node:timers/promises';
import { isbn13To10 } from '@app/domain/isbn';
import { DEFAULT_MAX_RESPONSE_BYTES, readBodyCapped } from '../lib/capped-body.ts';
import type { KeepaTokens } from './tokens.ts';
import { KEEPA_DOMAIN_US, KEEPA_STATS_DAYS, type KeepaProduct, readError, readProducts, readTokenState } from './wire.ts';

export interface KeepaClientSettings {
  /** https://api.keepa.com, or the sandbox's /keepa. */
  url: string;
  key: string;
  timeoutMs: number;
  maxResponseBytes?: number;
}

export class KeepaError extends Error {}

/** Times a batch is asked again after a 429 (not enough tokens) before giving up until the next pass. */
const MAX_TOKEN_RETRIES = 3;

/**
 * Each ISBN's product (null: Keepa does not know it). Products are matched to the ISBNs by their EAN
 * list (Keepa does not echo the code), else by their ASIN being the ISBN-10.
 */
export async function fetchKeepaHistory(
  isbns: readonly string[],
  settings: KeepaClientSettings,
  tokens: Pick<KeepaTokens, 'take' | 'update'>,
  signal?: AbortSignal,
): Promise<Map<string, KeepaProduct | null>> {
  const query = new URLSearchParams({
    key: settings.key,
    domain: String(KEEPA_DOMAIN_US),
    code: isbns.join(','),
    history: '1',
    stats: String(KEEPA_STATS_DAYS),
  });
  for (let attempt = 0; ; attempt++) {
    // One token per product found (history without offers); reserve one per code asked.
    await tokens.take(isbns.length, signal);
    let res: Response;
    try {
      res = await fetch(`${settings.url}/product?${query}`, {
        headers: { accept: 'application/json', 'accept-encoding': 'gzip' },
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(settings.timeoutMs)]) : AbortSignal.timeout(settings.timeoutMs),
      });
    } catch (err) {
      throw new KeepaError(`Keepa unreachable: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = new TextDecoder().decode(await readBodyCapped(res, settings.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new KeepaError(`Keepa answered HTTP ${res.status} with a body that is not JSON`);
    }
    const state = readTokenState(body);
    if (state) await tokens.update(state);
    if (res.status === 429 && state && attempt < MAX_TOKEN_RETRIES) {
      // Not enough tokens: wait for the next refill and for any deficit to be refilled, then ask again.
      const deficitMs = state.tokensLeft < 0 ? (-state.tokensLeft / state.refillRate) * 60_000 : 0;
      await sleep(state.refillIn + deficitMs, undefined, { signal });
      continue;
    }
    if (!res.ok) throw new KeepaError(`Keepa answered HTTP ${res.status}${readError(body) ? `: ${readError(body)}` : ''}`);
    return matchProducts(isbns, readProducts(body));
  }
}

/** Each requested ISBN's product: the one listing it among its EANs, else the one whose ASIN is its ISBN-10. */
export function matchProducts(isbns: readonly string[], products: KeepaProduct[]): Map<string, KeepaProduct | null> {
  return new Map(
    isbns.map((isbn) => {
      const isbn10 = isbn13To10(isbn);
      return [isbn, products.find((p) => p.eans.includes(isbn)) ?? products.find((p) => isbn10 !== null && p.asin === isbn10) ?? null];
    }),
  );
}
