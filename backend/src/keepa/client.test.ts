// Keepa's client: keepa minutes, -1 gaps, cents and csv indexes read from our own hand-written
// answers (fixtures/); each expected value below is worked out by hand from the file. Then
// the request itself against a local server: the codes in one batch, the envelope handed to the
// token state, a 429 waited out and asked again, and a refused key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../test/helpers/http-contract.ts';
import { fetchKeepaHistory, KeepaError, matchProducts } from './client.ts';
import { createKeepaSim, knownToKeepa, simulatedStats, statsInterval } from './sandbox-format.ts';
import type { KeepaTokenState } from './wire.ts';
import { keepaMinuteToMs, msToKeepaMinute, readError, readProducts, readStats, readTokenState, timeline } from './wire.ts';

describe('keepa minutes', () => {
  it('count from 2011-01-01 UTC', () => {
    expect(new Date(keepaMinuteToMs(0)).toISOString()).toBe('2011-01-01T00:00:00.000Z');
    // Keepa's Java documentation: 411180 => 1318510800000.
    expect(keepaMinuteToMs(411_180)).toBe(1_318_510_800_000);
    // Before 2011: negative minutes are dates too (a listedSince seen live).
    expect(new Date(keepaMinuteToMs(-1_183_432)).toISOString()).toBe('2008-10-01T04:08:00.000Z');
    expect(msToKeepaMinute(1_318_510_800_000 + 59_999)).toBe(411_180);
  });
});

describe('timeline', () => {
  it('merges rank, used and new by time; -1 is a gap, prices are cents', () => {
    const csv = [null, [100, 2000, 300, 1800], [100, 999, 200, -1, 400, 850], [150, 5000, 200, -1, 300, 4000]];
    expect(timeline(csv).map((p) => [msToKeepaMinute(p.at.getTime()), p.salesRank, p.used, p.new])).toEqual([
      [100, null, 9.99, 20],
      [150, 5000, 9.99, 20],
      [200, null, null, 20],
      [300, 4000, null, 18],
      [400, 4000, 8.5, 18],
    ]);
  });

  it('takes a short csv, null series and odd lengths as no data', () => {
    expect(timeline([null, null])).toEqual([]);
    expect(timeline(null)).toEqual([]);
    expect(timeline([null, null, null, [100, 7, 200]]).map((p) => p.salesRank)).toEqual([7]);
  });
});

describe('envelope', () => {
  it('reads the token state, but not an error body of zeros', () => {
    expect(readTokenState({ timestamp: 5, tokensLeft: -14, refillIn: 23_817, refillRate: 20, tokensConsumed: 0 })).toEqual({
      timestamp: 5,
      tokensLeft: -14,
      refillIn: 23_817,
      refillRate: 20,
      tokensConsumed: 0,
    });
    expect(
      readTokenState({ timestamp: 5, tokensLeft: 0, refillIn: 0, refillRate: 0, error: { type: 'invalidParameter' } }),
    ).toBeUndefined();
    expect(readError({ error: { type: 'invalidParameter', message: 'Bad.' } })).toBe('invalidParameter: Bad.');
  });

  it('matches products to ISBNs by EAN, else by ASIN as ISBN-10; a missing one is null', () => {
    const product = (asin: string, eans: string[]) => ({ asin, eans, title: null, points: [], stats: null });
    const answers = matchProducts(
      ['9780131457577', '9780201633610', '9780306406157'],
      [product('0201633612', []), product('B0X', ['9780131457577'])],
    );
    expect([...answers].map(([isbn, p]) => [isbn, p?.asin ?? null])).toEqual([
      ['9780131457577', 'B0X'],
      ['9780201633610', '0201633612'],
      ['9780306406157', null],
    ]);
  });
});

// Our own Keepa answers (fixtures/, written by us in Keepa's format with our own values; never
// copied from anywhere), one per trap of the format. Each expected value is worked out by hand from
// the file, in the comment beside it. A missing fixture fails the test: nothing here is optional.
const sample = readFixture(import.meta.url);
const body = (name: string): unknown => JSON.parse(sample(name));
const at = (minute: number) => new Date(keepaMinuteToMs(minute));

