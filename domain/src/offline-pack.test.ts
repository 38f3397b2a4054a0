import { describe, expect, it } from 'vitest';
import { compare, decimalOfDouble, parseDecimal, round, toNumber } from './decimal.ts';
import { type FiguresPack, type VerdictPack, figuresAt, mergeFiguresPack, mergeVerdictPack, packIndex } from './offline-pack.ts';

const figures = (isbns: string[], prices: (number | null)[], currencies: (string | null)[]): FiguresPack => {
  const values = [...new Set(currencies.filter((c): c is string => c !== null))];
  return {
    kind: 'figures',
    format: 2,
    version: '1',
    delta: false,
    days: 30,
    built_at: '2026-11-27T00:00:00Z',
    isbns,
    numbers: { abe_books_price: prices },
    texts: { biblio_currency: { values, codes: currencies.map((c) => (c === null ? 0 : values.indexOf(c) + 1)) } },
    rule_sets: [],
    fees: {},
  };
};

describe('offline pack', () => {
  it('finds an ISBN by binary search', () => {
    const isbns = ['9780000000001', '9780000000002', '9780000000003'];
    expect(isbns.map((i) => packIndex(isbns, i))).toEqual([0, 1, 2]);
    expect(packIndex(isbns, '9780000000000')).toBe(-1);
    expect(packIndex([], '9780000000000')).toBe(-1);
  });

  it('reads cents as dollars, codes as texts, and a marketplace without an answer as still to ask', () => {
    const p = figures(['9780000000001'], [1250], ['EUR']);
    expect(figuresAt(p, 0)).toMatchObject({ isbn: '9780000000001', abe_books_price: 12.5, biblio_currency: 'EUR', ebay_status: 'queued' });
  });

  it('merges a delta in order, the delta winning, its codes re-coded', () => {
    const kept = figures(['9780000000001', '9780000000003'], [100, 300], ['EUR', null]);
    const delta = { ...figures(['9780000000002', '9780000000003'], [200, 333], ['GBP', 'EUR']), delta: true, version: '2' };
    const m = mergeFiguresPack(kept, delta);
    expect(m.delta).toBe(false);
    expect(m.version).toBe('2');
    expect(m.isbns).toEqual(['9780000000001', '9780000000002', '9780000000003']);
    expect(m.numbers.abe_books_price).toEqual([100, 200, 333]);
    expect([0, 1, 2].map((i) => figuresAt(m, i).biblio_currency)).toEqual(['EUR', 'GBP', 'EUR']);
  });

  it('merges a verdict delta, re-coding its outcomes', () => {
    const base = { format: 2, days: 30, built_at: '', rule_set: null, kind: 'verdicts' } as const;
    const kept: VerdictPack = {
      ...base,
      version: '1',
      delta: false,
      isbns: ['1', '3'],
      outcomes: [{ name: 'Buy', color: 'green' }],
      codes: [0, 0],
      unknown: 0,
    };
    const delta: VerdictPack = {
      ...base,
      version: '2',
      delta: true,
      isbns: ['2'],
      outcomes: [
        { name: 'No rule', color: 'gray' },
        { name: 'Buy', color: 'green' },
      ],
      codes: [1],
      unknown: 0,
    };
    const m = mergeVerdictPack(kept, delta);
    expect(m.isbns).toEqual(['1', '2', '3']);
    expect(m.codes.map((c) => m.outcomes[c]?.name)).toEqual(['Buy', 'Buy', 'Buy']);
    expect(m.outcomes[m.unknown ?? -1]?.name).toBe('No rule');
  });
});

describe('decimal', () => {
  it('reads numbers as PostgreSQL numeric does, and rounds half away from zero', () => {
    expect(parseDecimal('1e+21')).toEqual({ units: 10n ** 21n, scale: 0 });
    expect(parseDecimal('1.5e-7')).toEqual({ units: 15n, scale: 8 });
    expect(parseDecimal('abc')).toBeUndefined();
    expect(toNumber(round(decimalOfDouble(12.345), 2))).toBe(12.35);
    expect(toNumber(round(decimalOfDouble(-0.005), 2))).toBe(-0.01);
    expect(compare(decimalOfDouble(0.1 + 0.2), parseDecimal('0.3')!)).toBe(0);
  });
});
