// The book page's chart rows: each marketplace's prices, Amazon's and Keepa's sales ranks on one rank
// line (a rank of -1 or none is left out, never drawn as a rank), Keepa's price on its own line.
import { describe, expect, it } from 'vitest';
import type { BookHistory } from '../../client/types.gen';
import { historyRows, KEEPA, RANK } from './PriceHistoryChart';

const point = (at: string, price: number | null, sales_rank: number | null = null) => ({
  observed_at: at,
  status: 'completed',
  price,
  currency: price === null ? null : 'USD',
  offer_count: 1,
  sales_rank,
  buy_box_price: null,
  lowest_used_price: null,
  lowest_new_price: null,
});

describe('historyRows', () => {
  it('orders by time; ranks from Amazon and Keepa share the rank line; PalletIQ is not a price line', () => {
    const history: BookHistory = {
      isbn: '9780131457577',
      series: [
        { marketplace: 'amazon', points: [point('2026-11-02T00:00:00Z', 12.5, 30_000)], truncated: false },
        { marketplace: 'abe_books', points: [point('2026-11-01T00:00:00Z', 10)], truncated: false },
        { marketplace: 'pallet_iq', points: [point('2026-11-01T00:00:00Z', 99)], truncated: false },
      ],
      keepa: {
        points: [
          point('2025-01-01T00:00:00Z', 8, 120_000),
          point('2025-02-01T00:00:00Z', null, null),
          point('2025-03-01T00:00:00Z', 9, -1),
        ],
        truncated: false,
        stats: null,
      },
      velocity: null,
    };
    const rows = historyRows(history);
    expect(rows.map((r) => [r.time, r.amazon, r.abe_books, r[KEEPA], r[RANK]])).toEqual([
      [Date.parse('2025-01-01T00:00:00Z'), undefined, undefined, 8, 120_000],
      [Date.parse('2025-03-01T00:00:00Z'), undefined, undefined, 9, undefined],
      [Date.parse('2026-11-01T00:00:00Z'), undefined, 10, undefined, undefined],
      [Date.parse('2026-11-02T00:00:00Z'), 12.5, undefined, undefined, 30_000],
    ]);
    expect(rows.some((r) => 'pallet_iq' in r)).toBe(false);
  });
});
