// Keepa's client: keepa minutes, -1 gaps, cents and csv indexes read from our own hand-written
// answers and, when the shared samples are beside the checkout, from every example there (never
// copied into the repository); each expected value below is worked out by hand from the file. Then
// the request itself against a local server: the codes in one batch, the envelope handed to the
// token state, a 429 waited out and asked again, and a refused key.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

// Keepa's published samples, kept beside the repository (../shared, never copied in): a check of our
// reading against the real answers where they are present. The tests above use our own answers and
// always run; in a checkout without the samples this block is reported as skipped.
const SAMPLES = new URL('../../../../shared/marketplace-samples/keepa/examples/', import.meta.url);
const sample = (name: string) => readFileSync(new URL(name, SAMPLES), 'utf8');
const at = (minute: number) => new Date(keepaMinuteToMs(minute));

describe.skipIf(!existsSync(SAMPLES))('the shared Keepa samples', () => {
  it('reconstructed-book-product-stats: a book, its rank, used gap and new prices', () => {
    const body = JSON.parse(sample('reconstructed-book-product-stats.json'));
    expect(readTokenState(body)).toEqual({
      timestamp: 1_778_400_001_234,
      tokensLeft: 1183,
      refillIn: 41_233,
      refillRate: 20,
      tokensConsumed: 1,
    });
    const [book, ...rest] = readProducts(body);
    expect(rest).toEqual([]);
    expect(book).toMatchObject({ asin: '0000000019', eans: ['9780000000019'] });
    const points = book!.points;
    // The first minute of every series is 7400000: 2025-01-25T21:20Z; rank 152,340, used $8.99, new $16.50.
    expect(points[0]).toEqual({ at: new Date('2025-01-25T21:20:00Z'), salesRank: 152_340, used: 8.99, new: 16.5 });
    // Used is -1 from minute 8060000 (2026-04-29T05:20Z) until 8066000 ($4.55); the rank then is
    // still 54,300 (from 8052000; 120,877 comes at 8061000).
    expect(points.find((p) => p.at.getTime() === keepaMinuteToMs(8_060_000))).toMatchObject({ used: null, salesRank: 54_300 });
    expect(points.find((p) => p.at.getTime() === keepaMinuteToMs(8_066_000))).toMatchObject({ used: 4.55 });
    // The last: minute 8073500 (2026-05-08T14:20Z), rank 41,220, used $4.55, new $15.75 (from 8071000).
    expect(points.at(-1)).toEqual({ at: new Date('2026-05-08T14:20:00Z'), salesRank: 41_220, used: 4.55, new: 15.75 });
    // 11 rank points, 6 used and 5 new on 18 distinct minutes: used adds 7600000, 8010000, 8060000 and
    // 8066000 to the rank's 11 (7400000 and 7900000 are shared), new adds 7650000, 7950000 and 8071000.
    expect(points.filter((p, i) => i === 0 || p.salesRank !== points[i - 1]?.salesRank)).toHaveLength(11);
    expect(points).toHaveLength(18);
  });

  it('reconstructed-two-products-batch: both products, matched by EAN', () => {
    const body = JSON.parse(sample('reconstructed-two-products-batch.json'));
    expect(readTokenState(body)?.tokensConsumed).toBe(2);
    const answers = matchProducts(['9780000000064', '9780000000026', '9780000000019'], readProducts(body));
    const x = answers.get('9780000000064');
    expect(x?.asin).toBe('000000006X');
    // Rank 412,300 at 7942400, 199,870 at 8063040; used $13.99 → $9.80 → $10.45; new $24.99 → $22.99 → $23.50.
    expect(x?.points[0]).toEqual({ at: at(7_942_400), salesRank: 412_300, used: 13.99, new: 24.99 });
    expect(x?.points.at(-1)).toEqual({ at: at(8_071_680), salesRank: 199_870, used: 10.45, new: 23.5 });
    const y = answers.get('9780000000026');
    expect(y?.points.at(-1)).toEqual({ at: at(8_073_120), salesRank: 3310, used: 2.75, new: 8.49 });
    expect(answers.get('9780000000019')).toBeNull();
  });

  it('reconstructed-code-not-found: no products key, no product', () => {
    const body = JSON.parse(sample('reconstructed-code-not-found.json'));
    expect(readProducts(body)).toEqual([]);
    expect(readTokenState(body)).toBeDefined();
  });

  it.each(['reconstructed-429-not-enough-tokens.json', 'reconstructed-429-not-enough-tokens-with-error-object.json'])(
    '%s: a negative balance to wait out',
    (name) => {
      expect(readTokenState(JSON.parse(sample(name)))).toEqual({
        timestamp: 1_778_400_001_234,
        tokensLeft: -14,
        refillIn: 23_817,
        refillRate: 20,
        tokensConsumed: 0,
      });
    },
  );

  it('reconstructed-400-invalid-key: an error, and zeros that are no token state', () => {
    const body = JSON.parse(sample('reconstructed-400-invalid-key.json'));
    expect(readTokenState(body)).toBeUndefined();
    expect(readError(body)).toBe('invalidParameter: You used an invalid parameter for this API call.');
  });

  it('real B0F7XPYCSJ: the rank ends in -1 (no rank), new has a -1 gap, used never had an offer', () => {
    const body = JSON.parse(sample('real-keepa-cli-B0F7XPYCSJ-product-stats.json'));
    expect(readTokenState(body)).toMatchObject({ tokensLeft: 42, refillRate: 60, refillIn: 18_815 });
    const [p] = readProducts(body);
    expect(p?.eans).toEqual(['0747474801770']);
    // New: $25.99 at 7554276, -1 at 7930604, $25.99 again at 7933390.
    expect(p?.points[0]).toEqual({ at: at(7_554_276), salesRank: null, used: null, new: 25.99 });
    expect(p?.points.find((x) => x.at.getTime() === keepaMinuteToMs(7_930_604))?.new).toBeNull();
    expect(p?.points.find((x) => x.at.getTime() === keepaMinuteToMs(7_933_390))?.new).toBe(25.99);
    // Rank: 151,481 first at 7554664; its last point (8052940) is -1.
    expect(p?.points.find((x) => x.salesRank !== null)).toMatchObject({ at: at(7_554_664), salesRank: 151_481 });
    expect(p?.points.at(-1)).toMatchObject({ at: at(8_052_940), salesRank: null });
    expect(p?.points.every((x) => x.used === null)).toBe(true);
  });

  it('real B0D8W1YVBX: a long history, last rank 24 at 8075852', () => {
    const [p] = readProducts(JSON.parse(sample('real-keepa-cli-B0D8W1YVBX-product-history-stats-videos-aplus.json')));
    expect(p?.eans).toEqual(['8809875456477']);
    expect(p?.points.at(-1)).toMatchObject({ at: at(8_075_852), salesRank: 24 });
    // New ends at $14.99 (8057266, before the rank's last point).
    expect(p?.points.at(-1)?.new).toBe(14.99);
  });

  it('real AgentArbitrage book (truncated in the middle of csv): not JSON, so the client refuses it', async () => {
    const text = sample('real-agentarbitrage-book-1598162152-TRUNCATED.txt');
    expect(() => JSON.parse(text)).toThrow();
    await withServer(
      () => ({ status: 200, body: text }),
      async (url) => {
        await expect(fetchKeepaHistory(['9781598162152'], { url, key: 'k', timeoutMs: 5000 }, recorder().tokens)).rejects.toThrow(
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
