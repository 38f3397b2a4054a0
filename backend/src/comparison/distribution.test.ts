import { describe, expect, it } from 'vitest';
import { niceWidth } from './distribution.ts';

describe('price bucket width', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect([0.3, 1, 1.2, 2.1, 3, 7, 12, 26, 480].map(niceWidth)).toEqual([0.5, 1, 2, 2.5, 5, 10, 20, 50, 500]);
  });
  it('gives 1 when there is no spread to divide', () => {
    expect([0, -3, Number.NaN].map(niceWidth)).toEqual([1, 1, 1]);
  });
});