describe('our Keepa answers', () => {
  it('product-book: a book, its rank with a -1 gap, a used gap, new prices; other series ignored', () => {
    const answer = body('product-book.json');
    expect(readTokenState(answer)).toEqual({
      timestamp: 1_790_000_000_000,
      tokensLeft: 257,
      refillIn: 12_000,
      refillRate: 5,
      tokensConsumed: 1,
    });
    const [book, ...rest] = readProducts(answer);
    expect(rest).toEqual([]);
    expect(book).toMatchObject({ asin: '0306406152', eans: ['9780306406157'], title: 'Fixture Book: Counting Keepa Minutes (Paperback)' });
    // `"stats": null`: a product without stats.
    expect(book?.stats).toBeNull();
    // Minute 8,000,000 is 5,555 days and 13 h 20 min after 2011-01-01: 15 years (5,479 days, 4 leap)
    // reach 2026-01-01, 76 more days 2026-03-18. Rank 250,000 and used $12.50 start there; new has no
    // point yet (its first is 8,005,000) and the Amazon series (csv[0]) is not ours to read.
    expect(book?.points[0]).toEqual({ at: new Date('2026-03-18T13:20:00Z'), salesRank: 250_000, used: 12.5, new: null });
    // The nine distinct minutes of the rank (5), used (3) and new (2) series, each value holding until
    // its series' next point: used is -1 from 8,015,000 to 8,025,000, the rank from 8,030,000 to 8,040,000.
    expect(book?.points.map((p) => [msToKeepaMinute(p.at.getTime()), p.salesRank, p.used, p.new])).toEqual([
      [8_000_000, 250_000, 12.5, null],
      [8_005_000, 250_000, 12.5, 24.99],
      [8_010_000, 180_000, 12.5, 24.99],
      [8_015_000, 180_000, null, 24.99],
      [8_020_000, 90_000, null, 24.99],
      [8_025_000, 90_000, 8.99, 24.99],
      [8_030_000, null, 8.99, 24.99],
      [8_035_000, null, 8.99, 21.99],
      [8_040_000, 60_000, 8.99, 21.99],
    ]);
  });

  it('product-batch: matched by EAN (second of two EANs too), by ASIN as ISBN-10; an ebook is no answer', () => {
    const answer = body('product-batch.json');
    expect(readTokenState(answer)?.tokensConsumed).toBe(3);
    const answers = matchProducts(['9780262533058', '9780131103627', '9781449355739'], readProducts(answer));
    const listed = answers.get('9780262533058');
    expect(listed?.asin).toBe('B0FIXTURE1');
    // Rank 31,000 → 45,500 (8,002,000) → 12,800 (8,020,000); used $41.00 → $38.50 (8,006,000) →
    // $43.25 (8,020,000); new $89.00 → $84.50 (8,012,000): minutes 7,990,000, 8,002,000, 8,006,000,
    // 8,012,000 and 8,020,000.
    expect(listed?.points[0]).toEqual({ at: at(7_990_000), salesRank: 31_000, used: 41, new: 89 });
    expect(listed?.points.at(-1)).toEqual({ at: at(8_020_000), salesRank: 12_800, used: 43.25, new: 84.5 });
    expect(listed?.points).toHaveLength(5);
    // No eanList at all: 0131103628 is 9780131103627's ISBN-10. Used drops to $16.50 at 8,011,000.
    expect(answers.get('9780131103627')?.points.map((p) => [msToKeepaMinute(p.at.getTime()), p.salesRank, p.used, p.new])).toEqual([
      [8_001_000, 7777, 19.99, 52.75],
      [8_011_000, 7777, 16.5, 52.75],
    ]);
    // productType 2 (EBOOK: no prices, no rank) is left out, so its EAN has no product.
    expect(answers.get('9781449355739')).toBeNull();
  });

  it('product-stats: Keepa’s stats read with cents, -1 and -2 as none; a product without the key; odd shapes', () => {
    const answer = body('product-stats.json');
    const answers = matchProducts(['9780262510875', '9780387310732', '9781593272203'], readProducts(answer));
    // The answer's timestamp 1,790,000,400,000 ms is when Keepa's windows end.
    const when = new Date(1_790_000_400_000);
    // current: new 2450 ¢ = $24.50, used 1299 ¢ = $12.99, rank 143,000 (index 3); avg90[3] 151,234; avg180[3]
    // is -1 (too little data); drops 2 / 7 / -1 (none). Counts (indexes 11, 12), buyBoxPrice -2 and
    // salesRankDrops365 are not read.
    expect(answers.get('9780262510875')?.stats).toEqual({
      at: when,
      rankDrops30: 2,
      rankDrops90: 7,
      rankDrops180: null,
      avgRank90: 151_234,
      avgRank180: null,
      currentRank: 143_000,
      usedPrice: 12.99,
      newPrice: 24.5,
    });
    // No stats key at all (as when `stats=` is not sent).
    expect(answers.get('9780387310732')?.stats).toBeNull();
    expect(answers.get('9780387310732')?.points).toHaveLength(1);
    // current is [-1, -2]: new -2 (not collected) is none; used and the rank are past its end. avg90
    // null, avg180[3] 0 (no rank is 0); drops "3" (a string) and 4.5 are none, 0 is a count of 0.
    expect(answers.get('9781593272203')?.stats).toEqual({
      at: when,
      rankDrops30: null,
      rankDrops90: 0,
      rankDrops180: null,
      avgRank90: null,
      avgRank180: null,
      currentRank: null,
      usedPrice: null,
      newPrice: null,
    });
    expect(readStats([1, 2], when)).toBeNull();
    expect(readStats('stats', when)).toBeNull();
  });

  it('code-not-found: no products key, no product, yet a token state', () => {
    const answer = body('code-not-found.json');
    expect(readProducts(answer)).toEqual([]);
    expect(readTokenState(answer)).toMatchObject({ tokensLeft: 93, refillIn: 44_000, tokensConsumed: 1 });
  });

  it.each(['429-not-enough-tokens.json', '429-not-enough-tokens-error-object.json'])('%s: a negative balance to wait out', (name) => {
    expect(readTokenState(body(name))).toEqual({
      timestamp: 1_790_000_300_000,
      tokensLeft: -37,
      refillIn: 4410,
      refillRate: 5,
      tokensConsumed: 0,
    });
  });

  it('400-invalid-key: an error, and zeros that are no token state', () => {
    const answer = body('400-invalid-key.json');
    expect(readTokenState(answer)).toBeUndefined();
    expect(readError(answer)).toBe('invalidParameter: The access key is not valid.');
  });

  it('product-unranked-at-end: the rank ends in -1, new has a -1 gap, used never had an offer', () => {
    const [p] = readProducts(body('product-unranked-at-end.json'));
    expect(p?.eans).toEqual(['0012345678905']);
    // New $19.99 from 7,500,000, -1 at 7,600,000, $18.99 from 7,610,000; rank 40,000 from 7,505,000,
    // 52,000 from 7,700,000, -1 from 7,800,000; csv[2] (used) is null.
    expect(p?.points.map((x) => [msToKeepaMinute(x.at.getTime()), x.salesRank, x.new])).toEqual([
      [7_500_000, null, 19.99],
      [7_505_000, 40_000, 19.99],
      [7_600_000, 40_000, null],
      [7_610_000, 40_000, 18.99],
      [7_700_000, 52_000, 18.99],
      [7_800_000, null, 18.99],
    ]);
    expect(p?.points.every((x) => x.used === null)).toBe(true);
  });

  it('product-long-history: all 36 series, sixty daily ranks; only rank, used and new are read', () => {
    const [p] = readProducts(body('product-long-history.json'));
    expect(p?.eans).toEqual(['9780596007126']);
    // Rank 6,000 − 100·i at minute 7,000,000 + 1,440·i for i = 0…59: the last is 100 at 7,084,960.
    // Used $15.00 − $0.50·j weekly (10,080 minutes, all on rank minutes) for j = 0…8: $11.00 from
    // 7,080,640. New $25.00, then $23.50 from 7,042,000, the one minute off the daily grid: 61 points.
    expect(p?.points).toHaveLength(61);
    expect(p?.points[0]).toEqual({ at: at(7_000_000), salesRank: 6000, used: 15, new: 25 });
    // At 7,042,000 (after day 29's 7,041,760 and week 4's 7,040,320): rank 3,100, used $13.00.
    expect(p?.points.find((x) => x.at.getTime() === keepaMinuteToMs(7_042_000))).toEqual({
      at: at(7_042_000),
      salesRank: 3100,
      used: 13,
      new: 23.5,
    });
    expect(p?.points.at(-1)).toEqual({ at: at(7_084_960), salesRank: 100, used: 11, new: 23.5 });
  });

  it('product-truncated: an answer cut off in the middle of csv is not JSON, so the client refuses it', async () => {
    const text = sample('product-truncated.txt');
    expect(() => JSON.parse(text)).toThrow();
    await withServer(
      () => ({ status: 200, body: text }),
      async (url) => {
        await expect(fetchKeepaHistory(['9780306406157'], { url, key: 'k', timeoutMs: 5000 }, recorder().tokens)).rejects.toThrow(
          KeepaError,
        );
      },
    );
  });
});

