import { describe, expect, it } from 'vitest';
import { parseAmount, savedCostText } from './JobCost';

describe('the cost box', () => {
  it('reads money as dealers type it', () => {
    expect(parseAmount('$33')).toBe(33);
    expect(parseAmount(' $ 3.50 ')).toBe(3.5);
    expect(parseAmount('1,250')).toBe(1250);
    expect(parseAmount('1,250.75')).toBe(1250.75);
    expect(parseAmount('0')).toBe(0);
  });

  it('refuses what is not a cost, saying why', () => {
    expect(parseAmount('')).toBe('Enter an amount');
    expect(parseAmount('-5')).toBe('A cost cannot be negative');
    expect(parseAmount('$-5')).toBe('A cost cannot be negative');
    expect(parseAmount('12abc')).toMatch(/^Enter a number/);
    expect(parseAmount('1e3')).toMatch(/^Enter a number/);
    expect(parseAmount('1,2')).toMatch(/^Enter a number/);
  });
});

describe('savedCostText', () => {
  it('shows a cost from a pallet as its division, as saved', () => {
    expect(savedCostText({ cost_per_book: 3, pallet_cost: 33 }, 11)).toBe(
      'Pallet $33.00 ÷ 11 books = $3.00 per book, subtracted from every Estimated Profit.',
    );
    expect(savedCostText({ cost_per_book: 2.5, pallet_cost: null }, 11)).toBe('$2.50 per book, subtracted from every Estimated Profit.');
    expect(savedCostText({ cost_per_book: null, pallet_cost: null }, 11)).toMatch(/^Not set/);
  });
});
