import { describe, expect, it } from 'vitest';
import { describePriceChange } from './price-change';

describe('describePriceChange (issue 15: change since the previous look)', () => {
  it.each([
    [-5, 'USD', { arrow: '▼', amount: '$5.00', label: 'down $5.00' }],
    [1.2, 'USD', { arrow: '▲', amount: '$1.20', label: 'up $1.20' }],
    [-3.1999999999999993, 'EUR', { arrow: '▼', amount: '€3.20', label: 'down €3.20' }],
    [0, 'USD', { arrow: '', amount: '$0.00', label: 'no change' }],
    [0.004, 'USD', { arrow: '', amount: '$0.00', label: 'no change' }],
  ])('%d %s', (change, currency, text) => expect(describePriceChange(change, currency)).toEqual(text));
});
