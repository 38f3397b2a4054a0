// Keepa's product request as the sandbox speaks it, so everything works offline: GET /product with
// key, domain=1 and code= (up to 100 ISBN-13s), answered with Keepa's envelope (token state) and one
// product per known code: csv[1] NEW, csv[2] USED (cents, -1 gaps) and csv[3] SALES (rank, a -1 gap
// now and then) as [keepaMinute, value, …] pairs over about two years. One ISBN in ten is unknown to
// Keepa (no product). The token bucket is simulated too: each code costs a token, it refills per
// minute, and a request while the balance is not positive is a 429 with the envelope.
import { isbn13To10, isValidIsbn13 } from '@app/domain/isbn';
import { bookFor } from '../sandbox/catalog.ts';
import { json, type SandboxReply, type SandboxService } from '../sandbox/formats/types.ts';
import { hash32, prng } from '../sandbox/random.ts';
import { KEEPA_DOMAIN_US, KEEPA_MAX_CODES, msToKeepaMinute } from './wire.ts';

const DAY_MINUTES = 1440;
/** How far back the simulated history reaches. */
const HISTORY_DAYS = 730;

/** One ISBN in ten is unknown to Keepa. */
export const knownToKeepa = (isbn: string) => isValidIsbn13(isbn) && hash32('keepa-known', isbn) % 10 !== 0;

/**
 * A book's simulated series, ending at `nowMinute`: the rank drifts up (worse) between sales and
 * jumps down (better) at each sale; the prices move now and then, with a stretch of no used offer.
 */
export function simulatedCsv(isbn: string, nowMinute: number): (number[] | null)[] {
  const rng = prng(hash32('keepa-series', isbn));
  const start = nowMinute - HISTORY_DAYS * DAY_MINUTES;
  const base = bookFor(isbn, 1).basePrice;
  // A book sells every `cadence` days on average: from a few a week to one a quarter.
  const cadence = rng.pick([2, 5, 12, 30, 90]);
  const sales: number[] = [];
  let rank = rng.int(20_000, 2_000_000);
  const gapAt = start + rng.int(100, 600) * DAY_MINUTES;
  for (let m = start; m <= nowMinute; m += rng.int(1, 4) * DAY_MINUTES) {
    if (m >= gapAt && m < gapAt + 3 * DAY_MINUTES) {
      sales.push(m, -1);
      continue;
    }
    rank = rng.chance(3 / cadence)
      ? Math.max(1_000, Math.round(rank * (0.2 + rng.next() * 0.4)))
      : Math.round(rank * (1.05 + rng.next() * 0.2));
    sales.push(m, Math.min(rank, 8_000_000));
  }
  const prices = (factor: number, gap: boolean) => {
    const out: number[] = [];
    for (let m = start, i = 0; m <= nowMinute; m += rng.int(10, 60) * DAY_MINUTES, i++) {
      out.push(m, gap && i === 3 ? -1 : Math.round(base * factor * (0.7 + rng.next() * 0.6) * 100));
    }
    return out;
  };
  const csv: (number[] | null)[] = Array.from({ length: 36 }, () => null);
  csv[1] = prices(1.6, false);
  csv[2] = prices(1, true);
  csv[3] = sales;
  return csv;
}

function product(isbn: string, nowMinute: number) {
  const book = bookFor(isbn, 1);
  return {
    productType: 0,
    asin: isbn13To10(isbn) ?? `B0${(hash32('keepa-asin', isbn) % 1e8).toString().padStart(8, '0')}`,
    domainId: KEEPA_DOMAIN_US,
    title: book.title,
    trackingSince: nowMinute - HISTORY_DAYS * DAY_MINUTES,
    lastUpdate: nowMinute - 30,
    rootCategory: 283155,
    eanList: [isbn],
    upcList: null,
    binding: 'paperback',
    csv: simulatedCsv(isbn, nowMinute),
  };
}

/** Keepa's bucket, simulated per sandbox process: generous, so a demo never stalls, yet it can run out. */
export function createKeepaSim(opts: { tokens?: number; refillRate?: number; now?: () => number } = {}): SandboxService {
  const refillRate = opts.refillRate ?? 600;
  const cap = refillRate * 60;
  const now = opts.now ?? Date.now;
  let tokens = opts.tokens ?? cap;
  let at = now();
  const envelope = (consumed: number) => {
    const t = now();
    tokens = Math.min(cap, tokens + Math.floor((t - at) / 60_000) * refillRate);
    at = t - ((t - at) % 60_000);
    tokens -= consumed;
    return {
      timestamp: t,
      tokensLeft: tokens,
      refillIn: 60_000 - ((t - at) % 60_000),
      refillRate,
      tokenFlowReduction: 0.0,
      tokensConsumed: consumed,
      processingTimeInMs: 3,
    };
  };
  return (call): SandboxReply | null => {
    if (call.path !== '/product') return null;
    const zeros = {
      processingTimeInMs: 0,
      refillIn: 0,
      refillRate: 0,
      timestamp: now(),
      tokenFlowReduction: 0.0,
      tokensConsumed: 0,
      tokensLeft: 0,
    };
    if (!call.query.get('key')) {
      return json(
        { ...zeros, error: { details: '', message: 'You used an invalid parameter for this API call.', type: 'invalidParameter' } },
        400,
      );
    }
    const codes = (call.query.get('code') ?? '').split(',').filter(Boolean);
    if (call.query.get('domain') !== String(KEEPA_DOMAIN_US) || codes.length === 0 || codes.length > KEEPA_MAX_CODES) {
      return json(
        { ...zeros, error: { details: '', message: 'You used an invalid parameter for this API call.', type: 'invalidParameter' } },
        400,
      );
    }
    if (envelope(0).tokensLeft <= 0) return json(envelope(0), 429);
    const found = codes.filter(knownToKeepa);
    const nowMinute = msToKeepaMinute(now());
    // Like Keepa: no `products` key when no code is known.
    return json({ ...envelope(found.length), ...(found.length ? { products: found.map((isbn) => product(isbn, nowMinute)) } : {}) });
  };
}
