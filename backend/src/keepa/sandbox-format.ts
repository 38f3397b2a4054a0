// Keepa's product request as the sandbox speaks it, so everything works offline: GET /product with
// key, domain=1 and code= (up to 100 ISBN-13s), answered with Keepa's envelope (token state) and one
// product per known code: csv[1] NEW, csv[2] USED (cents, -1 gaps) and csv[3] SALES (rank, a -1 gap
// now and then) as [keepaMinute, value, …] pairs over about two years. One ISBN in ten is unknown to
// Keepa (no product). The token bucket is simulated too: each code costs a token, it refills per
// minute, and a request while the balance is not positive is a 429 with the envelope. With `stats=`
// (N days, or a start,end pair) each product also carries a `stats` object computed from its csv
// as of the answer's time, as Keepa computes its own: current values, time-weighted averages, rank
// drops, and the offer-only fields at their -1 / -2 defaults (no `offers` is simulated).
import { SALE_RANK_IMPROVEMENT } from '@app/domain/velocity';
import { isbn13To10, isValidIsbn13 } from '@app/domain/isbn';
import { bookFor } from '../sandbox/catalog.ts';
import { json, type SandboxReply, type SandboxService } from '../sandbox/formats/types.ts';
import { hash32, prng } from '../sandbox/random.ts';
import { KEEPA_DOMAIN_US, KEEPA_MAX_CODES, keepaMinuteToMs, msToKeepaMinute, readSeries } from './wire.ts';

const DAY_MINUTES = 1440;
const DAY_MS = 86_400_000;
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

type Change = { at: number; value: number };
const changes = (series: number[] | null): Change[] => readSeries(series).map((p) => ({ at: keepaMinuteToMs(p.minute), value: p.value }));

/** The time-weighted mean over (from, to] of the values held then; a -1 stretch counts for nothing; -1 when none held. */
function weightedMean(points: Change[], from: number, to: number): number {
  let sum = 0;
  let weight = 0;
  points.forEach((p, i) => {
    const held = Math.min(points[i + 1]?.at ?? Math.max(to, p.at), to) - Math.max(p.at, from);
    if (p.value < 0 || held <= 0) return;
    sum += p.value * held;
    weight += held;
  });
  return weight > 0 ? Math.round(sum / weight) : -1;
}

/** The value holding at `at` (-1 before the series starts). */
const valueAt = (points: Change[], at: number) => points.findLast((p) => p.at <= at)?.value ?? -1;

/**
 * Rank drops within (from, to]: steps from one rank to a better one. Keepa does not publish its rule;
 * the sandbox takes ours (a step better by more than SALE_RANK_IMPROVEMENT), so offline Keepa's
 * counts and ours agree on the same series.
 */
function rankDrops(points: Change[], from: number, to: number): number {
  return points.filter((p, i) => {
    const prev = points[i - 1]?.value ?? -1;
    return p.at > from && p.at <= to && p.value > 0 && prev > 0 && p.value < prev * (1 - SALE_RANK_IMPROVEMENT);
  }).length;
}

/** The interval of `stats=`: N days to now, or `start,end` as ISO dates or epoch ms; undefined when malformed. */
export function statsInterval(param: string, now: number): { from: number; to: number } | undefined {
  if (/^\d+$/.test(param)) return { from: now - Number(param) * DAY_MS, to: now };
  const [start, end, ...rest] = param.split(',');
  if (start === undefined || end === undefined || rest.length > 0) return undefined;
  const time = (t: string) => (/^\d+$/.test(t) ? Number(t) : Date.parse(t));
  const [from, to] = [time(start), time(end)];
  return Number.isFinite(from) && Number.isFinite(to) && from < to ? { from, to } : undefined;
}

/** Keepa's `stats` of a csv as of `now`, over the requested interval (CsvType-indexed arrays, -1 where no data). */
export function simulatedStats(csv: (number[] | null)[], now: number, interval: { from: number; to: number }) {
  const series = csv.map(changes);
  const perIndex = (f: (points: Change[]) => number) => series.map((points) => (points.length ? f(points) : -1));
  const avg = (days: number) => perIndex((points) => weightedMean(points, now - days * DAY_MS, now));
  const sales = series[3] ?? [];
  const drops = (days: number) => (sales.length ? rankDrops(sales, now - days * DAY_MS, now) : -1);
  return {
    current: perIndex((points) => valueAt(points, now)),
    avg: perIndex((points) => weightedMean(points, interval.from, interval.to)),
    avg30: avg(30),
    avg90: avg(90),
    avg180: avg(180),
    avg365: avg(365),
    atIntervalStart: perIndex((points) => valueAt(points, interval.from)),
    salesRankDrops30: drops(30),
    salesRankDrops90: drops(90),
    salesRankDrops180: drops(180),
    salesRankDrops365: drops(365),
    // Only set when `offers` is used: Keepa's defaults.
    lastOffersUpdate: -1,
    totalOfferCount: -2,
    retrievedOfferCount: -2,
    buyBoxPrice: -2,
    buyBoxShipping: -2,
  };
}

function product(isbn: string, now: number, interval: { from: number; to: number } | undefined) {
  const nowMinute = msToKeepaMinute(now);
  const csv = simulatedCsv(isbn, nowMinute);
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
    csv,
    // Like Keepa: the key is there only when `stats=` was sent.
    ...(interval ? { stats: simulatedStats(csv, now, interval) } : {}),
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
    const invalid = json(
      { ...zeros, error: { details: '', message: 'You used an invalid parameter for this API call.', type: 'invalidParameter' } },
      400,
    );
    if (!call.query.get('key')) {
      return invalid;
    }
    const codes = (call.query.get('code') ?? '').split(',').filter(Boolean);
    if (call.query.get('domain') !== String(KEEPA_DOMAIN_US) || codes.length === 0 || codes.length > KEEPA_MAX_CODES) {
      return invalid;
    }
    const statsParam = call.query.get('stats');
    if (statsParam !== null && !statsInterval(statsParam, now())) return invalid;
    if (envelope(0).tokensLeft <= 0) return json(envelope(0), 429);
    const found = codes.filter(knownToKeepa);
    // Like Keepa: no `products` key when no code is known. The envelope's timestamp is the stats' now.
    const reply = envelope(found.length);
    const interval = statsParam === null ? undefined : statsInterval(statsParam, reply.timestamp);
    return json({ ...reply, ...(found.length ? { products: found.map((isbn) => product(isbn, reply.timestamp, interval)) } : {}) });
  };
}
