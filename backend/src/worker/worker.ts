// The queue worker: one runner per marketplace over its lookup table, a lease reaper, a graceful stop.
import { must } from '@app/domain/must';
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import type { Listen } from '../db/listen.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../marketplaces/types.ts';
import type { JobEvents } from '../core/job-events.ts';
import type { BackoffPolicy } from './backoff.ts';
import { FinishedJobsJudge } from '../decisions/auto-judge.ts';
import { AuditPruner } from '../audit/retention.ts';
import { ComparisonStorer } from '../comparison/stored.ts';
import { HistoryPruner } from '../history/retention.ts';
import { BookDetailsFetcher } from '../book-details/fetcher.ts';
import type { BookDetailsSettings } from '../book-details/options.ts';
import { evaluateWatchesOfBook } from '../watches/evaluate.ts';
import { KeepaFetcher } from '../keepa/fetcher.ts';
import { WatchDigest, type DigestSettings } from '../watches/digest.ts';
import type { KeepaSettings } from '../keepa/options.ts';
import { DailyCallBudget } from './daily-budget.ts';
import type { WritesInProgress } from '../core/writes-in-progress.ts';
import { INTERACTIVE_WORK_CHANNEL } from './interactive-jobs.ts';
import { LookupQueue } from './queue.ts';
import { ScheduledReprices } from './scheduled-reprice.ts';
import type { BulkWrites } from '../db/bulk-writes.ts';
import { AnswerReuse } from './reuse.ts';
import { WorkerHeartbeat } from './heartbeat.ts';
import { MarketplaceRunner, type WorkerLog } from './runner.ts';

export interface WorkerOptions {
  db: Db;
  /** The marketplaces this worker serves; tables of others are left alone. */
  adapters: Partial<Record<MarketplaceId, MarketplaceAdapter>>;
  /** Rate, concurrency and attempts of each served marketplace. */
  settings: Partial<Record<MarketplaceId, MarketplaceSettings>>;
  /** Where the worker reports; errors it recovers from are logged, never dropped. */
  log: WorkerLog;
  /** Told which jobs' progress moved (ctx.jobEvents in the API, its own in `npm run worker`). */
  jobEvents: Pick<JobEvents, 'touched'>;
  /** Pause after finding no due work (default 1000). */
  pollIntervalMs?: number;
  /** How long a claimed row stays this worker's before the reaper hands it to others (default 120000). */
  leaseMs?: number;
  /** Most rows per claim and per write (default 50). */
  batchSize?: number;
  backoff?: Partial<BackoffPolicy>;
  /** How long stop() lets running calls finish (default 10000; SHUTDOWN_TIMEOUT_MS in the processes). */
  stopTimeoutMs?: number;
  /** How often the worker's row in worker_heartbeats is written (default 10000). */
  heartbeatMs?: number;
  /** How often expired leases are reaped (default leaseMs / 2, at most 30 s). */
  reapIntervalMs?: number;
  /** Results wait at most this long to be written together (default 50). */
  flushIntervalMs?: number;
  /** An ISBN answered within this window is filled from that answer, not asked again (default a day; 0: never). */
  reuseWindowMs?: number;
  /** Price observations older than this are pruned, the latest per marketplace and ISBN kept (default 730 days; 0: never). */
  historyRetentionMs?: number;
  /** Audit events older than this are pruned (default 365 days; 0: never). */
  auditRetentionMs?: number;
  /** How often the upkeep runs a step of each: a batch of old observations and one of old audit events pruned, an older job's comparison stored (default a minute). */
  pruneIntervalMs?: number;
  /** The clock daily call budgets count days by (tests move it past a reset). */
  clock?: () => Date;
  /** Fetch book details from Open Library in the background (book-details/); off when unset. */
  bookDetails?: BookDetailsSettings;
  /** Fetch Amazon's rank and price history from Keepa in the background (keepa/); off when unset. */
  keepa?: KeepaSettings;
  /**
   * Big jobs being written on the embedded database in this process (ctx.writes): no claim is made
   * while one is (lookups in flight finish and are written as usual). Unset: claims never wait.
   */
  giveWayTo?: Pick<WritesInProgress, 'writing' | 'none'>;
  /** LISTEN on the database: with it, interactive lookups announced by an API process are claimed at once (interactive-jobs.ts). */
  listen?: Listen;
  /** How often this worker looks for due re-pricing schedules (scheduled-reprice.ts; default a minute). */
  scheduleCheckMs?: number;
  /** How big writes run on this database (db/bulk-writes.ts): a scheduled re-price's, as a person's would. */
  bulk?: BulkWrites;
  /** Send the hourly watch digests from the upkeep (watches/digest.ts); off when unset. */
  digest?: DigestSettings;
}

