import { JOB_FIELDS } from '@app/domain/jobs';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { describe, expect, it, vi } from 'vitest';
import {
  completeFilters,
  decodeFilters,
  encodeFilters,
  filterableFields,
  jobIdFilter,
  newFilter,
  operatorOptions,
  withField,
  type Filter,
} from './filters';

const abe = MARKETPLACES.abe_books.fields;
const byJob: Filter[] = [{ field: 'isbn_lookup_job_id', operator: 'equals', value: '7' }];

describe('filters search param (encoded JSON in the URL)', () => {
  it('round-trips through encode and decode', () => {
    const filters: Filter[] = [...byJob, { field: 'isbn', operator: 'contains', value: '978"&?=' }];
    const text = encodeFilters(filters)!;
    expect(JSON.parse(text)).toEqual(filters);
    expect(decodeFilters(text, abe)).toEqual(filters);
    // the router may already have parsed unquoted JSON in the URL
    expect(decodeFilters(JSON.parse(text), abe)).toEqual(filters);
  });

  it('leaves the param out when there are no filters', () => {
    expect(encodeFilters([])).toBeUndefined();
    expect(decodeFilters(undefined, abe)).toEqual([]);
    expect(decodeFilters('', abe)).toEqual([]);
  });

  it.each([
    ['not JSON', '[{"field":'],
    ['not a list', '{"field":"isbn","operator":"equals","value":"1"}'],
    ['an unknown field', '[{"field":"nope","operator":"equals","value":"1"}]'],
    ['an operator the field does not offer', '[{"field":"isbn","operator":"gt","value":"1"}]'],
    ['a non-string value', '[{"field":"isbn","operator":"equals","value":1}]'],
    ['a number', 42],
  ])('logs %s and resets to no filters', (_what, raw) => {
    const log = vi.fn();
    expect(decodeFilters(raw, abe, log)).toEqual([]);
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('drops unknown keys', () => {
    expect(decodeFilters('[{"field":"isbn","operator":"equals","value":"1","x":1}]', abe)).toEqual([
      { field: 'isbn', operator: 'equals', value: '1' },
    ]);
  });

  it('the View link filters on the job id', () => {
    expect(jobIdFilter(12)).toEqual({ field: 'isbn_lookup_job_id', operator: 'equals', value: '12' });
    expect(decodeFilters(encodeFilters([jobIdFilter(12)]), MARKETPLACES.pallet_iq.fields)).toEqual([jobIdFilter(12)]);
  });
});

describe('filter builder rules', () => {
  it('a new filter starts on the first filterable field, equals, empty', () => {
    expect(newFilter(JOB_FIELDS)).toEqual({ field: 'id', operator: 'equals', value: '' });
    expect(newFilter(MARKETPLACES.alibris.fields)).toEqual({ field: 'isbn', operator: 'equals', value: '' });
  });

  it('text fields offer equals and contains; number and date fields five comparisons', () => {
    const text = abe.find((f) => f.name === 'isbn');
    const num = abe.find((f) => f.name === 'listing_price');
    const date = abe.find((f) => f.name === 'created_at');
    expect(operatorOptions(text).map((o) => o.label)).toEqual(['equals', 'contains']);
    const numeric = ['equals', 'greater than', 'less than', 'greater or equal', 'less or equal'];
    expect(operatorOptions(num).map((o) => o.label)).toEqual(numeric);
    expect(operatorOptions(date).map((o) => o.label)).toEqual(numeric);
    expect(operatorOptions(num).map((o) => o.value)).toEqual(['equals', 'gt', 'lt', 'gte', 'lte']);
  });

  it('changing the field keeps the operator only when the new field offers it', () => {
    expect(withField({ field: 'isbn', operator: 'contains', value: 'x' }, 'listing_price', abe)).toEqual({
      field: 'listing_price',
      operator: 'equals',
      value: 'x',
    });
    expect(withField({ field: 'listing_price', operator: 'gt', value: '3' }, 'quantity', abe)).toEqual({
      field: 'quantity',
      operator: 'gt',
      value: '3',
    });
  });

  it('keeps a value on a known-values field only when it is one of them', () => {
    expect(withField({ field: 'isbn', operator: 'contains', value: 'x' }, 'lookup_status', abe).value).toBe('');
    expect(withField({ field: 'isbn', operator: 'equals', value: 'failed' }, 'lookup_status', abe).value).toBe('failed');
  });

  it('offers only filterable fields and sends only rows with a value', () => {
    expect(filterableFields(abe).every((f) => f.filterable)).toBe(true);
    expect(completeFilters([{ field: 'isbn', operator: 'equals', value: '  ' }, ...byJob])).toEqual(byJob);
  });
});