describe('the sandbox’s stats', () => {
  const NOW_MINUTE = 8_000_000;
  const now = keepaMinuteToMs(NOW_MINUTE);
  const day = (daysBefore: number) => NOW_MINUTE - daysBefore * 1440;
  // Rank: 100k (day -200) → 50k (-100, a drop) → 44k (-80, a drop: below 45k) → -1 (-60) → 40k (-50,
  // after a gap: no drop) → 30k (-20, a drop: below 36k) → 28k (-10, not below 27k) → 20k (-5, a drop).
  // Used $15.00 from day -30, -1 from day -15; no new series.
  const csv = [
    null,
    null,
    [day(30), 1500, day(15), -1],
    [day(200), 100_000, day(100), 50_000, day(80), 44_000, day(60), -1, day(50), 40_000, day(20), 30_000, day(10), 28_000, day(5), 20_000],
  ];

  it('are computed from the csv as of the answer, worked out by hand', () => {
    const stats = simulatedStats(csv, now, { from: now - 90 * 86_400_000, to: now });
    // Drops within 30 days: -20, -5; 90 days: -80 too; 180 days: -100 too; 365 the same (day -200 has no rank before it).
    expect([stats.salesRankDrops30, stats.salesRankDrops90, stats.salesRankDrops180, stats.salesRankDrops365]).toEqual([2, 3, 4, 4]);
    // 90 days: 50k×10 + 44k×20 + (gap 10 days, left out) + 40k×30 + 30k×10 + 28k×5 + 20k×5 = 3,120,000k over 80 days = 39,000.
    expect(stats.avg90[3]).toBe(39_000);
    // 180 days: 100k×80 + 50k×20 + 44k×20 + 40k×30 + 30k×10 + 28k×5 + 20k×5 = 11,620,000k over 170 days = 68,352.9 → 68,353.
    expect(stats.avg180[3]).toBe(68_353);
    // stats=90: the interval's average is avg90; the rank at its start is 50k.
    expect(stats.avg[3]).toBe(39_000);
    expect(stats.atIntervalStart[3]).toBe(50_000);
    // Used: $15.00 for the 15 days it held in the last 30, then -1: the average is 1500, the current -1.
    expect([stats.current[2], stats.avg30[2]]).toEqual([-1, 1500]);
    // No new series: -1 everywhere; offer-only fields at Keepa's defaults.
    expect([stats.current[1], stats.avg90[1], stats.buyBoxPrice, stats.totalOfferCount]).toEqual([-1, -1, -2, -2]);
    // Read back as a client reads them: the current rank 20,000, no used price (-1).
    expect(readStats(stats, new Date(now))).toEqual({
      at: new Date(now),
      rankDrops30: 2,
      rankDrops90: 3,
      rankDrops180: 4,
      avgRank90: 39_000,
      avgRank180: 68_353,
      currentRank: 20_000,
      usedPrice: null,
      newPrice: null,
    });
  });

  it('take N days, or a start,end pair of ISO dates or epoch ms; anything else is refused', () => {
    expect(statsInterval('180', now)).toEqual({ from: now - 180 * 86_400_000, to: now });
    expect(statsInterval('2015-10-20,2015-12-24', now)).toEqual({ from: 1_445_299_200_000, to: 1_450_915_200_000 });
    expect(statsInterval('1445299200000,1450915200000', now)).toEqual({ from: 1_445_299_200_000, to: 1_450_915_200_000 });
    for (const bad of ['', 'abc', '-5', '2015-12-24,2015-10-20', '1,2,3']) expect(statsInterval(bad, now), bad).toBeUndefined();
  });
});

