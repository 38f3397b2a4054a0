import { describe, expect, it } from 'vitest';
import { doublingDelayMs } from './backoff.ts';

describe('doublingDelayMs', () => {
  it('starts at the base, doubles each step and stops at the cap', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((s) => doublingDelayMs(s, 1000, 30_000))).toEqual([1000, 1000, 2000, 4000, 8000, 16000, 30_000]);
  });
});
