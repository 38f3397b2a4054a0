// How one job's prices spread, per selling marketplace: counts in equal-width price buckets,
// computed in SQL so the browser gets a few dozen numbers, never a point per ISBN.
import { sql, type SQL } from 'drizzle-orm';
import { COMPARISON_CURRENCY, PRICE_SOURCES } from '@app/domain/comparison';
import { MARKETPLACES } from '@app/domain/marketplaces';
import type { Db } from '../db/client.ts';
import type { JobRow } from '../jobs/repository.ts';
import { column, priceOf } from './query.ts';

/** Buckets below the top price; one more holds everything at or above it (the long tail of rare books). */
export const BUCKETS = 20;
/** Prices above this share of them go to the last bucket, so a few outliers do not squash the chart. */
const TOP_SHARE = 0.98;

/** The smallest of 1, 2, 2.5, 5 × 10^k that is at least `x`: bucket edges a reader takes in at a glance. */
export function niceWidth(x: number): number {
  if (!(x > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(x));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * power >= x - 1e-9) ?? 10;
  return step * power;
}

export interface PriceBucket {
  /** Lower edge (inclusive). */
  from: number;
  /** Upper edge (exclusive); null for the last bucket, which holds every higher price. */
  to: number | null;
  /** Prices per price source (by marketplace id) in this bucket. */
  counts: Record<string, number>;
}

/** `WITH p AS (…)`: each asked price source's chosen price and its currency, one row per lookup of the job. */
function prices(job: JobRow): SQL | undefined {
  const perSource = PRICE_SOURCES.filter((s) => job[s.marketplace]).map((s) => {
    const { price, currency } = priceOf(s, true);
    const table = MARKETPLACES[s.marketplace].table;
    return sql`SELECT ${s.marketplace}::text AS source, ${price} AS price, ${currency} AS currency
      FROM ${sql.identifier(table)} AS ${sql.identifier(s.marketplace)} WHERE ${column(s.marketplace, 'isbn_lookup_job_id')} = ${job.id}`;
  });
  return perSource.length ? sql`WITH p AS (${sql.join(perSource, sql` UNION ALL `)})` : undefined;
}

const emptyCounts = () => Object.fromEntries(PRICE_SOURCES.map((s) => [s.marketplace, 0])) as Record<string, number>;

export async function priceDistribution(db: Db, job: JobRow) {
  const withPrices = prices(job);
  if (!withPrices) return { currency: COMPARISON_CURRENCY, bucket_width: 0, buckets: [], other_currency: 0 };
  const { rows: stats } = await db.execute<{ top: number | null; other_currency: number }>(
    sql`${withPrices} SELECT percentile_cont(${TOP_SHARE}) WITHIN GROUP (ORDER BY price) FILTER (WHERE currency = ${COMPARISON_CURRENCY}) AS top,
          count(*) FILTER (WHERE price IS NOT NULL AND currency <> ${COMPARISON_CURRENCY})::int AS other_currency
        FROM p`,
  );
  const top = stats[0]?.top ?? null;
  const otherCurrency = stats[0]?.other_currency ?? 0;
  if (top === null) return { currency: COMPARISON_CURRENCY, bucket_width: 0, buckets: [], other_currency: otherCurrency };
  const width = niceWidth(top / BUCKETS);
  // width_bucket numbers 1..BUCKETS inside [0, width × BUCKETS) and BUCKETS + 1 above it.
  const { rows } = await db.execute<{ source: string; bucket: number; n: number }>(
    sql`${withPrices} SELECT source, width_bucket(price, 0, ${width * BUCKETS}::double precision, ${BUCKETS}::int) AS bucket, count(*)::int AS n
        FROM p WHERE currency = ${COMPARISON_CURRENCY} AND price IS NOT NULL GROUP BY 1, 2`,
  );
  const lastUsed = Math.max(...rows.map((r) => Number(r.bucket)));
  const buckets: PriceBucket[] = Array.from({ length: Math.max(1, lastUsed) }, (_, i) => ({
    from: i * width,
    to: i + 1 > BUCKETS ? null : (i + 1) * width,
    counts: emptyCounts(),
  }));
  for (const r of rows) {
    // Negative prices (none expected) would land in bucket 0: count them with the first.
    const bucket = buckets[Math.max(1, Number(r.bucket)) - 1];
    if (bucket) bucket.counts[r.source] = (bucket.counts[r.source] ?? 0) + r.n;
  }
  return { currency: COMPARISON_CURRENCY, bucket_width: width, buckets, other_currency: otherCurrency };
}
