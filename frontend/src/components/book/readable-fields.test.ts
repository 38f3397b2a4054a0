import { MARKETPLACES } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { readableFields, readableValue } from './readable-fields';

const EVALUATION = {
  status: 'success',
  meta: { title: 'Art Forms in Nature', asin: '0486229874', image_url: 'https://images.example.test/0486229874.jpg', weight: 612.35 },
  winner: { amazonLogData: { fba_decision: true, mp_decision: 'accept', mm_val: 6.12 } },
};

describe('readableFields', () => {
  it("flattens PalletIQ's evaluation into lines labelled as its field table labels them", () => {
    const lines = readableFields(EVALUATION, MARKETPLACES.pallet_iq.fields);
    expect(lines.map((l) => [l.label, l.value])).toEqual([
      ['Status', 'success'],
      ['Title', 'Art Forms in Nature'],
      ['ASIN', '0486229874'],
      ['Image URL', 'https://images.example.test/0486229874.jpg'],
      ['Weight', 612.35],
      ['FBA Decision', true],
      ['MP Decision', 'accept'],
      ['PalletIQ Profit', 6.12],
    ]);
    expect(lines.at(-1)).toMatchObject({ path: 'winner.amazonLogData.mm_val', key: 'mm_val' });
  });

  it('makes a key no field names readable, and leaves out empty values', () => {
    expect(readableFields({ extraInfo: { someFlag: 'x', empty: null, blank: '' } })).toEqual([
      { path: 'extraInfo.someFlag', label: 'Some Flag', key: 'someFlag', value: 'x' },
    ]);
  });
});

describe('readableValue', () => {
  it('says yes or no for a boolean and lists an array', () => {
    expect(readableValue(true)).toBe('Yes');
    expect(readableValue(false)).toBe('No');
    expect(readableValue(['a', 2])).toBe('a, 2');
    expect(readableValue(612.35)).toBe('612.35');
  });
});
