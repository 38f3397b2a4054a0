// Fee schedules (read by every signed-in user, changed by superusers) and a job's cost per book
// (its owner or a superuser; another's job is 404): the two inputs of the comparison's estimated profit.
import { marketplaceOfSlug, type MarketplaceSlug } from '@app/domain/marketplaces';
import type { App, AppContext } from '../core/context.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { currentUser } from '../users/current-user.ts';
import { findVisibleJob, readJob } from '../jobs/repository.ts';
import { JobIdParam } from '../jobs/routes.ts';
import { JobPublic } from '../jobs/schemas.ts';
import { auditFeeSchedule, auditJobCost } from './audit.ts';
import { jobCostOf, setJobCost } from './job-cost.ts';
import { listFeeSchedules, resetFeeSchedule, saveFeeSchedule } from './repository.ts';
import { FeeScheduleIn, FeeSchedulesOut, JobCostIn, SellingMarketParam } from './schemas.ts';

const tags = ['fees'];
const su = { config: { access: 'superuser' as const } };
const writeResponses = { 200: FeeSchedulesOut, 403: HttpErrorBody, 422: HttpErrorBody };
const marketOf = (slug: string) => marketplaceOfSlug(slug as MarketplaceSlug).id;

export function feeRoutes(app: App, ctx: AppContext): void {
  app.get('/fee-schedules', {
    schema: {
      operationId: 'listFeeSchedules',
      tags,
      summary: "Each selling marketplace's fees in force: a superuser's or the sourced default",
      response: { 200: FeeSchedulesOut },
    },
    handler: async () => ({ data: await listFeeSchedules(ctx.db) }),
  });

  app.put('/fee-schedules/:market', {
    schema: {
      operationId: 'updateFeeSchedule',
      tags,
      summary: "Set a marketplace's fees (superusers)",
      params: SellingMarketParam,
      body: FeeScheduleIn,
      response: writeResponses,
    },
    ...su,
    handler: async (req) => {
      await saveFeeSchedule(
        ctx.db,
        marketOf(req.params.market),
        req.body,
        currentUser(req).id,
        auditFeeSchedule(req, 'fee_schedule.updated'),
      );
      return { data: await listFeeSchedules(ctx.db) };
    },
  });

  app.delete('/fee-schedules/:market', {
    schema: {
      operationId: 'resetFeeSchedule',
      tags,
      summary: "Put a marketplace's fees back to the default (superusers)",
      params: SellingMarketParam,
      response: writeResponses,
    },
    ...su,
    handler: async (req) => {
      await resetFeeSchedule(ctx.db, marketOf(req.params.market), auditFeeSchedule(req, 'fee_schedule.reset'));
      return { data: await listFeeSchedules(ctx.db) };
    },
  });

  app.put('/jobs/:id/cost', {
    schema: {
      operationId: 'setJobCost',
      tags: ['jobs'],
      summary: 'Set what one book of the job cost: typed, or a pallet cost divided by the job’s books; null clears it',
      params: JobIdParam,
      body: JobCostIn,
      response: { 200: JobPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: async (req) => {
      const user = currentUser(req);
      const job = await findVisibleJob(ctx.db, user, req.params.id);
      await setJobCost(ctx.db, job, await jobCostOf(ctx.db, job, req.body), auditJobCost(req, req.body.pallet_cost ?? null));
      // Open job pages refresh their comparison (the profit column changed).
      ctx.jobEvents.touched(job.id);
      return readJob(ctx.db, user, job.id);
    },
  });
}
