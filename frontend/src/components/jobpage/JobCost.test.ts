import { describe, expect, it } from 'vitest';
import { parseAmount } from './JobCost';

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