type Reply = { status: number; body: string };
async function withServer(answer: (url: URL) => Reply, run: (base: string, requests: URL[]) => Promise<void>) {
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(url);
    const r = answer(url);
    res.writeHead(r.status, { 'content-type': 'application/json' }).end(r.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

function recorder() {
  const taken: number[] = [];
  const states: KeepaTokenState[] = [];
  return {
    taken,
    states,
    tokens: { take: async (n: number) => void taken.push(n), update: async (s: KeepaTokenState) => void states.push(s) },
  };
}

describe('the request', () => {
  let sim: ReturnType<typeof createKeepaSim>;
  let clock = 1_778_400_000_000;
  beforeAll(() => {
    sim = createKeepaSim({ tokens: 3, refillRate: 20, now: () => clock });
  });
  afterAll(() => {
    clock = 0;
  });

  it('asks for a batch of codes in one request, updates the tokens, and waits out a 429', async () => {
    const isbns = ['9780131457577', '9780201633610', '9780306406157', '9780596007126'];
    const { taken, states, tokens } = recorder();
    let first = true;
    await withServer(
      (url) => {
        // The first request finds the bucket empty: a 429 with refillIn 0 (asked again at once).
        if (first) {
          first = false;
          return { status: 429, body: JSON.stringify({ timestamp: clock, tokensLeft: 0, refillIn: 1, refillRate: 20, tokensConsumed: 0 }) };
        }
        const reply = sim({ path: url.pathname, query: url.searchParams, host: 'x' });
        return { status: reply?.status ?? 404, body: reply?.body ?? '' };
      },
      async (url, requests) => {
        const answers = await fetchKeepaHistory(isbns, { url, key: 'k', timeoutMs: 5000 }, tokens);
        expect(requests).toHaveLength(2);
        expect(requests[1]?.searchParams.get('code')).toBe(isbns.join(','));
        expect(requests[1]?.searchParams.get('domain')).toBe('1');
        // Keepa's stats are asked for (no extra token); the sandbox answers them for each product.
        expect(requests[1]?.searchParams.get('stats')).toBe('180');
        expect(taken).toEqual([4, 4]);
        expect(states.map((s) => s.tokensLeft)).toEqual([0, 3 - isbns.filter(knownToKeepa).length]);
        for (const isbn of isbns) expect(answers.get(isbn) !== null, isbn).toBe(knownToKeepa(isbn));
        for (const p of answers.values()) if (p) expect(p.stats?.at).toEqual(new Date(clock));
        const ranked = [...answers.values()].find((p) => p?.stats?.currentRank != null);
        // The current rank in the stats is the last rank of the product's own series.
        expect(ranked?.stats?.currentRank).toBe(ranked?.points.findLast((p) => p.salesRank !== null)?.salesRank);
      },
    );
  });

  it('a refused key fails with Keepa’s message and leaves the token state alone', async () => {
    const { states, tokens } = recorder();
    await withServer(
      (url) => {
        const reply = sim({
          path: url.pathname,
          query: new URLSearchParams({ ...Object.fromEntries(url.searchParams), key: '' }),
          host: 'x',
        });
        return { status: reply?.status ?? 404, body: reply?.body ?? '' };
      },
      async (url) => {
        await expect(fetchKeepaHistory(['9780131457577'], { url, key: 'k', timeoutMs: 5000 }, tokens)).rejects.toThrow(
          'Keepa answered HTTP 400: invalidParameter: You used an invalid parameter for this API call.',
        );
        expect(states).toEqual([]);
      },
    );
  });
});
