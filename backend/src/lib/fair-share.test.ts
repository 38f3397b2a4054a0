import { describe, expect, it } from 'vitest';
import { FairShare } from './fair-share.ts';

const settled = <T>(p: Promise<T>) => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 10))]);

describe('FairShare', () => {
  it('runs up to maxRunning per key, queues the next in order and refuses past maxWaiting', async () => {
    const share = new FairShare(2, 1);
    const first = await share.enter('a');
    const second = await share.enter('a');
    const third = share.enter('a');
    expect(third).toBeDefined();
    expect(share.enter('a')).toBeUndefined();
    expect(share.load('a')).toEqual({ running: 2, waiting: 1 });
    // Another key is not held up by a's line.
    const other = share.enter('b');
    expect(other && (await settled(other))).toBe(true);

    if (!first || !second || !third) throw new Error('turns expected');
    expect(await settled(third)).toBe(false);
    first();
    first(); // a second release of the same turn changes nothing
    const thirdRelease = await third;
    expect(share.load('a')).toEqual({ running: 2, waiting: 0 });
    second();
    thirdRelease();
    expect(share.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('hands a freed turn to the one waiting, not to a newcomer', async () => {
    const share = new FairShare(1, 5);
    const release = await share.enter('a');
    const waiting = share.enter('a');
    if (!release || !waiting) throw new Error('turns expected');
    release();
    const late = share.enter('a');
    if (!late) throw new Error('turn expected');
    expect(await settled(waiting)).toBe(true);
    expect(await settled(late)).toBe(false);
  });
});
