import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttlePerKey } from './useLiveJobEvents';

describe('throttlePerKey', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, then at most once per interval per key, with one trailing run for the events in between', () => {
    const runs: number[] = [];
    const t = throttlePerKey(2000, (key: number) => runs.push(key));
    t.call(1);
    t.call(1);
    t.call(1);
    t.call(2);
    expect(runs).toEqual([1, 2]);
    vi.advanceTimersByTime(1999);
    expect(runs).toEqual([1, 2]);
    vi.advanceTimersByTime(1);
    // Key 1 had events while waiting: one trailing run; key 2 had none.
    expect(runs).toEqual([1, 2, 1]);
    vi.advanceTimersByTime(2000);
    expect(runs).toEqual([1, 2, 1]);
    t.call(2);
    expect(runs).toEqual([1, 2, 1, 2]);
  });

  it('cancel drops the trailing runs', () => {
    const runs: string[] = [];
    const t = throttlePerKey(1000, (key: string) => runs.push(key));
    t.call('a');
    t.call('a');
    t.cancel();
    vi.advanceTimersByTime(5000);
    expect(runs).toEqual(['a']);
  });
});
