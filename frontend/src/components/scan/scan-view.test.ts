import { describe, expect, it } from 'vitest';
import type { ScanPublic } from '../../client/types.gen';
import { duplicateNotes, isToday, verdictFigures, verdictState } from './scan-view';

const scan = (over: Partial<ScanPublic> = {}, verdict: Partial<ScanPublic['verdict']> = {}): ScanPublic => ({
  id: 1,
  client_id: '6f1c1a52-6d0e-4c55-9d0a-4c1f2d3e4f50',
  isbn: '9780306406157',
  scanned_at: '2026-11-27T10:00:00Z',
  mark: null,
  copies: 1,
  bought_elsewhere: null,
  verdict: {
    outcome: { name: 'Buy', color: 'green' },
    state: 'final',
    waiting_for: [],
    figures: {
      title: 'A book',
      best_price: 31.5,
      best_source: 'AbeBooks',
      amazon_sales_rank: 123456,
      estimated_profit: 17.47,
      cost_per_book: 3,
    },
    ...verdict,
  },
  ...over,
});

describe('scan view', () => {
  it('reads the figures behind a verdict in dollars and a grouped rank', () => {
    expect(verdictFigures(scan())).toEqual([
      { label: 'Best price', value: '$31.50 on AbeBooks' },
      { label: 'Amazon sales rank', value: '123,456' },
      { label: 'Est. profit after fees', value: '$17.47' },
      { label: 'Cost per book', value: '$3.00' },
    ]);
    expect(verdictFigures(scan({}, { figures: null }))).toEqual([]);
  });

  it('says whether a verdict is final or what it waits for', () => {
    expect(verdictState(scan())).toBe('Final');
    expect(verdictState(scan({}, { state: 'provisional', waiting_for: ['amazon'] }))).toBe('Provisional: waiting for 1 marketplace');
    expect(verdictState(scan({}, { state: 'provisional', waiting_for: ['amazon', 'ebay'] }))).toBe(
      'Provisional: waiting for 2 marketplaces',
    );
  });

  it('names copies in the session and a purchase elsewhere', () => {
    expect(duplicateNotes(scan())).toEqual([]);
    expect(
      duplicateNotes(scan({ copies: 3, bought_elsewhere: { at: '2026-11-20T12:00:00Z', by: 'Ann', session: 'Scan 2026-11-20' } })),
    ).toEqual(['Already scanned in this session: 3 copies', 'Bought by Ann on Nov 20 (Scan 2026-11-20)']);
  });

  it("knows today's session from yesterday's", () => {
    const now = new Date(2026, 10, 27, 15, 0);
    expect(isToday(new Date(2026, 10, 27, 8, 0).toISOString(), now)).toBe(true);
    expect(isToday(new Date(2026, 10, 26, 23, 59).toISOString(), now)).toBe(false);
  });
});
