// A book's velocity as the book page shows it: our figures (book_velocity: from Keepa's series when we
// have it, else from our own looks, with how many ranked points they rest on) and, beside them,
// Keepa's own figures from its `stats` (keepa_books), when its last answer carried them.
import { VELOCITY_SOURCES } from '@app/domain/velocity';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { bookVelocity, keepaBooks } from '../db/schema.ts';

const count = z.number().int();
const rank = z.number().int().nullable();

export const BookVelocity = z
  .object({
    /** keepa: computed from Keepa's rank series; amazon: from our own looks at Amazon. */
    source: z.enum(VELOCITY_SOURCES),
    /** Ranked points within the last 180 days the figures rest on: few means thin. */
    observations: count,
    rank_drops_30: count,
    rank_drops_90: count,
    rank_drops_180: count,
    avg_rank_90: rank,
    avg_rank_180: rank,
    sale_days_180: count,
    /** The windows end here (the last answer or Keepa's last series). */
    computed_at: z.date(),
  })
  .meta({ id: 'BookVelocity', description: 'Our velocity figures (docs/features/velocity.md); null when no rank was ever seen' });

export const KeepaStats = z
  .object({
    /** Keepa's time of the answer: its windows end there. */
    at: z.date(),
    /** Keepa's own counts of the rank drops it takes as sales (its rule, not ours); null: Keepa had none. */
    rank_drops_30: count.nullable(),
    rank_drops_90: count.nullable(),
    rank_drops_180: count.nullable(),
    avg_rank_90: rank,
    avg_rank_180: rank,
    current_rank: rank,
    /** Dollars. */
    used_price: z.number().nullable(),
    new_price: z.number().nullable(),
  })
  .meta({ id: 'KeepaStats', description: "Keepa's own figures from its last answer's stats; null when it sent none" });

/** The book's velocity row, or null when no rank was ever seen. */
export async function readBookVelocity(db: Db, isbn: string): Promise<z.infer<typeof BookVelocity> | null> {
  const [v] = await db.select().from(bookVelocity).where(eq(bookVelocity.isbn, isbn));
  if (!v) return null;
  const source = VELOCITY_SOURCES.find((s) => s === v.source) ?? 'amazon';
  return {
    source,
    observations: v.observations,
    rank_drops_30: v.rank_drops_30,
    rank_drops_90: v.rank_drops_90,
    rank_drops_180: v.rank_drops_180,
    avg_rank_90: v.avg_rank_90,
    avg_rank_180: v.avg_rank_180,
    sale_days_180: v.sale_days_180,
    computed_at: v.computed_at,
  };
}

/** Keepa's stats of the book's last Keepa answer, or null (never asked, not known, or no stats in it). */
export async function readKeepaStats(db: Db, isbn: string): Promise<z.infer<typeof KeepaStats> | null> {
  const [k] = await db.select().from(keepaBooks).where(eq(keepaBooks.isbn, isbn));
  if (!k?.found || !k.stats_at) return null;
  return {
    at: k.stats_at,
    rank_drops_30: k.stats_rank_drops_30,
    rank_drops_90: k.stats_rank_drops_90,
    rank_drops_180: k.stats_rank_drops_180,
    avg_rank_90: k.stats_avg_rank_90,
    avg_rank_180: k.stats_avg_rank_180,
    current_rank: k.stats_current_rank,
    used_price: k.stats_used_price,
    new_price: k.stats_new_price,
  };
}
