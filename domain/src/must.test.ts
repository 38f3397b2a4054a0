import { describe, expect, it } from 'vitest';
import { must } from './must.ts';

describe('must', () => {
  it('returns a present value, falsy ones included', () => {
    expect(must('x', 'x')).toBe('x');
    expect(must(0, 'zero')).toBe(0);
    expect(must('', 'empty')).toBe('');
    expect(must(false, 'false')).toBe(false);
  });

  it('throws naming the invariant for null and undefined', () => {
    expect(() => must(undefined, 'the root element')).toThrow('Invariant broken: the root element');
    expect(() => must(null, 'a row')).toThrow('Invariant broken: a row');
  });
});
