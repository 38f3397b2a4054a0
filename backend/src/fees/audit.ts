// Audit events of what estimated profit is computed from: a marketplace's fee schedule (superusers
// only; it changes every job's profits) and a job's cost per book. Old and new figures are kept, so
// the trail says what a profit was computed with before.
import { MARKETPLACES } from '@app/domain/marketplaces';
import type { FastifyRequest } from 'fastify';
import { auditStep, requestActor } from '../audit/record.ts';
import type { TxStep } from '../db/tx-step.ts';
import type { JobCostChange } from './job-cost.ts';
import type { FeeScheduleChange } from './repository.ts';

export const auditFeeSchedule = (req: FastifyRequest, action: 'fee_schedule.updated' | 'fee_schedule.reset'): TxStep<FeeScheduleChange> =>
  auditStep(requestActor(req), (c) => ({
    action,
    target: { type: 'fee_schedule', id: c.marketplace, label: MARKETPLACES[c.marketplace].label },
    details: { before: c.before, after: c.after },
  }));

/** `palletCost`: the pallet's price the cost per book was divided from, when it was. */
export const auditJobCost = (req: FastifyRequest, palletCost: number | null): TxStep<JobCostChange> =>
  auditStep(requestActor(req), (c) => ({
    action: 'job.cost_set',
    target: { type: 'job', id: c.job.id, label: c.job.name },
    details: { cost_per_book_before: c.before, cost_per_book_after: c.after, ...(palletCost === null ? {} : { pallet_cost: palletCost }) },
  }));
