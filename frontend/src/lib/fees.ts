// Pure parts of the Fees page and the job's cost control: form text to the API's numbers, and the
// number of books a pallet's cost is spread over.
import { FEE_FIELDS } from '@app/domain/fees';
import { MARKETPLACE_IDS } from '@app/domain/marketplaces';
import type { FeeSchedule, JobPublic } from '../client/types.gen';

export type FeeField = (typeof FEE_FIELDS)[number];
export type FeeForm = Record<FeeField, string>;

export const toFeeForm = (s: FeeSchedule): FeeForm =>
  Object.fromEntries(FEE_FIELDS.map((f) => [f, s[f] === null ? '' : String(s[f])])) as FeeForm;

/** The PUT body: numbers, an empty bound as null (an empty required field never gets here). */
export const toFeeBody = (v: FeeForm) => ({
  percent: Number(v.percent),
  min_commission: v.min_commission.trim() === '' ? null : Number(v.min_commission),
  max_commission: v.max_commission.trim() === '' ? null : Number(v.max_commission),
  fixed: Number(v.fixed),
  shipping_credit: Number(v.shipping_credit),
});

/** The job's books: every marketplace it asks has one lookup per accepted ISBN (as the server counts them). */
export const jobBooks = (job: Pick<JobPublic, (typeof MARKETPLACE_IDS)[number]>) =>
  Math.max(0, ...MARKETPLACE_IDS.map((id) => job[id].total_isbns));
