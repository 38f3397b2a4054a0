import { describe, expect, it } from 'vitest';
import { jsonDepthExceeds } from './json-depth.ts';

describe('jsonDepthExceeds', () => {
  it('counts arrays and objects opened inside each other', () => {
    expect(jsonDepthExceeds('[[[]]]', 3)).toBe(false);
    expect(jsonDepthExceeds('[[[[]]]]', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":{"b":[1]}}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":{"b":[{}]}}', 3)).toBe(true);
    // Siblings do not add up.
    expect(jsonDepthExceeds('[[],[],[[]]]', 3)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthExceeds('["[[[[[[", "{{{{"]', 2)).toBe(false);
    expect(jsonDepthExceeds('["\\"[[[[", "\\\\"]', 2)).toBe(false);
    expect(jsonDepthExceeds('["\\\\", [[[]]]]', 2)).toBe(true);
  });
});
