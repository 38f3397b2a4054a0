import { describe, expect, it } from 'vitest';
import { COMPARISON_FIELDS } from './comparison.ts';
import { knownValues } from './known-values.ts';
import { PALLET_IQ_DECISIONS } from './marketplaces.ts';
import { LOOKUP_STATUSES } from './status.ts';

describe('knownValues', () => {
  it('lists the lookup statuses for every status field, the marketplaces as Best Source stores them, and PalletIQ’s decisions', () => {
    expect(knownValues('lookup_status')).toEqual(LOOKUP_STATUSES);
    expect(knownValues('ebay_status')).toEqual(LOOKUP_STATUSES);
    expect(knownValues('pallet_iq_status')).toEqual(LOOKUP_STATUSES);
    expect(knownValues('best_source')).toEqual(['Abe Books', 'Biblio', 'Alibris', 'Amazon', 'eBay']);
    expect(knownValues('pallet_iq_decision')).toEqual(PALLET_IQ_DECISIONS);
    expect(knownValues('velocity_source')).toEqual(['keepa', 'amazon']);
    expect(knownValues('winner_amazon_log_data_mp_decision')).toEqual(PALLET_IQ_DECISIONS);
    expect(knownValues('title')).toBeUndefined();
  });

  it('names only text fields of the comparison, and every status field it has', () => {
    const known = COMPARISON_FIELDS.filter((f) => knownValues(f.name));
    expect(known.every((f) => f.type === 'text')).toBe(true);
    expect(known.filter((f) => f.name.endsWith('_status'))).toHaveLength(
      COMPARISON_FIELDS.filter((f) => f.name.endsWith('_status')).length,
    );
  });
});
