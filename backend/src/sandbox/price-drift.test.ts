// SANDBOX_PRICE_DRIFT: an ISBN's prices move with each request for it, the same in every run, so a
// re-priced job shows a change; off by default.
import { describe, expect, it } from 'vitest';
import { startMarketplaceSandbox } from '../marketplaces/sandbox.ts';
import { bookFor, DRIFT_FACTORS, driftedListings, listingsFor } from './catalog.ts';
import { DEFAULT_SANDBOX_OPTIONS } from './options.ts';

const ISBN = '9780306406157';

describe('sandbox price drift', () => {
  const stock = listingsFor('alibris', bookFor(ISBN, 1), { ...DEFAULT_SANDBOX_OPTIONS, noOfferShare: 0 });

  it('scales every listing by the request’s factor in turn, to the cent, and starts over', () => {
    expect(driftedListings(stock, 1)).toEqual(stock);
    const second = driftedListings(stock, 2);
    for (const [i, l] of second.entries()) {
      expect(l.price).toBe(Math.round(stock[i]!.price * DRIFT_FACTORS[1] * 100) / 100);
      expect(l.shipping).toBe(stock[i]!.shipping);
    }
    expect(driftedListings(stock, DRIFT_FACTORS.length + 2)).toEqual(second);
  });

  /** Alibris' cheapest price as the sandbox answers it, request after request. */
  async function cheapest(priceDrift: boolean, requests: number): Promise<number[]> {
    const sandbox = await startMarketplaceSandbox({ latencyMs: 0, noOfferShare: 0, priceDrift });
    try {
      const out: number[] = [];
      for (let i = 0; i < requests; i++) {
        const body = (await fetch(`${sandbox.url}/alibris/v1/public/search?qisbn=${ISBN}&outputtype=json`).then((r) => r.json())) as {
          book: { price: string }[];
        };
        out.push(Math.min(...body.book.map((b) => Number(b.price))));
      }
      return out;
    } finally {
      await sandbox.close();
    }
  }

  it('is off by default: the same prices every time', async () => {
    const [a, b] = await cheapest(false, 2);
    expect(b).toBe(a);
  });

  it('moves the answered prices with each request for the ISBN', async () => {
    const [a, b, c] = await cheapest(true, 3);
    expect(b).toBeCloseTo(a! * DRIFT_FACTORS[1], 1);
    expect(c).toBeCloseTo(a! * DRIFT_FACTORS[2], 1);
  });
});
