// Job control API: cancel, retry failed, re-price and delete a job, and the failed/cancelled counts
// its actions menu shows. Owners and superusers only: someone else's job answers 404 (findVisibleJob).
import type { AuditAction } from '@app/domain/audit';
import { marketplaceOfSlug, type MarketplaceSlug } from '@app/domain/marketplaces';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../core/context.ts';
import { auditStep, requestActor } from '../audit/record.ts';
import type { TxStep } from '../db/tx-step.ts';
import { HttpErrorBody, Message } from '../lib/api-schemas.ts';
import { currentUser } from '../users/current-user.ts';
import { cancelJob, controlOptions, countRetryable, deleteJob, repriceJob, retryFailed, type ControlOptions } from './control.ts';
import { JobActionResult, JobRetryableCounts, OptionalMarketQuery } from './control-schemas.ts';
import { findVisibleJob, readJob, type JobRow } from './repository.ts';
import { JobIdParam } from './routes.ts';

const tags = ['jobs'];
const actionResponses = { 200: JobActionResult, 404: HttpErrorBody, 409: HttpErrorBody, 422: HttpErrorBody };

export function jobControlRoutes(app: App, ctx: AppContext): void {
  /** The action's audit event, written in its transaction: the job, its owner, the lookups it moved. */
  const audited = (req: FastifyRequest, action: AuditAction, job: JobRow, market?: MarketplaceSlug): TxStep<number | undefined> =>
    auditStep(requestActor(req), (lookups_affected: number | undefined) => ({
      action,
      target: { type: 'job', id: job.id, label: job.name },
      details: { owner_id: job.owner_id, ...(lookups_affected === undefined ? {} : { lookups_affected }), ...(market ? { market } : {}) },
    }));

  /** Runs an action on a job the caller may see, then answers the job as it now is. */
  async function act(
    req: FastifyRequest<{ Params: { id: number } }>,
    event: AuditAction,
    action: (job: JobRow, step: TxStep<number>, opts: ControlOptions) => Promise<number>,
    market?: MarketplaceSlug,
  ) {
    const user = currentUser(req);
    const job = await findVisibleJob(ctx.db, user, req.params.id);
    // On the embedded database the action moves its lookups in steps: viewers see each one.
    const opts = controlOptions(ctx, () => ctx.jobEvents.touched(job.id));
    const lookups_affected = await action(job, audited(req, event, job, market), opts);
    ctx.jobEvents.touched(req.params.id);
    return { ...(await readJob(ctx.db, user, req.params.id)), lookups_affected };
  }
  const marketOf = (slug: MarketplaceSlug | undefined) => (slug ? marketplaceOfSlug(slug) : undefined);

  app.post('/jobs/:id/cancel', {
    schema: {
      operationId: 'cancelJob',
      tags,
      summary: 'Stop the job: queued lookups are cancelled, lookups in flight finish',
      params: JobIdParam,
      response: actionResponses,
    },
    handler: (req) => act(req, 'job.cancelled', (job, step, opts) => cancelJob(ctx.db, job, step, opts)),
  });

  app.post('/jobs/:id/retry-failed', {
    schema: {
      operationId: 'retryFailedLookups',
      tags,
      summary: 'Queue the failed and cancelled lookups again (all marketplaces or one)',
      params: JobIdParam,
      querystring: OptionalMarketQuery,
      response: actionResponses,
    },
    handler: (req) =>
      act(req, 'job.retried', (job, step, opts) => retryFailed(ctx.db, job, marketOf(req.query.market), step, opts), req.query.market),
  });

  app.post('/jobs/:id/reprice', {
    schema: {
      operationId: 'repriceJob',
      tags,
      summary: 'Look the job’s ISBNs up again (all marketplaces or one), keeping the old results until new ones arrive',
      params: JobIdParam,
      querystring: OptionalMarketQuery,
      response: actionResponses,
    },
    handler: (req) =>
      act(req, 'job.repriced', (job, step, opts) => repriceJob(ctx.db, job, marketOf(req.query.market), step, opts), req.query.market),
  });

  app.get('/jobs/:id/retryable', {
    schema: {
      operationId: 'countRetryableLookups',
      tags,
      summary: 'Per marketplace, how many lookups of the job failed or were cancelled',
      params: JobIdParam,
      response: { 200: JobRetryableCounts, 404: HttpErrorBody },
    },
    handler: async (req) => countRetryable(ctx.db, await findVisibleJob(ctx.db, currentUser(req), req.params.id)),
  });

  app.delete('/jobs/:id', {
    schema: {
      operationId: 'deleteJob',
      tags,
      summary: 'Delete the job with its lookups',
      params: JobIdParam,
      response: { 200: Message, 404: HttpErrorBody, 409: HttpErrorBody },
    },
    handler: async (req) => {
      const job = await findVisibleJob(ctx.db, currentUser(req), req.params.id);
      await deleteJob(ctx.db, job, audited(req, 'job.deleted', job), controlOptions(ctx));
      // Named with its owner: once deleted, nobody could look the job up to tell whose it was.
      ctx.jobEvents.touched(job.id, job.owner_id);
      return { message: 'Job deleted successfully' };
    },
  });
}
