import { describe, expect, it } from 'vitest';
import { budgetText, formatWait, queuedText, waitsText } from './system-status';

describe('status page figures', () => {
  it('reads waits as a person says them', () => {
    expect(formatWait(0)).toBe('0 s');
    expect(formatWait(44.6)).toBe('45 s');
    expect(formatWait(185)).toBe('3 min 5 s');
    expect(formatWait(120)).toBe('2 min');
    expect(formatWait(2 * 3600 + 4 * 60 + 9)).toBe('2 h 4 min');
    expect(formatWait(3 * 86_400 + 3600)).toBe('3 d 1 h');
    expect(formatWait(-3)).toBe('0 s');
  });

  it('marks a queue counted up to its bound', () => {
    expect(queuedText({ queued: 1250, queued_capped: false })).toBe('1,250');
    expect(queuedText({ queued: 100_000, queued_capped: true })).toBe('100,000+');
  });

  it('gives rate-limit waits as a count and their average', () => {
    expect(waitsText({ count: 0, seconds: 0 })).toBe('none yet');
    expect(waitsText({ count: 1, seconds: 0.25 })).toBe('1 wait, 0.3 s on average');
    expect(waitsText({ count: 4, seconds: 60 })).toBe('4 waits, 15 s on average');
  });

  it('says what is left of a daily budget, and when a spent one resumes', () => {
    expect(budgetText({ budget: 5000, used: 120, left: 4880, resumes_at: null }, String)).toBe('4,880 of 5,000 calls left today');
    expect(budgetText({ budget: 5000, used: 5000, left: 0, resumes_at: 'T' }, (iso) => `at ${iso}`)).toBe(
      '0 of 5,000 calls left today; spent, resumes at T',
    );
  });
});
