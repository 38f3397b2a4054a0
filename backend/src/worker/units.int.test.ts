import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryDelayMs } from './backoff.ts';
import { parseConfig } from '../core/config.ts';
import { workerConfigSection } from './options.ts';
import { RateLimiter } from './rate-limiter.ts';
import { openDatabase, type Database } from '../db/client.ts';
import { settle } from './settle.ts';

const policy = { baseMs: 1000, maxMs: 5000, maxRetryAfterMs: 60_000 };
const row = (attempts: number) => ({ id: 7, isbn: '9780131457577', attempts, isbn_lookup_job_id: 1 });

describe('backoff', () => {
  it('doubles from the base, caps, and never undercuts Retry-After', () => {
    expect([1, 2, 3, 4, 5].map((a) => retryDelayMs(a, policy))).toEqual([1000, 2000, 4000, 5000, 5000]);
    expect(retryDelayMs(1, policy, 30_000)).toBe(30_000);
    expect(retryDelayMs(3, policy, 10)).toBe(4000);
    // A Retry-After of a day is capped: the lookup is asked again within the hour, not tomorrow.
    expect(retryDelayMs(1, policy, 86_400_000)).toBe(60_000);
  });
});

describe('settle', () => {
  it('maps final outcomes to statuses', () => {
    expect(settle(row(1), { kind: 'no_offers', offers: [] }, 5, policy)).toEqual({
      finished: { id: 7, attempts: 1, status: 'no_offers_available', last_error: null, offers: [], record: null },
    });
    expect(settle(row(2), { kind: 'failed', message: 'Invalid ISBN' }, 5, policy)).toMatchObject({
      finished: { status: 'failed', last_error: 'Invalid ISBN' },
    });
  });

  it('requeues a retry with backoff until the last attempt, then fails keeping the reason', () => {
    expect(settle(row(2), { kind: 'retry', reason: 'Rate limited (429)', retryAfterMs: 9000 }, 3, policy)).toEqual({
      requeued: { id: 7, attempts: 2, last_error: 'Rate limited (429)', delay_ms: 9000 },
    });
    expect(settle(row(3), { kind: 'retry', reason: 'Timed out after 10000 ms' }, 3, policy)).toMatchObject({
      finished: { status: 'failed', last_error: 'Timed out after 10000 ms (gave up after 3 attempts)' },
    });
  });
});

describe('rate limiter', () => {
  let db: Database;
  beforeAll(async () => {
    db = await openDatabase({});
  });
  afterAll(() => db.close());

  it('spaces calls at 1/rate without an initial burst', async () => {
    const limiter = new RateLimiter(db.db, 'units-a', 50, 4);
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, () => limiter.take()));
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('shares the rate between limiters of different workers', async () => {
    const a = new RateLimiter(db.db, 'units-b', 50, 4);
    const b = new RateLimiter(db.db, 'units-b', 50, 4);
    const started = performance.now();
    await Promise.all(Array.from({ length: 11 }, (_, i) => (i % 2 ? a : b).take()));
    // 11 calls at 50/s in all, not 50/s each: the last is at least 10 intervals after the first.
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('gives up a wait when the signal aborts', async () => {
    const limiter = new RateLimiter(db.db, 'units-c', 1, 1);
    await limiter.take();
    await expect(limiter.take(AbortSignal.timeout(20))).rejects.toThrow();
  });
});

describe('worker options from the environment', () => {
  const workerOptionsFromEnv = (env: NodeJS.ProcessEnv) => parseConfig({ worker: workerConfigSection }, env).worker.tuning;
  it('has defaults and reads overrides', () => {
    expect(workerOptionsFromEnv({})).toEqual({
      pollIntervalMs: 1000,
      leaseMs: 120_000,
      batchSize: 50,
      backoff: { baseMs: 1000, maxMs: 300_000, maxRetryAfterMs: 3_600_000 },
      heartbeatMs: 10_000,
      historyRetentionMs: 730 * 86_400_000,
      auditRetentionMs: 365 * 86_400_000,
      scheduleCheckMs: 60_000,
    });
    expect(workerOptionsFromEnv({ WORKER_SCHEDULE_CHECK_MS: '5000' }).scheduleCheckMs).toBe(5000);
    expect(workerOptionsFromEnv({ WORKER_LEASE_MS: '5000', WORKER_BATCH_SIZE: '' })).toMatchObject({ leaseMs: 5000, batchSize: 50 });
    expect(workerOptionsFromEnv({ WORKER_HEARTBEAT_MS: '2500' }).heartbeatMs).toBe(2500);
    expect(parseConfig({ worker: workerConfigSection }, { WORKER_METRICS_PORT: '9464' }).worker.metricsPort).toBe(9464);
    expect(parseConfig({ worker: workerConfigSection }, {}).worker.metricsPort).toBeUndefined();
    expect(() => workerOptionsFromEnv({ WORKER_RETRY_BASE_MS: 'soon' })).toThrow(/WORKER_RETRY_BASE_MS/);
    expect(workerOptionsFromEnv({ PRICE_HISTORY_RETENTION: '90d' }).historyRetentionMs).toBe(90 * 86_400_000);
    expect(workerOptionsFromEnv({ PRICE_HISTORY_RETENTION: '0' }).historyRetentionMs).toBe(0);
    expect(() => workerOptionsFromEnv({ PRICE_HISTORY_RETENTION: 'two years' })).toThrow(/PRICE_HISTORY_RETENTION/);
    expect(workerOptionsFromEnv({}).auditRetentionMs).toBe(365 * 86_400_000);
    expect(workerOptionsFromEnv({ AUDIT_RETENTION: '30d' }).auditRetentionMs).toBe(30 * 86_400_000);
    expect(workerOptionsFromEnv({ AUDIT_RETENTION: '0' }).auditRetentionMs).toBe(0);
    expect(() => workerOptionsFromEnv({ AUDIT_RETENTION: 'a year' })).toThrow(/AUDIT_RETENTION/);
  });
});
