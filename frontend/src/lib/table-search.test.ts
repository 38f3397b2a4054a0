import { JOB_FIELDS } from '@app/domain/jobs';
import { describe, expect, it, vi } from 'vitest';
import { validateTableSearch } from './table-search';

const validate = validateTableSearch(JOB_FIELDS);

describe('validated search params of a table page', () => {
  it('keeps valid page, filters and sort', () => {
    const filters = '[{"field":"name","operator":"contains","value":"x"}]';
    expect(validate({ page: 2, filters, sort_by: 'id', sort_direction: 'desc' })).toEqual({
      page: 2,
      filters,
      sort_by: 'id',
      sort_direction: 'desc',
    });
  });

  it('page 1 when invalid; garbage filters logged and dropped', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(validate({ page: 'abc', filters: '%%%' })).toEqual({ page: 1 });
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('re-encodes filters the router already parsed', () => {
    expect(validate({ filters: [{ field: 'id', operator: 'gt', value: '3' }] }).filters).toBe(
      '[{"field":"id","operator":"gt","value":"3"}]',
    );
  });
});
