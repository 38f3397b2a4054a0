// Keepa's client: keepa minutes, -1 gaps, cents and csv indexes read from our own hand-written
// answers (fixtures/); each expected value below is worked out by hand from the file. Then
// the request itself against a local server: the codes in one batch, the envelope handed to the
// token state, a 429 waited out and asked again, and a refused key.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixture } from '../../test/helpers/http-contract.ts';
import { fetchKeepaHistory, KeepaError, matchProducts } from './client.ts';
import { createKeepaSim, knownToKeepa } from './sandbox-format.ts';
import type { KeepaTokenState } from './wire.ts';
import { keepaMinuteToMs, msToKeepaMinute, readError, readProducts, readTokenState, timeline } from './wire.ts';

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
    const product = (asin: string, eans: string[]) => ({ asin, eans, title: null, points: [] });
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
        expect(taken).toEqual([4, 4]);
        expect(states.map((s) => s.tokensLeft)).toEqual([0, 3 - isbns.filter(knownToKeepa).length]);
        for (const isbn of isbns) expect(answers.get(isbn) !== null, isbn).toBe(knownToKeepa(isbn));
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