export interface Worker {
  /** Stops claiming, lets running calls finish until the stop timeout, hands back the rest. */
  stop(): Promise<void>;
  /** Resolves once this worker holds nothing and no row is queued or pending (or the worker stopped). */
  idle(): Promise<void>;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 300_000, maxRetryAfterMs: 3_600_000 };
/** The one set of defaults: for callers of startWorker and for WORKER_* variables left unset. */
export const DEFAULT_TUNING = {
  pollIntervalMs: 1000,
  leaseMs: 120_000,
  batchSize: 50,
  stopTimeoutMs: 10_000,
  heartbeatMs: 10_000,
  reuseWindowMs: 86_400_000,
  historyRetentionMs: 730 * 86_400_000,
  auditRetentionMs: 365 * 86_400_000,
  scheduleCheckMs: 60_000,
};

export function startWorker(opts: WorkerOptions): Worker {
  const { log } = opts;
  const leaseMs = opts.leaseMs ?? DEFAULT_TUNING.leaseMs;
  const pollIntervalMs = opts.pollIntervalMs ?? DEFAULT_TUNING.pollIntervalMs;
  const stopTimeoutMs = opts.stopTimeoutMs ?? DEFAULT_TUNING.stopTimeoutMs;
  const backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
  const served = (Object.keys(opts.adapters) as MarketplaceId[]).filter((id) => opts.adapters[id]);
  // Whatever moved a job's lookups may have ended its run: such a job with a rule set version is judged.
  const judge = new FinishedJobsJudge(opts.db, log, opts.jobEvents);
  const jobEvents: Pick<JobEvents, 'touched'> = {
    touched(jobIds) {
      opts.jobEvents.touched(jobIds);
      judge.check(jobIds);
    },
  };

  const runners = served.map((id) => {
    const settings = opts.settings[id];
    if (!settings) throw new Error(`startWorker: no settings for ${id}`);
    // A claimed row may wait for two rounds of calls plus its own timeout before it is written.
    const holdMs = ((2 * settings.concurrency) / settings.ratePerSecond) * 1000 + settings.timeoutMs;
    if (holdMs > leaseMs) log.warn({ marketplace: id, holdMs: Math.round(holdMs), leaseMs }, 'rows may be held longer than the lease');
    const queue = new LookupQueue(opts.db, MARKETPLACES[id]);
    return {
      settings,
      queue,
      runner: new MarketplaceRunner({
        queue,
        reuse: new AnswerReuse(opts.db, MARKETPLACES[id], opts.reuseWindowMs ?? DEFAULT_TUNING.reuseWindowMs),
        adapter: must(opts.adapters[id], 'only marketplaces with an adapter are run'),
        settings,
        backoff,
        leaseMs,
        pollIntervalMs,
        batchSize: opts.batchSize ?? DEFAULT_TUNING.batchSize,
        flushIntervalMs: opts.flushIntervalMs ?? 50,
        ...(opts.giveWayTo ? { giveWayTo: opts.giveWayTo } : {}),
        log,
        jobEvents,
        ...(settings.dailyCallBudget === undefined
          ? {}
          : { budget: new DailyCallBudget(opts.db, id, settings.dailyCallBudget, settings.dailyReserve, opts.clock) }),
      }),
    };
  });

  // A scan or "Price it now" queued lookups: every runner claims them now (missed notices are caught by the regular claims).
  const interactive = opts.listen?.(INTERACTIVE_WORK_CHANNEL, {
    message: () => {
      for (const { runner } of runners) runner.wake();
    },
    up: () => {},
    down: () => {},
  });

  let reaping = false;
  const reaper = setInterval(
    async () => {
      if (reaping) return;
      reaping = true;
      for (const { queue, settings, runner } of runners) {
        try {
          const { count: n, jobIds } = await queue.reapExpired(settings.maxAttempts);
          jobEvents.touched(jobIds);
          if (n > 0) log.warn({ marketplace: runner.marketplace, lookups: n }, 'lookups whose worker stopped responding were put back');
        } catch (err) {
          log.error({ err, marketplace: runner.marketplace }, 'reaping expired leases failed');
        }
      }
      reaping = false;
    },
    opts.reapIntervalMs ?? Math.min(30_000, leaseMs / 2),
  );
  const heartbeat = new WorkerHeartbeat(
    opts.db,
    opts.heartbeatMs ?? DEFAULT_TUNING.heartbeatMs,
    () => runners.reduce((n, { runner }) => n + runner.running, 0),
    log,
  );
  heartbeat.start();
  // Upkeep, one bounded step of each per tick: pruning, storing older jobs' comparisons, the watch digests.
  const history = new HistoryPruner(opts.db, opts.historyRetentionMs ?? DEFAULT_TUNING.historyRetentionMs);
  const audit = new AuditPruner(opts.db, opts.auditRetentionMs ?? DEFAULT_TUNING.auditRetentionMs);
  const comparisons = new ComparisonStorer(opts.db);
  const pruners: { what: string; tick: () => Promise<Record<string, number | undefined>> }[] = [
    { what: 'pruning old price observations', tick: async () => ({ 'price observations pruned': (await history.tick())?.deleted }) },
    { what: 'pruning old audit events', tick: async () => ({ 'audit events pruned': (await audit.tick())?.deleted }) },
    { what: "storing an older job's comparison", tick: async () => ({ 'comparison rows stored': (await comparisons.tick())?.stored }) },
  ];
  if (opts.digest) {
    const digest = new WatchDigest(opts.db, opts.digest, log);
    pruners.push({ what: 'sending watch digests', tick: async () => ({ 'watch digests sent': await digest.sweep() }) });
  }
  let pruning = false;
  const prune = setInterval(async () => {
    if (pruning) return;
    pruning = true;
    for (const { what, tick } of pruners) {
      try {
        const done = await tick();
        if (Object.values(done).some(Boolean)) log.info(done, 'upkeep');
      } catch (err) {
        log.error({ err }, `${what} failed`);
      }
    }
    pruning = false;
  }, opts.pruneIntervalMs ?? 60_000);
  // Due re-pricing schedules: each claimed by one worker, its run queued like a person's re-price.
  const schedules = new ScheduledReprices({ db: opts.db, log, jobEvents, ...(opts.bulk ? { bulk: opts.bulk } : {}) });
  let scheduling: Promise<unknown> | undefined;
  const schedule = setInterval(() => {
    scheduling ??= schedules
      .tick()
      .catch((err: unknown) => log.error({ err }, 'looking for due re-pricing schedules failed'))
      .finally(() => (scheduling = undefined));
  }, opts.scheduleCheckMs ?? DEFAULT_TUNING.scheduleCheckMs);
  // Open Library's answers are capped like the marketplaces' (one MARKETPLACE_MAX_RESPONSE_BYTES for every upstream).
  const maxResponseBytes = Object.values(opts.settings).find((s) => s?.maxResponseBytes)?.maxResponseBytes;
  const details =
    opts.bookDetails && new BookDetailsFetcher(opts.db, { ...(maxResponseBytes ? { maxResponseBytes } : {}), ...opts.bookDetails }, log);
  details?.start();
  const keepa =
    opts.keepa &&
    new KeepaFetcher(opts.db, { ...(maxResponseBytes ? { maxResponseBytes } : {}), ...opts.keepa }, log, {
      afterBook: evaluateWatchesOfBook,
    });
  keepa?.start();
  log.info(
    `worker started for ${served.join(', ')}${details ? `, book details from ${opts.bookDetails?.url}` : ''}${keepa ? `, Keepa history from ${opts.keepa?.url}` : ''}`,
  );

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(reaper);
        clearInterval(prune);
        clearInterval(schedule);
        await scheduling;
        await interactive?.stop();
        const deadline = Date.now() + stopTimeoutMs;
        await Promise.all([...runners.map(({ runner }) => runner.stop(deadline)), details?.stop(), keepa?.stop()]);
        await judge.idle();
        await heartbeat.stop();
        const total = runners.reduce((n, { runner }) => n + runner.lookups, 0);
        const reused = runners.reduce((n, { runner }) => n + runner.reused, 0);
        log.info(
          `worker stopped after ${total} lookups and ${reused} reused answers (${runners.map(({ runner }) => `${runner.marketplace} ${runner.lookups}`).join(', ')})`,
        );
      })();
      return stopped;
    },
    async idle() {
      const pollMs = Math.min(pollIntervalMs, 50);
      while (!stopped) {
        if (runners.every(({ runner }) => runner.isIdle())) {
          const busy = await Promise.all(runners.map(({ queue }) => queue.hasWork()));
          if (!busy.includes(true)) return judge.idle();
        }
        await sleep(pollMs);
      }
      await stopped;
    },
  };
}
