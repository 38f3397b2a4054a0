// One marketplace's share of a worker: claims rows, calls the adapter within the marketplace's rate
// and concurrency, and writes results back in batches.
import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MarketplaceAdapter, MarketplaceSettings, LookupOutcome, Pace } from '../marketplaces/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import { must } from '@app/domain/must';
import type { DailyCallBudget } from './daily-budget.ts';
import type { ClaimedRow, DeferredRow, FinishedRow, LookupQueue, RequeuedRow } from './queue.ts';
import { RateLimiter } from './rate-limiter.ts';
import type { AnswerReuse } from './reuse.ts';
import { settle } from './settle.ts';
import type { Logger } from '../core/logging.ts';
import type { JobEvents } from '../core/job-events.ts';
import type { WritesInProgress } from '../core/writes-in-progress.ts';
import {
  lookupsFinished,
  marketplaceRefusals,
  marketplaceRequestDuration,
  queueStatementDuration,
  rateLimitWait,
} from '../metrics/instruments.ts';

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
  /** Claims wait while this says a big job is being written (the embedded database; worker.ts). */
  giveWayTo?: Pick<WritesInProgress, 'writing' | 'none'>;
}

/** A rate slot of an operation could not be reserved (a database failure): the batch goes back unsent. */
class RateSlotError extends Error {}

