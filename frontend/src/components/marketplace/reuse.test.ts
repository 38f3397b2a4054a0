import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/format';
import { ageText, reuseHint } from './reuse';

describe('reuseHint', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');

  it('says a reused lookup was reused and how old its answer is, the exact time on hover', () => {
    const at = '2026-11-23T07:00:00Z';
    expect(reuseHint({ reused: true, answered_at: at }, now)).toEqual({
      text: 'reused · 3 h ago',
      title: `Answered ${formatDateTime(at)}; reused instead of a new request`,
    });
  });

  it('shows nothing for a lookup asked anew', () => {
    expect(reuseHint({ reused: false, answered_at: '2026-11-23T07:00:00Z' }, now)).toBeNull();
    expect(reuseHint({}, now)).toBeNull();
  });

  it('still says "reused" when the answer time is missing', () => {
    expect(reuseHint({ reused: true, answered_at: null }, now)?.text).toBe('reused');
  });
});

describe('ageText', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [12 * 60_000, '12 min ago'],
    [3 * 3_600_000 + 5 * 60_000, '3 h ago'],
    [47 * 3_600_000, '47 h ago'],
    [3 * 86_400_000, '3 d ago'],
    [-5_000, 'just now'],
  ])('%d ms reads %s', (ms, text) => {
    expect(ageText(ms)).toBe(text);
  });
});
