import { describe, expect, it } from 'vitest';
import { WEDGE_IDLE, WEDGE_LATE_KEY_MS, WEDGE_MAX_GAP_MS, WEDGE_MEAN_GAP_MS, wedgeKey, type WedgeState } from './keyboard-wedge';

/** Feed keys typed `gap` ms apart (Enter written as \n); the codes that came out and whether each Enter was swallowed. */
function type(keys: string[], gaps: number | number[]) {
  let state: WedgeState = WEDGE_IDLE;
  let at = 1000;
  const codes: string[] = [];
  const swallowed: boolean[] = [];
  keys.forEach((key, i) => {
    at += Array.isArray(gaps) ? (gaps[i] ?? 0) : gaps;
    const r = wedgeKey(state, key, at);
    state = r.state;
    if (r.code !== undefined) codes.push(r.code);
    if (key === 'Enter') swallowed.push(r.swallow === true);
  });
  return { codes, swallowed };
}
const keysOf = (text: string) => [...text].map((c) => (c === '\n' ? 'Enter' : c));

describe('wedgeKey', () => {
  it('reads a scanner burst ending in Enter, and swallows that Enter', () => {
    expect(type(keysOf('9780131457577\n'), 10)).toEqual({ codes: ['9780131457577'], swallowed: [true] });
  });

  it('reads a burst whose keys are the mean gap apart, and not one a millisecond slower', () => {
    expect(type(keysOf('9780131457577\n'), WEDGE_MEAN_GAP_MS).codes).toEqual(['9780131457577']);
    expect(type(keysOf('9780131457577\n'), WEDGE_MEAN_GAP_MS + 1).codes).toEqual([]);
  });

  it('keeps a burst whole through one late key (a Bluetooth packet, a busy phone), up to the late-key limit', () => {
    const gaps = (late: number) => [0, 15, 15, 15, 15, 15, late, 15, 15, 15, 15, 15, 15, 15];
    expect(type(keysOf('9780131457577\n'), gaps(WEDGE_MAX_GAP_MS)).codes).toEqual(['9780131457577']);
    expect(type(keysOf('9780131457577\n'), gaps(WEDGE_MAX_GAP_MS + 1)).codes).toEqual(['9780131457577']);
    // The late gap is not counted in the mean: a short code stays a scan however late its one key.
    expect(type(keysOf('036000291452\n'), [0, 10, 10, WEDGE_LATE_KEY_MS, 10, 10, 10, 10, 10, 10, 10, 10, 10]).codes).toEqual([
      '036000291452',
    ]);
    // Longer: the keys before it are dropped, and what follows is too short to be a scan.
    expect(type(keysOf('9780131457577\n'), gaps(WEDGE_LATE_KEY_MS + 1)).codes).toEqual([]);
  });

  it('forgives one late key, not two: a second splits the burst', () => {
    const gaps = [0, 10, 10, 300, 10, 10, 10, 10, 300, 10, 10, 10, 10, 10];
    expect(type(keysOf('9780131457577\n'), gaps).codes).toEqual([]);
    // What follows the second late key is read alone when it is a code of its own.
    expect(type(keysOf('97801' + '9780306406157\n'), [0, 10, 10, 300, 10, 300, ...Array(13).fill(10)]).codes).toEqual(['9780306406157']);
  });

  it('does not join a stray key to a scan that follows it', () => {
    // One key, then a scan within the late-key limit: the scan alone is read.
    expect(type(keysOf('x9780131457577\n'), [0, 200, ...Array(13).fill(10)]).codes).toEqual(['9780131457577']);
  });

  it('refuses a burst with quick gaps whose keys are too slow on average', () => {
    // Every gap under the longest, but 90 ms on average: a quick person, not a scanner.
    expect(type(keysOf('9780131457577\n'), 90).codes).toEqual([]);
  });

  it('ignores a person typing, and leaves their Enter alone', () => {
    expect(type(keysOf('9780131457577\n'), 120)).toEqual({ codes: [], swallowed: [false] });
  });

  it('starts again after a pause: slow keys before a burst are not part of it', () => {
    const gaps = [0, 300, 300, ...Array(14).fill(8)];
    expect(type(keysOf('ab9780131457577\n'), gaps).codes).toEqual(['9780131457577']);
  });

  it('needs at least 8 characters: two quick keys and Enter are not a scan', () => {
    expect(type(keysOf('12\n'), 5).codes).toEqual([]);
    expect(type(keysOf('1234567\n'), 5).codes).toEqual([]);
    expect(type(keysOf('12345678\n'), 5).codes).toEqual(['12345678']);
  });

  it('reads two scans in a row', () => {
    expect(type(keysOf('9780131457577\n9780306406157\n'), 10).codes).toEqual(['9780131457577', '9780306406157']);
  });

  it('skips Shift inside a burst and breaks it on any other key', () => {
    expect(type(['A', 'Shift', ...keysOf('BC12345\n')], 5).codes).toEqual(['ABC12345']);
    expect(type(['1', '2', '3', '4', 'Backspace', ...keysOf('5678\n')], 5).codes).toEqual([]);
  });

  it('does not take an Enter long after a burst', () => {
    expect(type(keysOf('9780131457577\n'), [...Array(13).fill(10), 500]).codes).toEqual([]);
  });
});
