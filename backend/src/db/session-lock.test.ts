import { describe, expect, it } from 'vitest';
import { SessionLock } from './session-lock.ts';

/** A holder that stays until released by hand, recording when it got the session. */
function holder(lock: SessionLock, lane: 'interactive' | 'background', name: string, order: string[]) {
  let release!: () => void;
  const done = lock.hold(
    () =>
      new Promise<void>((resolve) => {
        order.push(name);
        release = resolve;
      }),
    lane,
  );
  return { done, release: () => release() };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('SessionLock', () => {
  it('gives the session to one holder at a time, in arrival order within a lane', async () => {
    const lock = new SessionLock();
    const order: string[] = [];
    const a = holder(lock, 'background', 'a', order);
    const b = holder(lock, 'background', 'b', order);
    await turn();
    expect(order).toEqual(['a']);
    a.release();
    await turn();
    expect(order).toEqual(['a', 'b']);
    b.release();
    await Promise.all([a.done, b.done]);
  });

  it('lets waiting pages go before queued background work', async () => {
    const lock = new SessionLock(Number.POSITIVE_INFINITY);
    const order: string[] = [];
    const holders = new Map([
      ['step 1', holder(lock, 'background', 'step 1', order)],
      ['step 2', holder(lock, 'background', 'step 2', order)],
      ['step 3', holder(lock, 'background', 'step 3', order)],
      ['page 1', holder(lock, 'interactive', 'page 1', order)],
      ['page 2', holder(lock, 'interactive', 'page 2', order)],
    ]);
    // Each holder in turn releases the session to whoever the lock picks next.
    for (let granted = 1; granted <= holders.size; granted++) {
      await turn();
      expect(order).toHaveLength(granted);
      holders.get(order.at(-1) ?? '')?.release();
    }
    expect(order).toEqual(['step 1', 'page 1', 'page 2', 'step 2', 'step 3']);
    await Promise.all([...holders.values()].map((h) => h.done));
  });

  it('gives background work that has waited long enough the next turn, so pages never starve it', async () => {
    let clock = 0;
    const lock = new SessionLock(250, () => clock);
    const order: string[] = [];
    const running = holder(lock, 'interactive', 'page 1', order);
    await turn();
    const step = holder(lock, 'background', 'step', order);
    await turn();
    clock = 100;
    const early = holder(lock, 'interactive', 'page 2', order);
    await turn();
    running.release();
    await turn();
    expect(order).toEqual(['page 1', 'page 2']);
    clock = 300;
    const late = holder(lock, 'interactive', 'page 3', order);
    await turn();
    early.release();
    await turn();
    expect(order).toEqual(['page 1', 'page 2', 'step']);
    step.release();
    await turn();
    late.release();
    expect(order).toEqual(['page 1', 'page 2', 'step', 'page 3']);
    await Promise.all([running.done, step.done, early.done, late.done]);
  });

  it('frees the session when a holder throws', async () => {
    const lock = new SessionLock();
    await expect(lock.hold(() => Promise.reject(new Error('bad statement')), 'interactive')).rejects.toThrow('bad statement');
    await expect(lock.hold(() => Promise.resolve('next'), 'background')).resolves.toBe('next');
  });
});

describe('SessionLock activity', () => {
  it('says since when the session is held and when it was last let go', async () => {
    let clock = 100;
    const lock = new SessionLock(250, () => clock);
    expect(lock.activity()).toEqual({ busySince: null, lastDoneAt: null });
    const order: string[] = [];
    const a = holder(lock, 'interactive', 'a', order);
    await turn();
    expect(lock.activity()).toEqual({ busySince: 100, lastDoneAt: null });
    clock = 180;
    a.release();
    await a.done;
    expect(lock.activity()).toEqual({ busySince: null, lastDoneAt: 180 });
  });
});
