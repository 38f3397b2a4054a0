// One marketplace's share of a worker: claims rows, calls the adapter within the marketplace's rate
// and concurrency, and writes results back in batches.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MarketplaceAdapter, MarketplaceSettings, LookupOutcome } from '../marketplaces/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import { quotaNote, type DailyCallBudget } from './daily-budget.ts';
import type { ClaimedRow, DeferredRow, FinishedRow, LookupQueue, RequeuedRow } from './queue.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { AnswerReuse } from './reuse.ts';
import { settle } from './settle.ts';
import type { Logger } from '../core/logging.ts';
import type { JobEvents } from '../core/job-events.ts';

/** The worker logs through the same structured logger as the API (core/logging.ts). */
export type WorkerLog = Pick<Logger, 'info' | 'warn' | 'error'>;

export interface RunnerOptions {
  queue: LookupQueue;
  /** Fills claimed rows from recent answers before any is asked. */
  reuse: AnswerReuse;
  adapter: MarketplaceAdapter;
  settings: MarketplaceSettings;
  backoff: BackoffPolicy;
  leaseMs: number;
  pollIntervalMs: number;
  batchSize: number;
  /** Results wait at most this long to be written with others. */
  flushIntervalMs: number;
  log: WorkerLog;
  /** Told which jobs' progress moved, so open pages update live. */
  jobEvents: Pick<JobEvents, 'touched'>;
  /** The marketplace's daily call quota, checked before each request (marketplaces that have one). */
  budget?: DailyCallBudget;
}

export class MarketplaceRunner {
  private readonly limiter: RateLimiter;
  /** Claimed, waiting for a concurrency slot. */
  private readonly waiting: ClaimedRow[] = [];
  /** Holding a concurrency slot: waiting for a rate token or in the adapter call. */
  private inFlight = 0;
  private readonly finished: FinishedRow[] = [];
  private readonly requeued: RequeuedRow[] = [];
  /** Claimed but never sent: handed back without counting the attempt. */
  private readonly released: ClaimedRow[] = [];
  /** Not sent because today's budget is spent: queued until the reset. */
  private readonly deferred: DeferredRow[] = [];
  /** Calls answered (any outcome) since start. */
  lookups = 0;
  /** Lookups filled from a recent answer, without a request, since start. */
  reused = 0;
  private writing = false;
  private writes: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Ends polling pauses and rate-token waits when stopping. */
  private readonly stopClaiming = new AbortController();
  /** Cancels adapter calls still running at the stop deadline. */
  private readonly cancelCalls = new AbortController();
  private listeners: Array<() => void> = [];
  private readonly loopDone: Promise<void>;

  constructor(private readonly o: RunnerOptions) {
    this.limiter = new RateLimiter(o.queue.db, o.adapter.id, o.settings.ratePerSecond, o.settings.concurrency);
    // Every running call and token wait listens on these; `concurrency` of them at once is expected.
    setMaxListeners(0, this.stopClaiming.signal, this.cancelCalls.signal);
    this.loopDone = this.claimLoop();
  }

  get marketplace() {
    return this.o.adapter.id;
  }

  /** Nothing claimed, running or waiting to be written. */
  isIdle(): boolean {
    return this.waiting.length === 0 && this.inFlight === 0 && this.buffered() === 0 && !this.writing;
  }

  /** Stops claiming, lets calls finish until `deadline` (epoch ms), hands back the rest, writes everything. */
  async stop(deadline: number): Promise<void> {
    this.stopping = true;
    this.stopClaiming.abort();
    this.notify();
    await this.loopDone;
    this.released.push(...this.waiting.splice(0));
    const cancel = setTimeout(() => this.cancelCalls.abort(), Math.max(0, deadline - Date.now()));
    while (this.inFlight > 0) await this.changed();
    clearTimeout(cancel);
    await this.flush();
    const unwritten = this.buffered();
    if (unwritten)
      this.o.log.warn(
        { marketplace: this.marketplace, unwritten },
        'results not written; their leases will expire and they will be looked up again',
      );
  }

  private async claimLoop(): Promise<void> {
    const { concurrency } = this.o.settings;
    while (!this.stopping) {
      // Keep up to two rounds of work in hand, one running and one ready to start; top up once half
      // a round is free, so a finished call never waits for a claim's round trip.
      const room = 2 * concurrency - (this.waiting.length + this.inFlight);
      if (room < Math.ceil(concurrency / 2)) {
        await this.changed();
        continue;
      }
      const want = Math.min(this.o.batchSize, room);
      let rows: ClaimedRow[];
      try {
        rows = await this.o.queue.claim(want, this.o.leaseMs);
      } catch (err) {
        this.o.log.error({ err, marketplace: this.marketplace }, 'claiming failed');
        await this.pause();
        continue;
      }
      this.waiting.push(...(await this.withoutReused(rows)));
      this.startWaiting();
      // Fewer than asked: nothing else is due right now.
      if (rows.length < want) await this.pause();
    }
  }

