import { JOB_FIELDS } from '@app/domain/jobs';
import { describe, expect, it } from 'vitest';
import { ariaSort, nextSort, parseSort } from './sort';

describe('header click sorting', () => {
  it('cycles ascending → descending → none', () => {
    const asc = nextSort({}, 'name');
    expect(asc).toEqual({ sort_by: 'name', sort_direction: 'asc' });
    const desc = nextSort(asc, 'name');
    expect(desc).toEqual({ sort_by: 'name', sort_direction: 'desc' });
    expect(nextSort(desc, 'name')).toEqual({});
  });

  it('a different column starts ascending', () => {
    expect(nextSort({ sort_by: 'name', sort_direction: 'desc' }, 'id')).toEqual({ sort_by: 'id', sort_direction: 'asc' });
  });

  it('aria-sort follows the state', () => {
    expect(ariaSort({ sort_by: 'id', sort_direction: 'desc' }, 'id')).toBe('descending');
    expect(ariaSort({ sort_by: 'id', sort_direction: 'asc' }, 'id')).toBe('ascending');
    expect(ariaSort({ sort_by: 'id', sort_direction: 'asc' }, 'name')).toBe('none');
  });
});

describe('sort search params', () => {
  it('keeps a sortable field and a valid direction', () => {
    expect(parseSort({ sort_by: 'name', sort_direction: 'desc' }, JOB_FIELDS)).toEqual({ sort_by: 'name', sort_direction: 'desc' });
    expect(parseSort({ sort_by: 'name', sort_direction: 'sideways' }, JOB_FIELDS)).toEqual({ sort_by: 'name', sort_direction: 'asc' });
  });
  it('drops unknown fields (the default sort applies)', () => {
    expect(parseSort({ sort_by: 'password', sort_direction: 'asc' }, JOB_FIELDS)).toEqual({});
    expect(parseSort({}, JOB_FIELDS)).toEqual({});
  });
});
