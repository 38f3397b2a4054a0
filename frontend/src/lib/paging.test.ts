import { PAGE_SIZE } from '@app/domain/jobs';
import { describe, expect, it } from 'vitest';
import { pageRangeText, pagingState, parsePage, skipFor, validatePageSearch } from './paging';

describe('parsePage (default 1 when invalid)', () => {
  it.each([
    [3, 3],
    ['2', 2],
    [1, 1],
  ])('%j → %i', (input, page) => expect(parsePage(input)).toBe(page));

  it.each([undefined, null, 0, -1, 1.5, 'abc', '', 'NaN', Infinity, {}, [2], true])('%j → 1', (input) => expect(parsePage(input)).toBe(1));

  it('validatePageSearch keeps only the page', () => {
    expect(validatePageSearch({ page: 'x', other: 1 })).toEqual({ page: 1 });
    expect(validatePageSearch({})).toEqual({ page: 1 });
  });
});

describe('skipFor (skip = (page-1) × size)', () => {
  it('pages of 5 and 10', () => {
    expect(skipFor(1, PAGE_SIZE.items)).toBe(0);
    expect(skipFor(3, PAGE_SIZE.users)).toBe(10);
    expect(skipFor(2, PAGE_SIZE.jobs)).toBe(10);
  });
});

describe('pagingState', () => {
  it('Next only when the page is full and not placeholder data', () => {
    expect(pagingState({ page: 1, pageSize: 5, rowsOnPage: 5, isPlaceholderData: false }).hasNextPage).toBe(true);
    expect(pagingState({ page: 1, pageSize: 5, rowsOnPage: 4, isPlaceholderData: false }).hasNextPage).toBe(false);
    expect(pagingState({ page: 1, pageSize: 5, rowsOnPage: 5, isPlaceholderData: true }).hasNextPage).toBe(false);
    expect(pagingState({ page: 1, pageSize: 5, rowsOnPage: undefined, isPlaceholderData: false }).hasNextPage).toBe(false);
  });
  it('Previous disabled on page 1 only', () => {
    expect(pagingState({ page: 1, pageSize: 5, rowsOnPage: 5, isPlaceholderData: false }).hasPreviousPage).toBe(false);
    expect(pagingState({ page: 2, pageSize: 5, rowsOnPage: 0, isPlaceholderData: true }).hasPreviousPage).toBe(true);
  });
});

describe('pageRangeText (issue 10: paging shows the total)', () => {
  it('exact totals, grouped', () => {
    expect(pageRangeText({ page: 1, pageSize: 10, rowsOnPage: 10, count: 5432 })).toBe('1–10 of 5,432');
    expect(pageRangeText({ page: 544, pageSize: 10, rowsOnPage: 2, count: 5432, countExact: true })).toBe('5,431–5,432 of 5,432');
  });
  it('estimated totals read "more than"', () => {
    expect(pageRangeText({ page: 2, pageSize: 5, rowsOnPage: 5, count: 10000, countExact: false })).toBe('6–10 of more than 10,000');
  });
  it('an empty list', () => {
    expect(pageRangeText({ page: 1, pageSize: 5, rowsOnPage: 0, count: 0 })).toBe('0 of 0');
  });
});
