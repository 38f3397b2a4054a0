import { byMarketplace } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import type { FeeSchedule } from '../client/types.gen';
import { jobBooks, toFeeBody, toFeeForm } from './fees';

const schedule = { percent: 8, min_commission: 0.5, max_commission: null, fixed: 0, shipping_credit: 1.25 } as FeeSchedule;

describe('fee form', () => {
  it('shows a missing bound as an empty field and sends it back as null, the rest as numbers', () => {
    const form = toFeeForm(schedule);
    expect(form).toEqual({ percent: '8', min_commission: '0.5', max_commission: '', fixed: '0', shipping_credit: '1.25' });
    expect(toFeeBody({ ...form, percent: '12.5', min_commission: ' ' })).toEqual({
      percent: 12.5,
      min_commission: null,
      max_commission: null,
      fixed: 0,
      shipping_credit: 1.25,
    });
  });
});

describe('jobBooks', () => {
  const source = (total_isbns: number, enabled = true) => ({ enabled, total_isbns, processed_isbns: 0 });
  it('counts the books of the marketplace with the most lookups, 0 for none', () => {
    expect(jobBooks({ ...byMarketplace(() => source(0, false)), abe_books: source(10), biblio: source(10) })).toBe(10);
    expect(jobBooks(byMarketplace(() => source(0)))).toBe(0);
  });
});
