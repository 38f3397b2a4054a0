// Which lane a database call belongs to on the embedded engine, where every statement shares one
// session: background work (the in-process worker, a big list's committed steps, judging a job in
// steps) yields to what a person is waiting for (pages, health checks, live streams). Marked with
// AsyncLocalStorage so callers deep inside that work need not pass anything along.
import { AsyncLocalStorage } from 'node:async_hooks';

export type WorkLane = 'interactive' | 'background';

const lane = new AsyncLocalStorage<WorkLane>();

/** Runs `work` (and everything it starts, timers included) in the background lane. */
export function inBackground<T>(work: () => T): T {
  return lane.run('background', work);
}

/** The lane of the code running now: interactive unless inside inBackground(). */
export function currentLane(): WorkLane {
  return lane.getStore() ?? 'interactive';
}