  /** The claimed rows still to ask once those with a recent answer are filled from it. */
  private async withoutReused(rows: ClaimedRow[]): Promise<ClaimedRow[]> {
    try {
      const { ids, jobIds } = await this.o.reuse.fill(rows);
      this.reused += ids.size;
      this.o.jobEvents.touched(jobIds);
      return ids.size ? rows.filter((r) => !ids.has(r.id)) : rows;
    } catch (err) {
      // Reuse only saves requests: when it cannot run, the rows are asked as usual.
      this.o.log.error({ err, marketplace: this.marketplace }, 'reusing recent answers failed; asking the marketplace');
      return rows;
    }
  }

  private startWaiting(): void {
    while (!this.stopping && this.inFlight < this.o.settings.concurrency) {
      const next = this.waiting.shift();
      if (next === undefined) break;
      void this.lookup(next);
    }
  }

  private async lookup(row: ClaimedRow): Promise<void> {
    this.inFlight++;
    try {
      try {
        await this.limiter.take(this.stopClaiming.signal);
      } catch (err) {
        // Stopping before the request went out, or no rate slot could be reserved (a database
        // failure, worth a log line): either way the row goes back unsent.
        if (!this.stopClaiming.signal.aborted)
          this.o.log.error({ err, marketplace: this.marketplace }, 'reserving a rate slot failed; the lookup goes back to the queue');
        this.released.push(row);
        return;
      }
      if (!(await this.withinBudget(row))) return;
      const outcome = await this.call(row.isbn);
      if (outcome.kind === 'retry' && this.cancelCalls.signal.aborted) {
        this.released.push(row); // cut off by our own stop, not the marketplace's fault
        return;
      }
      this.lookups++;
      const settled = settle(row, outcome, this.o.settings.maxAttempts, this.o.backoff);
      if ('finished' in settled) this.finished.push(settled.finished);
      else this.requeued.push(settled.requeued);
    } finally {
      this.inFlight--;
      this.scheduleFlush();
      this.startWaiting();
      this.notify();
    }
  }

  /**
   * Counts the call against the daily budget; when it is spent the row waits for the reset instead
   * of being sent (or failing). A budget that cannot be read hands the row back unsent.
   */
  private async withinBudget(row: ClaimedRow): Promise<boolean> {
    if (!this.o.budget) return true;
    try {
      const answer = await this.o.budget.take();
      if (answer.ok) return true;
      this.deferred.push({ id: row.id, attempts: row.attempts, until: answer.resumesAt, note: quotaNote(answer.resumesAt) });
    } catch (err) {
      this.o.log.error({ err, marketplace: this.marketplace }, 'reading the daily call budget failed; the lookup goes back to the queue');
      this.released.push(row);
    }
    return false;
  }

  private buffered(): number {
    return this.finished.length + this.requeued.length + this.released.length + this.deferred.length;
  }

  private async call(isbn: string): Promise<LookupOutcome> {
    try {
      return await this.o.adapter.lookup(isbn, { signal: this.cancelCalls.signal });
    } catch (err) {
      // Adapters classify every answer; a throw is a bug on our side, worth another try and a log line.
      this.o.log.error({ err, marketplace: this.marketplace, isbn }, 'adapter threw');
      return { kind: 'retry', reason: `Adapter error: ${message(err)}` };
    }
  }

  private scheduleFlush(): void {
    const buffered = this.buffered();
    if (buffered >= this.o.batchSize) void this.flush();
    else if (buffered > 0 && !this.flushTimer) {
      this.flushTimer = setTimeout(() => void this.flush(), this.o.flushIntervalMs);
    }
  }

  /** Writes everything buffered; writes run one at a time. */
  private flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    this.writes = this.writes.then(() => this.write());
    return this.writes;
  }

  private async write(): Promise<void> {
    const finished = this.finished.splice(0);
    const requeued = this.requeued.splice(0);
    const released = this.released.splice(0);
    const deferred = this.deferred.splice(0);
    if (finished.length + requeued.length + released.length + deferred.length === 0) return;
    this.writing = true;
    const { queue, batchSize } = this.o;
    try {
      // Each write is idempotent (fenced on attempts), so a failed flush can simply be repeated.
      for (let i = 0; i < finished.length; i += batchSize)
        this.o.jobEvents.touched((await queue.finish(finished.slice(i, i + batchSize))).jobIds);
      for (let i = 0; i < requeued.length; i += batchSize) await queue.requeue(requeued.slice(i, i + batchSize));
      await queue.release(released);
      await queue.defer(deferred);
    } catch (err) {
      this.o.log.error(
        { err, marketplace: this.marketplace, results: finished.length + requeued.length + released.length + deferred.length },
        'writing results failed, retrying',
      );
      this.finished.unshift(...finished);
      this.requeued.unshift(...requeued);
      this.released.unshift(...released);
      this.deferred.unshift(...deferred);
      if (!this.stopping && !this.flushTimer) this.flushTimer = setTimeout(() => void this.flush(), this.o.pollIntervalMs);
    } finally {
      this.writing = false;
      this.notify();
    }
  }

  private pause(): Promise<void> {
    // Cut short by stop(): the only way this sleep rejects, and nothing to report.
    return sleep(this.o.pollIntervalMs, undefined, { signal: this.stopClaiming.signal }).catch(() => {});
  }

  /** Resolves at the next change of in-flight work (or on stop). */
  private changed(): Promise<void> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  private notify(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const resolve of listeners) resolve();
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
