import { describe, expect, it } from 'vitest';
import type { SessionActivity } from '../db/session-lock.ts';
import { ReadinessCheck, showsProgress } from './readiness.ts';

/** A migration check that counts how often it is asked and answers what the test says. */
function migrations(answer: () => Promise<number>) {
  const asked = { count: 0 };
  return {
    asked,
    check: {
      missing: () => {
        asked.count++;
        return answer();
      },
    },
  };
}

describe('showsProgress', () => {
  it('is false when idle for longer than the window (asking costs nothing then) and for a session held too long', () => {
    expect(showsProgress({ busySince: null, lastDoneAt: null }, 1_010)).toBe(false);
    expect(showsProgress({ busySince: null, lastDoneAt: 1_000 }, 1_000 + 6_000, 5_000)).toBe(false);
    expect(showsProgress({ busySince: 1_000, lastDoneAt: 900 }, 1_000 + 6_000, 5_000)).toBe(false);
  });
  it('is true for a session that began or finished work within the window, busy or idle', () => {
    expect(showsProgress({ busySince: null, lastDoneAt: 1_000 }, 1_010, 5_000)).toBe(true);
    expect(showsProgress({ busySince: 1_000, lastDoneAt: null }, 1_200, 5_000)).toBe(true);
    expect(showsProgress({ busySince: 0, lastDoneAt: 5_500 }, 6_000, 5_000)).toBe(true);
  });
});

describe('ReadinessCheck', () => {
  it('on PostgreSQL (no session activity) asks the database every time', async () => {
    const m = migrations(async () => 0);
    const readiness = new ReadinessCheck(m.check);
    expect(await readiness.check()).toEqual({ ready: true });
    expect(await readiness.check()).toEqual({ ready: true });
    expect(m.asked.count).toBe(2);
  });

  it('on the embedded session, answers from its progress once the migrations were seen applied', async () => {
    const m = migrations(async () => 0);
    let activity: SessionActivity = { busySince: performance.now(), lastDoneAt: null };
    const readiness = new ReadinessCheck(m.check, () => activity);
    // Not seen applied yet: asks even though the session is busy.
    expect(await readiness.check()).toEqual({ ready: true });
    expect(m.asked.count).toBe(1);
    expect(await readiness.check()).toEqual({ ready: true });
    expect(m.asked.count).toBe(1);
    // Idle for a while: a statement answers at once, so it asks.
    activity = { busySince: null, lastDoneAt: performance.now() - 60_000 };
    await readiness.check();
    expect(m.asked.count).toBe(2);
  });

  it('keeps asking while migrations are missing, and says how many', async () => {
    const m = migrations(async () => 2);
    const readiness = new ReadinessCheck(m.check, () => ({ busySince: performance.now(), lastDoneAt: null }));
    expect(await readiness.check()).toEqual({ ready: false, detail: '2 database migration(s) not applied yet' });
    expect(await readiness.check()).toMatchObject({ ready: false });
    expect(m.asked.count).toBe(2);
  });

  it('is not ready when a session held without progress does not answer before the deadline', async () => {
    let answering = true;
    const m = migrations(() => (answering ? Promise.resolve(0) : new Promise<number>(() => {})));
    const stuckSince = performance.now() - 60_000;
    const readiness = new ReadinessCheck(m.check, () => ({ busySince: stuckSince, lastDoneAt: stuckSince }), 20);
    expect(await readiness.check()).toEqual({ ready: true });
    answering = false;
    expect(await readiness.check()).toMatchObject({ ready: false, detail: 'The database is unreachable' });
  });

  it('is not ready when the database throws', async () => {
    const readiness = new ReadinessCheck({ missing: () => Promise.reject(new Error('connection refused')) });
    expect(await readiness.check()).toMatchObject({ ready: false, detail: 'The database is unreachable' });
  });
});
