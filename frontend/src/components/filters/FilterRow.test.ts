import { describe, expect, it } from 'vitest';
import { valueOptions } from './FilterRow';

describe('valueOptions', () => {
  it('offers the known values after a prompt that cannot be chosen', () => {
    expect(valueOptions(['accept', 'reject'], '')).toEqual([
      { value: '', label: 'Choose a value', disabled: true },
      { value: 'accept', label: 'accept' },
      { value: 'reject', label: 'reject' },
    ]);
  });

  it('keeps a value saved before the list existed as one of the choices', () => {
    expect(valueOptions(['accept', 'reject'], 'acc').map((o) => o.value)).toEqual(['', 'accept', 'reject', 'acc']);
    expect(valueOptions(['accept', 'reject'], 'reject').map((o) => o.value)).toEqual(['', 'accept', 'reject']);
  });
});
