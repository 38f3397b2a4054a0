// Keepa's product answer, read: its token envelope and, per product, the Amazon history we keep (the
// sales-rank series, the lowest used and new price series) as one timeline of points. Keepa's traps
// (docs/marketplaces/keepa.md): times are Keepa minutes (since 2011-01-01 UTC), -1 means no offer or
// no rank at that time, prices are integer cents, the csv array is indexed by Keepa's CsvType and may
// be shorter than 36 or hold null series, and a requested code may come back as no product at all.
// Keepa's own `stats` (sent only when the request asks `stats=`) are read into the few figures a
// dealer checks: its rank drops, average ranks and current prices; -1 and -2 there mean no data.

/** Keepa minute 0 is 2011-01-01T00:00Z, i.e. 21,564,000 minutes after the Unix epoch. */
const KEEPA_START_MINUTE = 21_564_000;

export const keepaMinuteToMs = (minute: number): number => (minute + KEEPA_START_MINUTE) * 60_000;
export const msToKeepaMinute = (ms: number): number => Math.floor(ms / 60_000) - KEEPA_START_MINUTE;

/** Indexes into `csv` (Keepa's CsvType) of the series we read. */
export const CSV = { AMAZON: 0, NEW: 1, USED: 2, SALES: 3, COUNT_NEW: 11, COUNT_USED: 12 } as const;

/** Days of the `stats=` interval we ask for: the longest velocity window (no extra token cost). */
export const KEEPA_STATS_DAYS = 180;

/** Keepa's US marketplace (`domain=1`). */
export const KEEPA_DOMAIN_US = 1;
/** Most codes Keepa takes in one product request. */
export const KEEPA_MAX_CODES = 100;

/** The token state every answer carries (429 included); an error envelope may carry zeros. */
export interface KeepaTokenState {
  /** Server time of the answer, epoch ms. */
  timestamp: number;
  /** The balance after this request; negative after a big batch. */
  tokensLeft: number;
  /** Tokens added per minute. */
  refillRate: number;
  /** Milliseconds to the next refill. */
  refillIn: number;
  tokensConsumed: number;
}

/** One moment of a product's history; null where the series has no value (-1: no offer, no rank). */
export interface KeepaPoint {
  at: Date;
  salesRank: number | null;
  /** Lowest used and new prices in dollars (Keepa sends cents). */
  used: number | null;
  new: number | null;
}

/**
 * What Keepa's `stats` object says of a product, the figures a dealer checks on Keepa's own pages;
 * each null where Keepa has none (-1: no data or no offer, -2: not collected, or a field missing).
 */
export interface KeepaStats {
  /** The answer's server time: Keepa's windows end there. */
  at: Date;
  /** Keepa's own count of rank drops it takes as sales, over 30 / 90 / 180 days. */
  rankDrops30: number | null;
  rankDrops90: number | null;
  rankDrops180: number | null;
  /** Keepa's time-weighted average sales rank over 90 / 180 days. */
  avgRank90: number | null;
  avgRank180: number | null;
  currentRank: number | null;
  /** The current lowest used and new prices, in dollars (Keepa sends cents). */
  usedPrice: number | null;
  newPrice: number | null;
}

export interface KeepaProduct {
  asin: string;
  /** The ISBN-13s (EANs) Keepa lists for the product. */
  eans: string[];
  title: string | null;
  /** Every time any of the three series changed, oldest first, each series' value at that time. */
  points: KeepaPoint[];
  /** Keepa's stats; null when the answer has none (not asked, or null). */
  stats: KeepaStats | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, fallback = 0) => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** The envelope's token fields; undefined when they are missing or all zero (an error body's: not a state). */
export function readTokenState(body: unknown): KeepaTokenState | undefined {
  if (!isObject(body) || typeof body.tokensLeft !== 'number' || typeof body.refillRate !== 'number') return undefined;
  if (body.refillRate <= 0) return undefined;
  return {
    timestamp: num(body.timestamp, Date.now()),
    tokensLeft: body.tokensLeft,
    refillRate: body.refillRate,
    refillIn: num(body.refillIn),
    tokensConsumed: num(body.tokensConsumed),
  };
}

