import { describe, expect, it } from 'vitest';
import { PRICE_SOURCES } from './comparison.ts';
import {
  FEE_CERTAINTIES,
  FEE_DEFAULTS,
  FEE_FIELDS,
  FEE_LIMITS,
  SELLING_MARKETPLACES,
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
        expect(d[f], `${id}.${f}`).toBeGreaterThanOrEqual(FEE_LIMITS[f].min);
        expect(d[f], `${id}.${f}`).toBeLessThanOrEqual(FEE_LIMITS[f].max);
      }
    }
    expect(FEE_DEFAULTS.pallet_iq).toBeUndefined();
    expect(() => feeDefault('pallet_iq')).toThrow(/not a selling marketplace/);
  });

  it('states what the research says: AbeBooks 8 % confirmed since 2008-04-28, Biblio 15 % of 2006, Alibris unconfirmed', () => {
    expect(FEE_DEFAULTS.abe_books).toMatchObject({ percent: 8, fixed: 0, shipping_credit: 0, certainty: 'CONFIRMED', as_of: '2008-04-28' });
    expect(FEE_DEFAULTS.biblio).toMatchObject({ percent: 15, certainty: 'HISTORICAL', as_of: '2006-02' });
    expect(FEE_DEFAULTS.alibris).toMatchObject({ percent: 20, certainty: 'UNCERTAIN' });
    expect(FEE_DEFAULTS.alibris?.note).toMatch(/unconfirmed/);
  });
});

describe('estimated profit', () => {
  const abe = { percent: 8, fixed: 0, shipping_credit: 0 };
  it('takes the percentage and the fixed fee off the price, adds the credit and subtracts the cost', () => {
    expect(saleFee(20, abe)).toBeCloseTo(1.6);
    expect(estimatedProfit(20, abe, null)).toBeCloseTo(18.4);
    expect(estimatedProfit(20, { percent: 15, fixed: 1.8, shipping_credit: 3.99 }, 2.5)).toBeCloseTo(20 - 3 - 1.8 + 3.99 - 2.5);
  });

  it('goes negative when the book cost more than the sale leaves', () => {
    expect(estimatedProfit(5, abe, 6)).toBeCloseTo(-1.4);
  });

  it('spreads a pallet over its books, and says nothing for a job without books', () => {
    expect(costFromPallet(300, 120)).toBe(2.5);
    expect(costFromPallet(300, 0)).toBeNull();
  });
});
