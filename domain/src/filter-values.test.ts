import { describe, expect, it } from 'vitest';
import { field } from './fields.ts';
import { filterValueProblem, parseFilterDate, parseFilterNumber } from './filter-values.ts';

describe('filter values', () => {
  it('reads finite numbers only, blank is not zero', () => {
    expect(parseFilterNumber(' 12.5 ')).toBe(12.5);
    expect(parseFilterNumber('-3')).toBe(-3);
    for (const v of ['', ' ', 'abc', 'Infinity', 'NaN', '1e999']) expect(parseFilterNumber(v), v).toBeUndefined();
  });

  it('reads bare days as whole UTC days and timestamps as instants, within years 1 to 9999', () => {
    expect(parseFilterDate('2026-01-02')).toEqual({ start: new Date('2026-01-02T00:00:00Z'), wholeDay: true });
    expect(parseFilterDate('2026-01-02T10:00:00Z')).toEqual({ start: new Date('2026-01-02T10:00:00Z'), wholeDay: false });
    for (const v of ['yesterday', '', '+275760-09-13']) expect(parseFilterDate(v), v).toBeUndefined();
  });

  it('says what a value must be for its field type', () => {
    expect(filterValueProblem(field('n', 'N', 'number'), 'x')).toMatch(/'n' must be a number/);
    expect(filterValueProblem(field('d', 'D', 'date'), 'x')).toMatch(/'d' must be a date/);
    expect(filterValueProblem(field('t', 'T'), '')).toBeUndefined();
    expect(filterValueProblem(field('n', 'N', 'number'), '3')).toBeUndefined();
  });
});