/** A flat `[keepaMinute, value, …]` series as change points; a missing or malformed series is empty. */
export function readSeries(series: unknown): { minute: number; value: number }[] {
  if (!Array.isArray(series)) return [];
  const out: { minute: number; value: number }[] = [];
  for (let i = 0; i + 1 < series.length; i += 2) {
    const minute = series[i];
    const value = series[i + 1];
    if (typeof minute === 'number' && typeof value === 'number') out.push({ minute, value });
  }
  return out;
}

/** Merges the rank, used and new series into one timeline; each value holds until its series' next point. */
export function timeline(csv: unknown): KeepaPoint[] {
  const at = (i: number) => (Array.isArray(csv) ? csv[i] : undefined);
  const series = { salesRank: readSeries(at(CSV.SALES)), used: readSeries(at(CSV.USED)), new: readSeries(at(CSV.NEW)) };
  const minutes = [...new Set(Object.values(series).flatMap((s) => s.map((p) => p.minute)))].sort((a, b) => a - b);
  const current = { salesRank: -1, used: -1, new: -1 };
  const next = { salesRank: 0, used: 0, new: 0 };
  const points: KeepaPoint[] = [];
  for (const minute of minutes) {
    for (const key of ['salesRank', 'used', 'new'] as const) {
      const s = series[key];
      while (next[key] < s.length && (s[next[key]]?.minute ?? Infinity) <= minute) current[key] = s[next[key]++]?.value ?? -1;
    }
    points.push({
      at: new Date(keepaMinuteToMs(minute)),
      salesRank: current.salesRank > 0 ? current.salesRank : null,
      used: current.used >= 0 ? current.used / 100 : null,
      new: current.new >= 0 ? current.new / 100 : null,
    });
  }
  return points;
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
/** A count: -1 (Keepa's default, no data) and anything not a whole number ≥ 0 is none. */
const count = (v: unknown) => (whole(v) && v >= 0 ? v : null);
/** A rank: -1 (no rank) and 0 are none. */
const rank = (v: unknown) => (whole(v) && v > 0 ? v : null);
/** Cents to dollars: -1 (no offer) and -2 (not collected) are none. */
const cents = (v: unknown) => (whole(v) && v >= 0 ? v / 100 : null);
/** `arr[i]` of a CsvType-indexed stats array that may be missing, null or short. */
const atIndex = (arr: unknown, i: number): unknown => (Array.isArray(arr) ? arr[i] : undefined);

/** Keepa's `stats` object of one product, read defensively; null when it is missing or not an object. */
export function readStats(stats: unknown, at: Date): KeepaStats | null {
  if (!isObject(stats)) return null;
  return {
    at,
    rankDrops30: count(stats.salesRankDrops30),
    rankDrops90: count(stats.salesRankDrops90),
    rankDrops180: count(stats.salesRankDrops180),
    avgRank90: rank(atIndex(stats.avg90, CSV.SALES)),
    avgRank180: rank(atIndex(stats.avg180, CSV.SALES)),
    currentRank: rank(atIndex(stats.current, CSV.SALES)),
    usedPrice: cents(atIndex(stats.current, CSV.USED)),
    newPrice: cents(atIndex(stats.current, CSV.NEW)),
  };
}

/**
 * The products of a 200 answer. No `products` key and an empty list both mean "none of the codes is
 * known"; a product of type 4 (INVALID) or 2 (EBOOK: no prices, no rank) is left out.
 */
export function readProducts(body: unknown): KeepaProduct[] {
  if (!isObject(body) || !Array.isArray(body.products)) return [];
  const at = new Date(num(body.timestamp, Date.now()));
  const out: KeepaProduct[] = [];
  for (const p of body.products) {
    if (!isObject(p) || typeof p.asin !== 'string') continue;
    if (p.productType === 4 || p.productType === 2) continue;
    out.push({
      asin: p.asin,
      eans: Array.isArray(p.eanList) ? p.eanList.filter((e): e is string => typeof e === 'string') : [],
      title: typeof p.title === 'string' ? p.title : null,
      points: timeline(p.csv),
      stats: readStats(p.stats, at),
    });
  }
  return out;
}

/** The error a 4xx/5xx body names (`error.message`), if any. */
export function readError(body: unknown): string | undefined {
  if (!isObject(body) || !isObject(body.error)) return undefined;
  const { type, message } = body.error;
  return (
    [typeof type === 'string' ? type : undefined, typeof message === 'string' ? message : undefined].filter(Boolean).join(': ') || undefined
  );
}
