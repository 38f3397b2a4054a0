// Fee schedules in force: a superuser's row in fee_schedules where there is one, else the domain's
// sourced default. Read once per request by whatever computes estimated profit (a handful of rows).
import { eq } from 'drizzle-orm';
import { FEE_FIELDS, SELLING_MARKETPLACES, feeDefault, type FeeSchedule } from '@app/domain/fees';
import type { MarketplaceId } from '@app/domain/marketplaces';
import type { Db, Tx } from '../db/client.ts';
import type { TxStep } from '../db/tx-step.ts';
import { feeSchedules, users } from '../db/schema.ts';

/** The schedule each selling marketplace charges with now. */
export type FeeSchedules = Partial<Record<MarketplaceId, FeeSchedule>>;

const pick = (s: FeeSchedule): FeeSchedule => Object.fromEntries(FEE_FIELDS.map((f) => [f, s[f]])) as unknown as FeeSchedule;

/** The figures a marketplace charges with: its stored row (a superuser's), else its default. */
const figures = (id: MarketplaceId, row: FeeSchedule | undefined): FeeSchedule => pick(row ?? feeDefault(id));

async function storedRows(db: Db) {
  return db
    .select({
      marketplace: feeSchedules.marketplace,
      percent: feeSchedules.percent,
      min_commission: feeSchedules.min_commission,
      max_commission: feeSchedules.max_commission,
      fixed: feeSchedules.fixed,
      shipping_credit: feeSchedules.shipping_credit,
      updated_at: feeSchedules.updated_at,
      updated_by: feeSchedules.updated_by,
      updated_by_email: users.email,
      updated_by_name: users.full_name,
    })
    .from(feeSchedules)
    .leftJoin(users, eq(users.id, feeSchedules.updated_by));
}

/** Percent, fixed and credit per selling marketplace, as the comparison needs them. */
export async function feeSchedulesInForce(db: Db): Promise<FeeSchedules> {
  const stored = new Map((await db.select().from(feeSchedules)).map((r) => [r.marketplace, r]));
  return Object.fromEntries(SELLING_MARKETPLACES.map((id) => [id, figures(id, stored.get(id))]));
}

/** Every selling marketplace's schedule with who set it (or its default's source), for the Fees page. */
export async function listFeeSchedules(db: Db) {
  const stored = new Map((await storedRows(db)).map((r) => [r.marketplace, r]));
  return SELLING_MARKETPLACES.map((id) => {
    const d = feeDefault(id);
    const row = stored.get(id);
    return {
      marketplace: id,
      ...figures(id, row),
      is_default: !row,
      updated_at: row?.updated_at ?? null,
      // The user may have been deleted since (the column is then null): "set by a removed user".
      updated_by: row?.updated_by ? { id: row.updated_by, email: row.updated_by_email ?? '', full_name: row.updated_by_name } : null,
      default: d,
    };
  });
}

/** A schedule changed: the marketplace, the figures in force before and after (for the audit trail). */
export interface FeeScheduleChange {
  marketplace: MarketplaceId;
  before: FeeSchedule;
  after: FeeSchedule;
}

/** The figures in force for one marketplace: its stored row, else its default. */
async function inForce(db: Db | Tx, id: MarketplaceId): Promise<FeeSchedule> {
  const [row] = await db.select().from(feeSchedules).where(eq(feeSchedules.marketplace, id));
  return figures(id, row);
}

export async function saveFeeSchedule(db: Db, id: MarketplaceId, s: FeeSchedule, userId: string, step?: TxStep<FeeScheduleChange>) {
  const values = { ...pick(s), updated_by: userId, updated_at: new Date() };
  await db.transaction(async (tx) => {
    const before = await inForce(tx, id);
    await tx
      .insert(feeSchedules)
      .values({ marketplace: id, ...values })
      .onConflictDoUpdate({ target: feeSchedules.marketplace, set: values });
    await step?.(tx, { marketplace: id, before, after: pick(s) });
  });
}

/** Back to the default: the row goes. */
export async function resetFeeSchedule(db: Db, id: MarketplaceId, step?: TxStep<FeeScheduleChange>) {
  await db.transaction(async (tx) => {
    const before = await inForce(tx, id);
    await tx.delete(feeSchedules).where(eq(feeSchedules.marketplace, id));
    await step?.(tx, { marketplace: id, before, after: figures(id, undefined) });
  });
}
