// Every metric this app exports, on one registry per process (prom-client). Counters and
// histograms move where things happen (HTTP hook, worker, live streams, uploads); the gauges that
// describe the database (queue depth, pool use) are set at scrape time (metrics/scrape.ts).
// The worker running inside the API process shares this registry, so one scrape shows both.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();
// process_* and nodejs_* (CPU, memory, event-loop lag, handles), the figures every dashboard expects.
collectDefaultMetrics({ register: registry });

/** Seconds, from a few milliseconds (a cached page) to half a minute (a big upload or export). */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP requests by route pattern (not the raw URL), method and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

export const lookupQueueDepth = new Gauge({
  name: 'lookup_queue_depth',
  help: 'Queued lookups per marketplace, those waiting for a retry included (counted up to 100000)',
  labelNames: ['marketplace'] as const,
  registers: [registry],
});

export const lookupQueueOldestAge = new Gauge({
  name: 'lookup_queue_oldest_age_seconds',
  help: 'Age of the oldest queued lookup per marketplace (0 when none is queued)',
  labelNames: ['marketplace'] as const,
  registers: [registry],
});

export const lookupsFinished = new Counter({
  name: 'lookups_finished_total',
  help: 'Lookups this process finished, per marketplace and outcome (completed, no_offers_available, failed, reused)',
  labelNames: ['marketplace', 'outcome'] as const,
  registers: [registry],
});

/** A claim or a write-back per marketplace: the worker's own statements, which must cost the same however big the queue. */
export const queueStatementDuration = new Histogram({
  name: 'lookup_queue_statement_duration_seconds',
  help: "The worker's queue statements per marketplace: claim (rows taken) and finish (a batch of results written back)",
  labelNames: ['marketplace', 'statement'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  registers: [registry],
});

export const marketplaceRequestDuration = new Histogram({
  name: 'marketplace_request_duration_seconds',
  help: "Marketplace calls' response time per marketplace and outcome (completed, no_offers, failed, retry)",
  labelNames: ['marketplace', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  registers: [registry],
});

export const rateLimitWait = new Histogram({
  name: 'marketplace_rate_limit_wait_seconds',
  help: 'Time a lookup waited for a request slot of the marketplace rate shared by all workers',
  labelNames: ['marketplace'] as const,
  buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const marketplaceRefusals = new Counter({
  name: 'marketplace_refusals_total',
  help: 'Answers where a marketplace refused us for asking too often (429, Alibris over-QPS 403); each is retried later',
  labelNames: ['marketplace'] as const,
  registers: [registry],
});

export const liveStreamClients = new Gauge({
  name: 'live_stream_clients',
  help: 'Open live update streams (GET /api/v1/jobs/events) on this process',
  registers: [registry],
});

export const uploadsParsing = new Gauge({
  name: 'uploads_parsing',
  help: 'Uploads in progress on this process right now: being received, waiting for a parse slot, or read',
  registers: [registry],
});

export const databasePool = new Gauge({
  name: 'database_pool_connections',
  help: 'Database connections of this process: total and idle, and callers waiting for one (PGlite: 1 total, 0 idle)',
  labelNames: ['state'] as const,
  registers: [registry],
});

export const METRICS_CONTENT_TYPE = registry.contentType;
