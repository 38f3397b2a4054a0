import { describe, expect, it } from 'vitest';
import { cheapest, defineMapping, toNumber, toText, withScheme } from './field-mapping.ts';
import { parseRetryAfter } from './http.ts';

describe('field mapping', () => {
  it('must cover the data columns exactly once', () => {
    expect(() => defineMapping('pallet_iq', [{ field: 'winner_amazon_log_data_mm_val', wire: 'x', evidence: 'UNKNOWN' }])).toThrow(
      /unmapped columns \[winner_amazon_log_data_mp_decision,/,
    );
    expect(() =>
      defineMapping('alibris', [
        ...['title', 'author', 'sellername', 'condition', 'price', 'sellercountry'].map((field) => ({
          field,
          wire: field,
          evidence: 'CERTAIN' as const,
        })),
        { field: 'colour', wire: 'colour', evidence: 'UNKNOWN' },
      ]),
    ).toThrow(/unknown or repeated \[colour\]/);
  });

  it('converts by the column type and walks nested keys', () => {
    const m = defineMapping('alibris', [
      { field: 'title', wire: 'a.b', evidence: 'UNKNOWN' },
      { field: 'price', wire: 'a.c', evidence: 'UNKNOWN' },
      ...['author', 'sellername', 'condition', 'sellercountry'].map((field) => ({ field, wire: field, evidence: 'CERTAIN' as const })),
    ]);
    const empty = { author: null, sellername: null, condition: null, sellercountry: null };
    expect(m.apply({ a: { b: 7, c: ' 1.50 ' } })).toEqual({ title: '7', price: 1.5, ...empty });
    expect(m.apply({ a: 'flat' })).toEqual({ title: null, price: null, ...empty });
  });

  it('reads numbers and text as marketplaces send them', () => {
    expect([toNumber('12.0'), toNumber(3), toNumber(''), toNumber('n/a'), toNumber(null)]).toEqual([12, 3, null, null, null]);
    expect([toText(''), toText(false), toText({ a: 1 }), toText(undefined)]).toEqual([null, 'false', '{"a":1}', null]);
    expect(withScheme('www.abebooks.com/x')).toBe('https://www.abebooks.com/x');
    expect(withScheme('http://a.b/c')).toBe('http://a.b/c');
  });

  it('cheapest prefers a priced offer over one without a price', () => {
    expect(cheapest([{ p: null }, { p: 3 }, { p: 2 }], (o) => o.p)).toEqual({ p: 2 });
  });

  it('Retry-After takes seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
