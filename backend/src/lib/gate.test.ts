import { describe, expect, it } from 'vitest';
import { Gate, GateFullError } from './gate.ts';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('Gate', () => {
  it('runs at most max tasks at once and lets the next in line start when one ends', async () => {
    const gate = new Gate(2, 1000);
    let running = 0;
    let peak = 0;
    const blockers = [deferred(), deferred(), deferred()];
    const tasks = blockers.map((b) =>
      gate.run(async () => {
        peak = Math.max(peak, ++running);
        await b.promise;
        running--;
      }),
    );
    await new Promise((r) => setTimeout(r, 10));
    expect(running).toBe(2);
    blockers[0]!.resolve();
    await new Promise((r) => setTimeout(r, 10));
    expect(running).toBe(2);
    blockers[1]!.resolve();
    blockers[2]!.resolve();
    await Promise.all(tasks);
    expect(peak).toBe(2);
  });

  it('turns a task away after waiting maxWaitMs, and frees the slot of one that throws', async () => {
    const gate = new Gate(1, 20);
    const block = deferred();
    const first = gate.run(() => block.promise);
    await expect(gate.run(async () => 'late')).rejects.toBeInstanceOf(GateFullError);
    block.resolve();
    await first;
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 'free again')).toBe('free again');
  });
});