export class MarketplaceRunner {
  private readonly limiter: RateLimiter;
  /** Batch marketplaces: one shared rate slot per operation (`<marketplace>:<operation>`). */
  private readonly operationLimiters = new Map<string, RateLimiter>();
  /** ISBNs per adapter call: the registry's batchSize for a batch marketplace, else 1. */
  private readonly unit: number;
  /** Claimed, waiting for a concurrency slot. */
  private readonly waiting: ClaimedRow[] = [];
  /** Holding a concurrency slot: waiting for a rate token or in the adapter call (calls, and the rows they carry). */
  private inFlight = 0;
  private inFlightRows = 0;
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
    this.unit = o.adapter.lookupBatch && o.settings.batchSize ? o.settings.batchSize : 1;
    for (const [op, rate] of Object.entries(o.settings.operationRates ?? {}))
      this.operationLimiters.set(op, new RateLimiter(o.queue.db, `${o.adapter.id}:${op}`, rate, 1));
    // Every running call and token wait listens on these; `concurrency` of them at once is expected.
    setMaxListeners(0, this.stopClaiming.signal, this.cancelCalls.signal);
    this.loopDone = this.claimLoop();
  }

  get marketplace() {
    return this.o.adapter.id;
  }

  /** Lookups holding a concurrency slot: waiting for a rate slot or in the marketplace call. */
  get running(): number {
    return this.inFlight;
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
    await this.waking;
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

  private waking: Promise<void> | undefined;
  private wakeAgain = false;

  /**
   * Interactive lookups were queued (a scan, "Price it now"): claims them now, whatever the runner
   * already holds, and puts them first, so a person waits for at most the calls already under way,
   * not for the rounds held in hand. Wakes that come while one runs are folded into one more.
   */
  wake(): void {
    if (this.stopping) return;
    if (this.waking) {
      this.wakeAgain = true;
      return;
    }
    this.waking = (async () => {
      do {
        this.wakeAgain = false;
        try {
          const rows = await this.o.queue.claim(Math.max(this.unit, this.o.settings.concurrency), this.o.leaseMs, {
            interactiveOnly: true,
          });
          const toAsk = await this.withoutReused(rows);
          this.waiting.unshift(...toAsk);
          this.startWaiting(toAsk.length || this.unit);
        } catch (err) {
          // The regular claims pick the rows up in turn.
          this.o.log.error({ err, marketplace: this.marketplace }, 'claiming interactive lookups failed');
        }
      } while (this.wakeAgain && !this.stopping);
    })().finally(() => (this.waking = undefined));
  }

  private async claimLoop(): Promise<void> {
    const { concurrency } = this.o.settings;
    // A batch marketplace claims one batch at a time (the claim deals it fairly across jobs), so
    // each claim is one request; others claim up to the worker's batch size.
    const perClaim = this.unit > 1 ? this.unit : this.o.batchSize;
    while (!this.stopping) {
      // Keep up to two rounds of work in hand, one running and one ready to start; top up once half
      // a round is free, so a finished call never waits for a claim's round trip.
      const round = concurrency * this.unit;
      const room = 2 * round - (this.waiting.length + this.inFlightRows);
      if (room < Math.max(this.unit, Math.ceil(round / 2))) {
        await this.changed();
        continue;
      }
      if (await this.gaveWay()) continue;
      const want = Math.min(perClaim, room);
      let rows: ClaimedRow[];
      try {
        const claimed = queueStatementDuration.startTimer({ marketplace: this.marketplace, statement: 'claim' });
        rows = await this.o.queue.claim(want, this.o.leaseMs);
        claimed();
      } catch (err) {
        this.o.log.error({ err, marketplace: this.marketplace }, 'claiming failed');
        await this.pause();
        continue;
      }
      const toAsk = await this.withoutReused(rows);
      // A person waits for an interactive row: it goes before the rows already held.
      const urgent = toAsk.filter((r) => r.interactive);
      if (urgent.length) this.waiting.unshift(...urgent);
      this.waiting.push(...(urgent.length ? toAsk.filter((r) => !r.interactive) : toAsk));
      // A batch is sent as claimed (each claim is one fair batch), not mixed with the next claim.
      this.startWaiting(toAsk.length || this.unit);
      // Fewer than asked: nothing else is due right now.
      if (rows.length < want) await this.pause();
    }
  }

  /** Waits while a big job is written (giveWayTo), or until something changes (a stop); true if it waited. */
  private async gaveWay(): Promise<boolean> {
    const writes = this.o.giveWayTo;
    if (!writes?.writing) return false;
    await Promise.race([writes.none(), this.changed()]);
    return true;
  }

  /** The claimed rows still to ask once those with a recent answer are filled from it. */
  private async withoutReused(rows: ClaimedRow[]): Promise<ClaimedRow[]> {
    try {
      const { ids, jobIds } = await this.o.reuse.fill(rows);
      this.reused += ids.size;
      if (ids.size) lookupsFinished.inc({ marketplace: this.marketplace, outcome: 'reused' }, ids.size);
      this.o.jobEvents.touched(jobIds);
      return ids.size ? rows.filter((r) => !ids.has(r.id)) : rows;
    } catch (err) {
      // Reuse only saves requests: when it cannot run, the rows are asked as usual.
      this.o.log.error({ err, marketplace: this.marketplace }, 'reusing recent answers failed; asking the marketplace');
      return rows;
    }
  }

  /** Starts calls while concurrency allows; `size` rows per call (a batch as it was claimed). */
  private startWaiting(size = this.unit): void {
    while (!this.stopping && this.inFlight < this.o.settings.concurrency) {
      const next = this.waiting.splice(0, Math.max(1, Math.min(size, this.unit)));
      if (next.length === 0) break;
      void this.lookup(next);
    }
  }

  private async lookup(rows: ClaimedRow[]): Promise<void> {
    this.inFlight++;
    this.inFlightRows += rows.length;
    try {
      if (this.unit === 1) {
        const waitStart = performance.now();
        try {
          await this.limiter.take(this.stopClaiming.signal);
          rateLimitWait.observe({ marketplace: this.marketplace }, (performance.now() - waitStart) / 1000);
        } catch (err) {
          this.slotLost(err, rows);
          return;
        }
      }
      // One call of a daily quota per request (eBay): past it the rows wait for the reset, unsent.
      if (!(await this.withinBudget(rows))) return;
      let outcomes: LookupOutcome[];
      try {
        outcomes = await this.timedCall(rows);
      } catch (err) {
        this.slotLost(err, rows);
        return;
      }
      rows.forEach((row, i) => {
        const outcome: LookupOutcome = outcomes[i] ?? { kind: 'retry', reason: 'Adapter error: no outcome for this ISBN' };
        if (outcome.kind === 'retry' && this.cancelCalls.signal.aborted) {
          this.released.push(row); // cut off by our own stop, not the marketplace's fault
          return;
        }
        this.lookups++;
        const settled = settle(row, outcome, this.o.settings.maxAttempts, this.o.backoff);
        if ('finished' in settled) this.finished.push(settled.finished);
        else this.requeued.push(settled.requeued);
      });
    } finally {
      this.inFlight--;
      this.inFlightRows -= rows.length;
      this.scheduleFlush();
      this.startWaiting();
      this.notify();
    }
  }

  /**
   * Counts the call against the daily budget; when it is spent the row waits for the reset instead
   * of being sent (or failing). A budget that cannot be read hands the row back unsent.
   */
  private async withinBudget(rows: ClaimedRow[]): Promise<boolean> {
    if (!this.o.budget) return true;
    try {
      // A marketplace with a daily quota is asked one ISBN a request: the call is its row's job's.
      const answer = await this.o.budget.take(must(rows[0], 'a request carries a row').isbn_lookup_job_id);
      if (answer.ok) return true;
      for (const row of rows) this.deferred.push({ id: row.id, attempts: row.attempts, until: answer.resumesAt, note: answer.note });
    } catch (err) {
      this.o.log.error({ err, marketplace: this.marketplace }, 'reading the daily call budget failed; the lookups go back to the queue');
      this.released.push(...rows);
    }
    return false;
  }

  private buffered(): number {
    return this.finished.length + this.requeued.length + this.released.length + this.deferred.length;
  }

  /** The call, with its response time and a marketplace's refusal counted (a batch is one request). */
  private async timedCall(rows: ClaimedRow[]): Promise<LookupOutcome[]> {
    const start = performance.now();
    const outcomes = await this.call(rows);
    const outcome = outcomes.length === 1 ? (outcomes[0]?.kind ?? 'retry') : 'batch';
    marketplaceRequestDuration.observe({ marketplace: this.marketplace, outcome }, (performance.now() - start) / 1000);
    if (outcomes.some((o) => o.kind === 'retry' && o.rateLimited)) marketplaceRefusals.inc({ marketplace: this.marketplace });
    return outcomes;
  }

  /**
   * Stopping before the request went out, or no rate slot could be reserved (a database failure,
   * worth a log line): either way the rows go back unsent.
   */
  private slotLost(err: unknown, rows: ClaimedRow[]): void {
    if (!this.stopClaiming.signal.aborted)
      this.o.log.error({ err, marketplace: this.marketplace }, 'reserving a rate slot failed; the lookups go back to the queue');
    this.released.push(...rows);
  }

  /** One outcome per row. Throws only when a rate slot was lost (RateSlotError or our stop): the rows were not asked. */
  private async call(rows: ClaimedRow[]): Promise<LookupOutcome[]> {
    const batch = this.o.adapter.lookupBatch;
    try {
      if (this.unit > 1 && batch) {
        const outcomes = await batch(
          rows.map((r) => r.isbn),
          { signal: this.cancelCalls.signal, pace: this.pace },
        );
        if (outcomes.length !== rows.length) throw new Error(`${outcomes.length} outcomes for ${rows.length} ISBNs`);
        return outcomes;
      }
      const row = rows[0];
      return row ? [await this.o.adapter.lookup(row.isbn, { signal: this.cancelCalls.signal })] : [];
    } catch (err) {
      if (err instanceof RateSlotError || this.stopClaiming.signal.aborted) throw err;
      // Adapters classify every answer; a throw is a bug on our side, worth another try and a log line.
      this.o.log.error({ err, marketplace: this.marketplace, isbns: rows.map((r) => r.isbn) }, 'adapter threw');
      return rows.map(() => ({ kind: 'retry', reason: `Adapter error: ${message(err)}` }));
    }
  }

  /** A batch adapter's wait for its operation's shared slot; an operation without its own rate uses the marketplace's. */
  private readonly pace: Pace = async (operation) => {
    try {
      await (this.operationLimiters.get(operation) ?? this.limiter).take(this.stopClaiming.signal);
    } catch (err) {
      if (this.stopClaiming.signal.aborted) throw err;
      throw new RateSlotError(`reserving a ${operation} rate slot failed: ${message(err)}`, { cause: err });
    }
  };

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
      for (let i = 0; i < finished.length; i += batchSize) {
        const written = queueStatementDuration.startTimer({ marketplace: this.marketplace, statement: 'finish' });
        const { jobIds, byStatus } = await queue.finish(finished.slice(i, i + batchSize));
        written();
        this.o.jobEvents.touched(jobIds);
        for (const [outcome, n] of Object.entries(byStatus)) lookupsFinished.inc({ marketplace: this.marketplace, outcome }, n);
      }
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
