// Liveness, readiness and the workers' heartbeats. Live says the process answers (no database, so
// an orchestrator never restarts the API for the database's sake); ready says this process can
// serve: the database answers and has every migration this build ships. The utils health-check
// route stays as the specification has it.
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { MigrationCheck } from './migrations.ts';
import { ReadinessCheck } from './readiness.ts';
import { readSystemStatus } from './status.ts';
import { listWorkers } from './workers.ts';

const tags = ['health'];
const Status = z.object({ status: z.literal('ok') }).meta({ id: 'HealthStatus' });
const WorkerHeartbeat = z
  .object({
    id: z.string(),
    host: z.string(),
    pid: z.number().int(),
    started_at: z.date(),
    last_seen: z.date(),
    lookups_in_flight: z.number().int(),
    /** Not seen for three of its heartbeat intervals: died without stopping, or hangs. */
    stale: z.boolean(),
  })
  .meta({ id: 'WorkerHeartbeat' });
const WorkersList = z.object({ data: z.array(WorkerHeartbeat), count: z.number().int() }).meta({ id: 'WorkersList' });

const MarketplaceStatus = z
  .object({
    id: z.string(),
    label: z.string(),
    /** Queued lookups, those waiting for a retry included, counted up to a bound (`queued_capped` then). */
    queued: z.number().int(),
    queued_capped: z.boolean(),
    /** How long the oldest queued lookup has waited (0 when none is queued). */
    oldest_queued_seconds: z.number(),
    /** How far ahead the marketplace's next free request slot is, for every worker (the shared rate limit). */
    next_request_wait_seconds: z.number(),
    /** Waits for a request slot by this process's worker since it started: how many, and their total. */
    rate_limit_waits: z.object({ count: z.number().int(), seconds: z.number() }),
    /** Answers refusing us for asking too often (429), this process, since it started. */
    refusals: z.number().int(),
    /** Marketplaces with a daily quota (eBay): today's calls (the quota's own day), what is left, when a spent day resumes. */
    daily_budget: z
      .object({ budget: z.number().int(), used: z.number().int(), left: z.number().int(), resumes_at: z.date().nullable() })
      .nullable(),
    /** The newest failed lookups. */
    last_errors: z.array(z.object({ job_id: z.number().int(), isbn: z.string(), message: z.string(), at: z.date() })),
  })
  .meta({ id: 'MarketplaceStatus' });
const SystemStatus = z
  .object({ checked_at: z.date(), marketplaces: z.array(MarketplaceStatus), workers: z.array(WorkerHeartbeat) })
  .meta({ id: 'SystemStatus' });

export function healthRoutes(app: App, ctx: AppContext): void {
  const readiness = new ReadinessCheck(new MigrationCheck(ctx.db), ctx.sessionActivity);

  app.get('/health/live', {
    schema: { operationId: 'healthLive', tags, summary: 'The process is up (does not touch the database)', response: { 200: Status } },
    handler: async () => ({ status: 'ok' as const }),
  });

  app.get('/health/ready', {
    schema: {
      operationId: 'healthReady',
      tags,
      summary: 'Ready to serve: the database answers and every migration is applied (503 otherwise)',
      response: { 200: Status, 503: HttpErrorBody },
    },
    handler: async (req, reply) => {
      const result = await readiness.check();
      if (result.ready) return { status: 'ok' as const };
      if (result.cause) req.log.warn({ err: result.cause }, 'readiness: the database is unreachable');
      return reply.code(503).send({ detail: result.detail });
    },
  });

  app.get('/health/workers', {
    config: { access: 'superuser' },
    schema: {
      operationId: 'healthWorkers',
      tags,
      summary: "Running workers' heartbeats (superusers only); stale ones stopped beating",
      response: { 200: WorkersList },
    },
    handler: async () => {
      const data = await listWorkers(ctx.db);
      return { data, count: data.length };
    },
  });

  // What /metrics and /health/workers read, as JSON for the superusers' status page: a session, not the metrics token.
  app.get('/health/status', {
    config: { access: 'superuser' },
    schema: {
      operationId: 'systemStatus',
      tags,
      summary: 'Queues, rate limits, daily budgets, last errors per marketplace and the workers’ heartbeats (superusers only)',
      response: { 200: SystemStatus },
    },
    handler: () => readSystemStatus(ctx.db, ctx.dailyCallBudgets),
  });
}
