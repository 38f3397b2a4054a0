import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';

describe('formatMoney (issue 10: two decimals and the currency)', () => {
  it.each([
    [12.5, 'USD', '$12.50'],
    ['7', 'USD', '$7.00'],
    [1234.567, 'GBP', '£1,234.57'],
    [3, 'EUR', '€3.00'],
  ])('%j %s → %s', (value, currency, text) => expect(formatMoney(value, currency)).toBe(text));

  it('leaves what is not a number as it came', () => expect(formatMoney('n/a', 'USD')).toBe('n/a'));
});
