// The queue worker: one runner per marketplace over its lookup table, a lease reaper, a graceful stop.
import { setTimeout as sleep } from 'node:timers/promises';
import { MARKETPLACES, type MarketplaceId } from '@app/domain/marketplaces';
import type { Sql } from '../db/client.ts';
import type { MarketplaceAdapter, MarketplaceSettings } from '../marketplaces/types.ts';
import type { BackoffPolicy } from './backoff.ts';
import { LookupQueue } from './queue.ts';
import { MarketplaceRunner, message, type WorkerLog } from './runner.ts';
import { must } from '@app/domain/must';

export interface WorkerOptions {
  db: Sql;
  /** The marketplaces this worker serves; tables of others are left alone. */
  adapters: Partial<Record<MarketplaceId, MarketplaceAdapter>>;
  /** Rate, concurrency and attempts of each served marketplace. */
  settings: Partial<Record<MarketplaceId, MarketplaceSettings>>;
  log?: WorkerLog;
  /** Pause after finding no due work (default 1000). */
  pollIntervalMs?: number;
  /** How long a claimed row stays this worker's before the reaper hands it to others (default 120000). */
  leaseMs?: number;
  /** Most rows per claim and per write (default 50). */
  batchSize?: number;
  backoff?: Partial<BackoffPolicy>;
  /** How long stop() lets running calls finish (default 10000). */
  stopTimeoutMs?: number;
  /** How often expired leases are reaped (default leaseMs / 2, at most 30 s). */
  reapIntervalMs?: number;
  /** Results wait at most this long to be written together (default 50). */
  flushIntervalMs?: number;
}

export interface Worker {
  /** Stops claiming, lets running calls finish until the stop timeout, hands back the rest. */
  stop(): Promise<void>;
  /** Resolves once this worker holds nothing and no row is queued or pending (or the worker stopped). */
  idle(): Promise<void>;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 300_000, maxRetryAfterMs: 3_600_000 };
const silent: WorkerLog = { info() {}, warn() {}, error() {} };

export function startWorker(opts: WorkerOptions): Worker {
  const log = opts.log ?? silent;
  const leaseMs = opts.leaseMs ?? 120_000;
  const pollIntervalMs = opts.pollIntervalMs ?? 1000;
  const stopTimeoutMs = opts.stopTimeoutMs ?? 10_000;
  const backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
  const served = (Object.keys(opts.adapters) as MarketplaceId[]).filter((id) => opts.adapters[id]);

  const runners = served.map((id) => {
    const settings = opts.settings[id];
    if (!settings) throw new Error(`startWorker: no settings for ${id}`);
    // A claimed row may wait for two rounds of calls plus its own timeout before it is written.
    const holdMs = ((2 * settings.concurrency) / settings.ratePerSecond) * 1000 + settings.timeoutMs;
    if (holdMs > leaseMs) log.warn(`${id}: rows may be held ${Math.round(holdMs)} ms, longer than the ${leaseMs} ms lease`);
    const queue = new LookupQueue(opts.db, MARKETPLACES[id]);
    return {
      settings,
      queue,
      runner: new MarketplaceRunner({
        queue,
        adapter: must(opts.adapters[id], `adapter for ${id}`),
        settings,
        backoff,
        leaseMs,
        pollIntervalMs,
        batchSize: opts.batchSize ?? 50,
        flushIntervalMs: opts.flushIntervalMs ?? 50,
        log,
      }),
    };
  });

  let reaping = false;
  const reaper = setInterval(
    async () => {
      if (reaping) return;
      reaping = true;
      for (const { queue, settings, runner } of runners) {
        try {
          const n = await queue.reapExpired(settings.maxAttempts);
          if (n > 0) log.warn(`${runner.marketplace}: ${n} lookups whose worker stopped responding were put back`);
        } catch (err) {
          log.error(`${runner.marketplace}: reaping expired leases failed: ${message(err)}`);
        }
      }
      reaping = false;
    },
    opts.reapIntervalMs ?? Math.min(30_000, leaseMs / 2),
  );
  log.info(`worker started for ${served.join(', ')}`);

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        clearInterval(reaper);
        const deadline = Date.now() + stopTimeoutMs;
        await Promise.all(runners.map(({ runner }) => runner.stop(deadline)));
        const total = runners.reduce((n, { runner }) => n + runner.lookups, 0);
        log.info(`worker stopped after ${total} lookups (${runners.map(({ runner }) => `${runner.marketplace} ${runner.lookups}`).join(', ')})`);
      })();
      return stopped;
    },
    async idle() {
      const pollMs = Math.min(pollIntervalMs, 50);
      while (!stopped) {
        if (runners.every(({ runner }) => runner.isIdle())) {
          const busy = await Promise.all(runners.map(({ queue }) => queue.hasWork()));
          if (!busy.includes(true)) return;
        }
        await sleep(pollMs);
      }
      await stopped;
    },
  };
}
