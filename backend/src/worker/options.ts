// Worker tuning from WORKER_* variables; anything unset keeps startWorker's default.
import { z } from 'zod';
import { blankAsUnset as unset, parseEnvSection } from '../marketplaces/env.ts';
import { DEFAULT_BACKOFF, type WorkerOptions } from './worker.ts';

const ms = (fallback: number) => z.preprocess(unset, z.coerce.number().int().positive().default(fallback));

const envSchema = z.object({
  WORKER_POLL_INTERVAL_MS: ms(1000),
  WORKER_LEASE_MS: ms(120_000),
  WORKER_BATCH_SIZE: ms(50),
  WORKER_RETRY_BASE_MS: ms(DEFAULT_BACKOFF.baseMs),
  WORKER_RETRY_MAX_MS: ms(DEFAULT_BACKOFF.maxMs),
  WORKER_MAX_RETRY_AFTER_MS: ms(DEFAULT_BACKOFF.maxRetryAfterMs),
  WORKER_STOP_TIMEOUT_MS: ms(10_000),
});

export type WorkerTuning = Pick<WorkerOptions, 'pollIntervalMs' | 'leaseMs' | 'batchSize' | 'backoff' | 'stopTimeoutMs'>;

export function workerOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): WorkerTuning {
  const e = parseEnvSection(envSchema, env, 'worker');
  return {
    pollIntervalMs: e.WORKER_POLL_INTERVAL_MS,
    leaseMs: e.WORKER_LEASE_MS,
    batchSize: e.WORKER_BATCH_SIZE,
    backoff: { baseMs: e.WORKER_RETRY_BASE_MS, maxMs: e.WORKER_RETRY_MAX_MS, maxRetryAfterMs: e.WORKER_MAX_RETRY_AFTER_MS },
    stopTimeoutMs: e.WORKER_STOP_TIMEOUT_MS,
  };
}
