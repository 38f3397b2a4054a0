// Scheduled re-pricing API: set, change, pause, resume (PUT) and remove (DELETE) a job's schedule.
// Owners and superusers only, like the other job controls: someone else's job answers 404.
import { SCHEDULE_MAX_EVERY_DAYS, SCHEDULE_MIN_EVERY_DAYS, scheduleChangeAction } from '@app/domain/schedule';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { App, AppContext } from '../core/context.ts';
import { auditStep, requestActor } from '../audit/record.ts';
import type { TxStep } from '../db/tx-step.ts';
import { HttpErrorBody } from '../lib/api-schemas.ts';
import { currentUser } from '../users/current-user.ts';
import { findVisibleJob, readJob, type JobRow } from './repository.ts';
import { JobIdParam } from './routes.ts';
import { removeSchedule, setSchedule, type ScheduleChange } from './schedule.ts';
import { JobPublic } from './schemas.ts';

const tags = ['jobs'];

const everyDaysMessage = `Re-price every 1 to ${SCHEDULE_MAX_EVERY_DAYS} days, in whole days`;

export const JobScheduleIn = z
  .object({
    every_days: z
      .number(everyDaysMessage)
      .int(everyDaysMessage)
      .min(SCHEDULE_MIN_EVERY_DAYS, everyDaysMessage)
      .max(SCHEDULE_MAX_EVERY_DAYS, everyDaysMessage),
    paused: z
      .boolean()
      .optional()
      .describe('Pause (true) or resume (false) the schedule; left out, a new schedule runs and a set one stays as it was'),
  })
  .meta({ id: 'JobScheduleIn' });

/** The change's audit event: what the schedule was and is. A PUT that changed nothing records none. */
const auditSchedule =
  (req: FastifyRequest): TxStep<ScheduleChange> =>
  async (tx, c) => {
    const action = c.after ? scheduleChangeAction(c.before, c.after) : 'job.schedule_removed';
    if (!action) return;
    const state = (s: ScheduleChange['before']) =>
      s && { every_days: s.every_days, paused: s.paused, next_run_at: s.next_run_at.toISOString() };
    await auditStep(requestActor(req), () => ({
      action,
      target: { type: 'job', id: c.job.id, label: c.job.name },
      details: { owner_id: c.job.owner_id, before: state(c.before), after: state(c.after) },
    }))(tx, c);
  };

export function jobScheduleRoutes(app: App, ctx: AppContext): void {
  /** Changes the schedule of a job the caller may see (audited), then answers the job as it now is. */
  async function change(
    req: FastifyRequest<{ Params: { id: number } }>,
    write: (job: JobRow, step: TxStep<ScheduleChange>) => Promise<void>,
  ) {
    const user = currentUser(req);
    const job = await findVisibleJob(ctx.db, user, req.params.id);
    await write(job, auditSchedule(req));
    // Open job pages show the new schedule.
    ctx.jobEvents.touched(job.id);
    return readJob(ctx.db, user, job.id);
  }

  app.put('/jobs/:id/schedule', {
    schema: {
      operationId: 'setJobSchedule',
      tags,
      summary: 'Re-price the job every N days; also changes, pauses and resumes its schedule',
      params: JobIdParam,
      body: JobScheduleIn,
      response: { 200: JobPublic, 404: HttpErrorBody, 422: HttpErrorBody },
    },
    handler: (req) => change(req, (job, step) => setSchedule(ctx.db, job, req.body, currentUser(req).id, step)),
  });

  app.delete('/jobs/:id/schedule', {
    schema: {
      operationId: 'removeJobSchedule',
      tags,
      summary: 'Stop re-pricing the job on a schedule (lookups a run queued go on)',
      params: JobIdParam,
      response: { 200: JobPublic, 404: HttpErrorBody },
    },
    handler: (req) => change(req, (job, step) => removeSchedule(ctx.db, job, step)),
  });
}
