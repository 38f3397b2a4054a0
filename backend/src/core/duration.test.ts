import { describe, expect, it } from 'vitest';
import { envDuration, parseDuration } from './duration.ts';

describe('parseDuration', () => {
  it.each([
    ['24h', 86_400_000],
    ['90m', 5_400_000],
    ['30s', 30_000],
    ['1d', 86_400_000],
    ['1.5h', 5_400_000],
    ['500ms', 500],
    [' 2 h ', 7_200_000],
    ['0', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '24', 'h', '-1h', '1w', '1h30m', 'soon'])('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it('reports a wrong setting as a validation problem', () => {
    expect(envDuration.safeParse('1 week').success).toBe(false);
    expect(envDuration.parse('12h')).toBe(43_200_000);
  });
});
