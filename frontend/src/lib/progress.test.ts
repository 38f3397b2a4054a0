import { byMarketplace } from '@app/domain/marketplaces';
import { describe, expect, it } from 'vitest';
import { hasUnfinishedLookups, sourceCell, timeLeft } from './progress';

const p = (processed: number, total: number, enabled = true) => ({ enabled, processed_isbns: processed, total_isbns: total });

describe('jobs table source cell', () => {
  it.each([
    [10, 10, 100, 'green', 0],
    [8, 10, 80, 'blue', 2],
    [3, 4, 75, 'blue', 1],
    [1, 2, 50, 'yellow', 1],
    [1, 3, 33, 'orange', 2],
    [1, 4, 25, 'orange', 3],
    [1, 5, 20, 'red', 4],
    [0, 10, 0, 'red', 10],
    [2, 3, 67, 'yellow', 1],
  ])('%i of %i → %i%% %s, %i left', (processed, total, percent, color, left) => {
    expect(sourceCell(p(processed, total))).toEqual({ percent, color, left, label: `${left} left` });
  });

  it('N/A (null) when the source is disabled', () => {
    expect(sourceCell(p(0, 0, false))).toBeNull();
  });

  it('a job with nothing to look up is complete', () => {
    expect(sourceCell(p(0, 0))).toMatchObject({ percent: 100, color: 'green', label: '0 left' });
  });
});

describe('polling while lookups are unfinished', () => {
  const job = (abe: ReturnType<typeof p>, others = p(0, 0, false)) => ({ ...byMarketplace(() => others), abe_books: abe });
  it('polls while an enabled source is behind', () => {
    expect(hasUnfinishedLookups([job(p(10, 10)), job(p(3, 10))])).toBe(true);
  });
  it('stops when every enabled source is done', () => {
    expect(hasUnfinishedLookups([job(p(10, 10)), job(p(5, 5), p(2, 2))])).toBe(false);
    expect(hasUnfinishedLookups([])).toBe(false);
    expect(hasUnfinishedLookups(undefined)).toBe(false);
  });
});

describe('time left on a marketplace run', () => {
  const run = (total: number, processed: number, throughput_per_minute: number | null, finished_at: string | null = null) => ({
    total,
    processed,
    throughput_per_minute,
    finished_at,
  });
  it('is what is left at the pace kept so far, rounded up to a minute', () => {
    expect(timeLeft(run(1000, 400, 60))).toBe('about 10 min');
    expect(timeLeft(run(1000, 999, 600))).toBe('about 1 min');
    expect(timeLeft(run(150_000, 0, 600))).toBe('about 4.2 h');
  });
  it('says nothing before a pace is known or once nothing is left', () => {
    expect(timeLeft(run(100, 0, null))).toBeNull();
    expect(timeLeft(run(100, 0, 0))).toBeNull();
    expect(timeLeft(run(100, 100, 30))).toBeNull();
    expect(timeLeft(run(100, 50, 30, '2026-11-27T10:00:00Z'))).toBeNull();
  });
});
