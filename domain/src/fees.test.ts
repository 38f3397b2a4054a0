import { describe, expect, it } from 'vitest';
import { PRICE_SOURCES } from './comparison.ts';
import {
  FEE_CERTAINTIES,
  FEE_DEFAULTS,
  FEE_FIELDS,
  FEE_LIMITS,
  SELLING_MARKETPLACES,
  commission,
  costFromPallet,
  estimatedProfit,
  feeDefault,
  saleFee,
} from './fees.ts';

describe('fee defaults', () => {
  it('has a dated, sourced default within the limits for every selling marketplace, and none for PalletIQ', () => {
    expect(SELLING_MARKETPLACES).toEqual(PRICE_SOURCES.map((s) => s.marketplace));
    for (const id of SELLING_MARKETPLACES) {
      const d = feeDefault(id);
      expect(d.source, id).not.toBe('');
      expect(d.source_url, id).toMatch(/^https:\/\//);
      expect(d.as_of, id).toMatch(/\d{4}/);
      expect(FEE_CERTAINTIES).toContain(d.certainty);
      for (const f of FEE_FIELDS) {
        const v = d[f];
        if (v === null) continue;
        expect(v, `${id}.${f}`).toBeGreaterThanOrEqual(FEE_LIMITS[f].min);
        expect(v, `${id}.${f}`).toBeLessThanOrEqual(FEE_LIMITS[f].max);
      }
    }
    expect(FEE_DEFAULTS.pallet_iq).toBeUndefined();
    expect(() => feeDefault('pallet_iq')).toThrow(/not a selling marketplace/);
  });

  it('states what the research says: AbeBooks 8 % ($0.50–$40 per item) confirmed since 2008-04-28, Biblio 15 % of 2006, Alibris unconfirmed', () => {
    expect(FEE_DEFAULTS.abe_books).toMatchObject({
      percent: 8,
      min_commission: 0.5,
      max_commission: 40,
      fixed: 0,
      shipping_credit: 0,
      certainty: 'CONFIRMED',
      as_of: '2008-04-28',
    });
    expect(FEE_DEFAULTS.biblio).toMatchObject({ percent: 15, certainty: 'HISTORICAL', as_of: '2006-02' });
    expect(FEE_DEFAULTS.alibris).toMatchObject({ percent: 20, certainty: 'UNCERTAIN' });
    expect(FEE_DEFAULTS.alibris?.note).toMatch(/unconfirmed/);
  });
});

describe('estimated profit', () => {
  const abe = { percent: 8, min_commission: 0.5, max_commission: 40, fixed: 0, shipping_credit: 0 };
  const flat = (percent: number, fixed: number, shipping_credit: number) => ({
    percent,
    min_commission: null,
    max_commission: null,
    fixed,
    shipping_credit,
  });
  it('takes the percentage and the fixed fee off the price, adds the credit and subtracts the cost', () => {
    expect(saleFee(20, abe)).toBeCloseTo(1.6);
    expect(estimatedProfit(20, abe, null)).toBeCloseTo(18.4);
    expect(estimatedProfit(20, flat(15, 1.8, 3.99), 2.5)).toBeCloseTo(20 - 3 - 1.8 + 3.99 - 2.5);
  });

  it('keeps the commission within its per-item bounds, and leaves it alone without them', () => {
    expect(commission(5, abe)).toBe(0.5);
    expect(commission(600, abe)).toBe(40);
    expect(commission(100, abe)).toBeCloseTo(8);
    expect(commission(5, flat(8, 0, 0))).toBeCloseTo(0.4);
    expect(saleFee(600, { ...abe, fixed: 1 })).toBe(41);
  });

  it('goes negative when the book cost more than the sale leaves', () => {
    expect(estimatedProfit(5, abe, 6)).toBeCloseTo(-1.5);
  });

  it('spreads a pallet over its books, and says nothing for a job without books', () => {
    expect(costFromPallet(300, 120)).toBe(2.5);
    expect(costFromPallet(300, 0)).toBeNull();
  });
});
