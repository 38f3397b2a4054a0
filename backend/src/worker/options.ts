// The worker's section of the configuration schema (see core/config.ts): RUN_WORKER and WORKER_*.
// Defaults are startWorker's own (DEFAULT_TUNING, DEFAULT_BACKOFF), so there is one of each.
import { z } from 'zod';
import { envBool, envPort } from '../core/config.ts';
import { envDuration } from '../core/duration.ts';
import { DEFAULT_BACKOFF, DEFAULT_TUNING, type WorkerOptions } from './worker.ts';

const ms = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export type WorkerTuning = Pick<
  WorkerOptions,
  'pollIntervalMs' | 'leaseMs' | 'batchSize' | 'backoff' | 'heartbeatMs' | 'historyRetentionMs' | 'auditRetentionMs' | 'scheduleCheckMs'
> & {
  leaseMs: number;
};

export const workerConfigSection = z
  .object({
    /** One worker inside the API process (`npm start`); `npm run worker` adds processes. */
    RUN_WORKER: envBool.default(true),
    WORKER_POLL_INTERVAL_MS: ms(DEFAULT_TUNING.pollIntervalMs),
    WORKER_LEASE_MS: ms(DEFAULT_TUNING.leaseMs),
    WORKER_BATCH_SIZE: ms(DEFAULT_TUNING.batchSize),
    WORKER_RETRY_BASE_MS: ms(DEFAULT_BACKOFF.baseMs),
    WORKER_RETRY_MAX_MS: ms(DEFAULT_BACKOFF.maxMs),
    WORKER_MAX_RETRY_AFTER_MS: ms(DEFAULT_BACKOFF.maxRetryAfterMs),
    /** How often each worker writes its heartbeat row (GET /api/v1/health/workers). */
    WORKER_HEARTBEAT_MS: ms(DEFAULT_TUNING.heartbeatMs),
    /** `npm run worker` serves its own metrics on this port (GET /metrics); unset: off. */
    WORKER_METRICS_PORT: envPort.optional(),
    /** Price observations older than this (e.g. 730d) are pruned, the latest per marketplace and ISBN kept; 0 keeps all. */
    PRICE_HISTORY_RETENTION: envDuration.default(DEFAULT_TUNING.historyRetentionMs),
    /** Audit events older than this (e.g. 365d) are pruned; 0 keeps all. */
    AUDIT_RETENTION: envDuration.default(DEFAULT_TUNING.auditRetentionMs),
    /** How often each worker looks for jobs whose re-pricing schedule is due (a run is at most this late). */
    WORKER_SCHEDULE_CHECK_MS: ms(DEFAULT_TUNING.scheduleCheckMs),
  })
  .transform((e) => ({
    runInApi: e.RUN_WORKER,
    metricsPort: e.WORKER_METRICS_PORT,
    tuning: {
      pollIntervalMs: e.WORKER_POLL_INTERVAL_MS,
      leaseMs: e.WORKER_LEASE_MS,
      batchSize: e.WORKER_BATCH_SIZE,
      backoff: { baseMs: e.WORKER_RETRY_BASE_MS, maxMs: e.WORKER_RETRY_MAX_MS, maxRetryAfterMs: e.WORKER_MAX_RETRY_AFTER_MS },
      heartbeatMs: e.WORKER_HEARTBEAT_MS,
      historyRetentionMs: e.PRICE_HISTORY_RETENTION,
      auditRetentionMs: e.AUDIT_RETENTION,
      scheduleCheckMs: e.WORKER_SCHEDULE_CHECK_MS,
    } satisfies WorkerTuning,
  }));

export type WorkerConfig = z.output<typeof workerConfigSection>;
