// Scheduled re-pricing, the worker's side (docs/features/jobs.md, "Scheduled re-pricing"): every
// WORKER_SCHEDULE_CHECK_MS each worker claims the schedules that are due (jobs/schedule.ts: one
// worker per run, whatever the number of workers) and re-prices their jobs with the job control's
// own re-price (jobs/control.ts), so a scheduled run queues lookups exactly as a person's would and
// the queue, the rate limits and the daily budgets treat them the same; only the claim's order puts
// them behind other work (worker/queue.ts, SCHEDULED_TURN_WEIGHT). Each run, and each run skipped
// because the job still had lookups left, is an audit event by the system (no actor).
import type { JobEvents } from '../core/job-events.ts';
import { oneTransaction, type BulkWrites } from '../db/bulk-writes.ts';
import type { Db } from '../db/client.ts';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema.ts';
import { auditStep, writeAuditEvent, type AuditActor } from '../audit/record.ts';
import { controlOptions, repriceJob } from '../jobs/control.ts';
import { claimDueSchedules } from '../jobs/schedule.ts';
import type { JobRow } from '../jobs/repository.ts';
import type { WorkerLog } from './runner.ts';

/** The schedule acts, not a person: its audit events have no actor and no client address. */
export const SCHEDULE_ACTOR: AuditActor = { user: null, address: null };

/** Schedules claimed per look: more due ones wait for the next look (a run moves up to a whole job's lookups). */
const CLAIM_LIMIT = 10;

export interface ScheduledRepriceOptions {
  db: Db;
  log: WorkerLog;
  jobEvents: Pick<JobEvents, 'touched'>;
  /** How big writes run on this database (db/bulk-writes.ts): a run moves its lookups as a person's re-price does. */
  bulk?: BulkWrites;
}

export class ScheduledReprices {
  constructor(private readonly o: ScheduledRepriceOptions) {}

  /** One look: claims the due schedules and runs (or skips) each; how many ran and were skipped. */
  async tick(): Promise<{ ran: number; skipped: number }> {
    const { db, log } = this.o;
    let ran = 0;
    let skipped = 0;
    for (const claimed of await claimDueSchedules(db, CLAIM_LIMIT)) {
      const [job] = await db.select().from(jobs).where(eq(jobs.id, claimed.id));
      if (!job) continue; // deleted since the claim
      try {
        if (claimed.busy) {
          await this.skip(job);
          skipped++;
        } else {
          await this.run(job);
          ran++;
        }
      } catch (err) {
        // Its next run was moved on: the schedule tries again then (a person's action on the job at
        // this moment answers 409 on the embedded database, for one).
        log.warn({ err, job: job.id }, 'a scheduled re-price did not run');
      }
    }
    return { ran, skipped };
  }

  private async run(job: JobRow): Promise<void> {
    const { db, jobEvents } = this.o;
    const step = auditStep(SCHEDULE_ACTOR, (lookups_affected: number) => ({
      action: 'job.schedule_run',
      target: { type: 'job', id: job.id, label: job.name },
      details: { owner_id: job.owner_id, every_days: job.schedule_every_days, lookups_affected },
    }));
    const opts = { ...controlOptions({ bulk: this.o.bulk ?? oneTransaction }, () => jobEvents.touched(job.id)), bySchedule: true };
    const n = await repriceJob(db, job, undefined, step, opts);
    jobEvents.touched(job.id);
    this.o.log.info({ job: job.id, lookups: n }, 'scheduled re-price queued');
  }

  /** The job still has lookups left: a run now would ask for what is being asked already. */
  private async skip(job: JobRow): Promise<void> {
    await writeAuditEvent(this.o.db, SCHEDULE_ACTOR, {
      action: 'job.schedule_skipped',
      target: { type: 'job', id: job.id, label: job.name },
      details: { owner_id: job.owner_id, every_days: job.schedule_every_days, reason: 'the job still had lookups left' },
    });
    this.o.log.info({ job: job.id }, 'scheduled re-price skipped: the job still has lookups left');
  }
}
