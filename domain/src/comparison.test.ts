import { describe, expect, it } from 'vitest';
import { COMPARISON_CSV_FIELDS, COMPARISON_FIELDS, DECISION_SOURCES, PRICE_SOURCES, comparisonFieldSource } from './comparison.ts';
import { MARKETPLACES } from './marketplaces.ts';

const fieldOf = (id: keyof typeof MARKETPLACES, name: string) => MARKETPLACES[id].fields.find((f) => f.name === name);

describe('comparison field table', () => {
  it('reads prices, shipping and currencies from columns the marketplaces have, of the right type', () => {
    for (const s of PRICE_SOURCES) {
      for (const p of [...s.price, ...(s.shipping ? [s.shipping] : [])])
        expect(fieldOf(s.marketplace, p)?.type, `${s.marketplace}.${p}`).toBe('number');
      if (s.currency) expect(fieldOf(s.marketplace, s.currency)?.type).toBe('text');
    }
    expect(DECISION_SOURCES.map((d) => d.marketplace)).toEqual(['pallet_iq']);
    for (const d of DECISION_SOURCES) {
      expect(fieldOf(d.marketplace, d.decision)?.type).toBe('text');
      expect(fieldOf(d.marketplace, d.value)?.type).toBe('number');
    }
  });

  it('has unique names, an id to break ties, and exports all but the id', () => {
    const names = COMPARISON_FIELDS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(COMPARISON_FIELDS.find((f) => f.name === 'id')).toMatchObject({ sortable: true, filterable: false, column: false });
    expect(COMPARISON_CSV_FIELDS.map((f) => f.name)).toEqual(names.filter((n) => n !== 'id'));
  });

  it('says which marketplace a column belongs to', () => {
    expect(comparisonFieldSource('biblio_currency')).toBe('biblio');
    expect(comparisonFieldSource('pallet_iq_value')).toBe('pallet_iq');
    expect(comparisonFieldSource('best_price')).toBeUndefined();
  });
});
