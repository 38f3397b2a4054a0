import { describe, expect, it } from 'vitest';
import { progressColor, progressPercent, statusBadge } from './status.ts';
import { MARKETPLACE_LIST, dataFields } from './marketplaces.ts';
import { operatorsFor } from './fields.ts';

describe('lookup status badges', () => {
  it.each([
    ['completed', 'completed', 'green'],
    ['no_offers_available', 'no_offers_available', 'green'],
    ['failed', 'failed', 'red'],
    ['queued', 'queued', 'gray'],
    ['pending', 'pending', 'blue'],
    ['cancelled', 'cancelled', 'orange'],
    ['weird', 'Unavailable', 'gray'],
    ['', 'Unavailable', 'gray'],
    [null, 'Unavailable', 'gray'],
  ])('%s → %s in %s', (status, label, color) => {
    expect(statusBadge(status)).toEqual({ label, color });
  });
});

describe('job progress', () => {
  it('rounds processed/total to a percent', () => {
    expect(progressPercent(1, 3)).toBe(33);
    expect(progressPercent(2, 3)).toBe(67);
    expect(progressPercent(3, 3)).toBe(100);
  });
  it.each([
    [100, 'green'],
    [99, 'blue'],
    [75, 'blue'],
    [74, 'yellow'],
    [50, 'yellow'],
    [49, 'orange'],
    [25, 'orange'],
    [24, 'red'],
    [0, 'red'],
  ])('%i%% is %s', (percent, color) => {
    expect(progressColor(percent)).toBe(color);
  });
});

describe('field tables', () => {
  it('give each marketplace the spec placeholders, unique field names and operators by type', () => {
    expect(MARKETPLACE_LIST.map((m) => m.placeholderRows)).toEqual([15, 13, 4, 4, 10, 10]);
    for (const m of MARKETPLACE_LIST) {
      const names = m.fields.map((f) => f.name);
      expect(new Set(names).size, m.id).toBe(names.length);
      expect(names).toEqual(expect.arrayContaining(['id', 'isbn', 'input_filename', 'isbn_lookup_job_id', 'lookup_status', 'created_at']));
    }
    expect(operatorsFor('text')).toEqual(['equals', 'contains']);
    expect(operatorsFor('number')).toEqual(['equals', 'gt', 'lt', 'gte', 'lte']);
  });
  it('keeps Biblio at about seventy filterable fields including the spec numeric ones', () => {
    const biblio = MARKETPLACE_LIST.find((m) => m.id === 'biblio')!;
    expect(biblio.fields.filter((f) => f.filterable).length).toBeGreaterThanOrEqual(68);
    const numeric = biblio.fields.filter((f) => f.type === 'number').map((f) => f.name);
    expect(numeric).toEqual(
      expect.arrayContaining([
        'price',
        'currency_conversion_rate',
        'ninety_day_fulfillment',
        'ninety_day_count',
        'dealer_discount',
        'numeric_condition',
        'quantity',
        'listing_orig_price',
        'listing_reduced_price',
      ]),
    );
    expect(dataFields(biblio).length).toBeGreaterThan(60);
  });
});
