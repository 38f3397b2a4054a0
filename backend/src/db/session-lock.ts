// The embedded database's one session, shared by everything in the API's process (db/pglite-thread.ts).
import { currentLane, type WorkLane } from './work-lane.ts';

/**
 * How long background work may wait while people's calls keep coming: long enough that a page's few
 * statements run back to back, short enough that the worker and a big list's steps keep moving
 * under a stream of pages.
 */
export const BACKGROUND_MAX_WAIT_MS = 250;

type Waiter = { grant: () => void; since: number };

/**
 * What the session is doing, on `performance.now()`'s clock: since when its holder has held it (null
 * when idle) and when a holder last let go (null before the first). Readiness reads it instead of
 * queueing a statement behind the work in progress (health/readiness.ts).
 */
export interface SessionActivity {
  busySince: number | null;
  lastDoneAt: number | null;
}

/**
 * Who holds it owns the one session until release. Waiters are served in arrival order within their
 * lane, interactive ones first: a page waits for the statement running now, not for the queue of
 * claims and write steps behind it. Background work that has waited `backgroundMaxWaitMs` goes next
 * all the same, so a stream of pages never starves it.
 */
export class SessionLock {
  private held = false;
  private busySince: number | null = null;
  private lastDoneAt: number | null = null;
  private readonly waiting: Record<WorkLane, Waiter[]> = { interactive: [], background: [] };

  constructor(
    private readonly backgroundMaxWaitMs = BACKGROUND_MAX_WAIT_MS,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  async hold<T>(work: () => Promise<T>, lane: WorkLane = currentLane()): Promise<T> {
    if (this.held) await new Promise<void>((grant) => this.waiting[lane].push({ grant, since: this.now() }));
    else this.held = true;
    this.busySince = this.now();
    try {
      return await work();
    } finally {
      this.lastDoneAt = this.now();
      this.busySince = null;
      this.grantNext();
    }
  }

  activity(): SessionActivity {
    return { busySince: this.busySince, lastDoneAt: this.lastDoneAt };
  }

  private grantNext(): void {
    const { interactive, background } = this.waiting;
    const oldestBackground = background[0];
    const backgroundDue = oldestBackground !== undefined && this.now() - oldestBackground.since >= this.backgroundMaxWaitMs;
    const next = (backgroundDue ? background.shift() : undefined) ?? interactive.shift() ?? background.shift();
    if (next) next.grant();
    else this.held = false;
  }
}
