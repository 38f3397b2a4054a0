// A job's comparison across marketplaces on a 150k-ISBN job × 4 marketplaces, on PostgreSQL and on
// PGlite: p50/p95 of a page (default sort, sorted by spread or estimated profit, filtered on best
// source, best price dropped by $5 or more sorted by the change) through the API beside the
// repository's SQL run directly, the run summary, the price distribution, and the time of the whole
// CSV export.
import { eq, sql } from 'drizzle-orm';
import { storeComparison } from '../src/comparison/stored.ts';
import { jobs } from '../src/db/schema.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { productRoutes } from '../src/routes.ts';
import { findVisibleJob } from '../src/jobs/repository.ts';
import { listComparison } from '../src/comparison/repository.ts';
import { jobSummary } from '../src/jobs/summary.ts';
import { priceDistribution } from '../src/comparison/distribution.ts';
import { feeSchedulesInForce } from '../src/fees/repository.ts';
import { benchPostgres, percentile, report, timed, now } from './lib.ts';
import { benchContext } from './context.ts';

export const ISBNS = 150_000;
const RUNS = 15;

/** One job asking AbeBooks, Biblio, Alibris and PalletIQ: one lookup row per ISBN (`isbns`) each, mostly priced. */
export async function seed(db: Db, ownerId: string, isbns = ISBNS): Promise<number> {
  const { rows } = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books, biblio, alibris, pallet_iq)
        VALUES ('bench comparison', 'bench.xlsx', ${ownerId}, true, true, true, true) RETURNING id`,
  );
  const job = rows[0]?.id ?? 0;
  const isbn = sql.raw(`'978' || lpad(g::text, 10, '0')`);
  const status = sql.raw(`(ARRAY['completed','completed','completed','no_offers_available','failed','queued'])[1 + g % 6]`);
  // The first three statuses of six are completed: those have prices.
  const priced = 'g % 6 < 3';
  const rowsOf = (table: string, columns: string, values: string) =>
    db.execute(
      sql`INSERT INTO ${sql.identifier(table)} (isbn_lookup_job_id, isbn, input_filename, lookup_status, attempts, updated_at, ${sql.raw(columns)})
          SELECT ${job}::int, ${isbn}, 'bench.xlsx', ${status}, 1, now() - (g % 3600) * interval '1 second', ${sql.raw(values)}
          FROM generate_series(1, ${isbns}::int) g`,
    );
  // A previous look for most rows (price history): up to $10 either side of today's price.
  const previous = (price: string) =>
    `CASE WHEN g % 5 <> 0 THEN ${price} + (g % 2001 - 1000) / 100.0 END, CASE WHEN g % 5 <> 0 THEN 'USD' END`;
  await rowsOf(
    'abe_books_price_lookups',
    'title, total_listing_price, previous_price, previous_currency',
    `'Title ' || g, CASE WHEN ${priced} THEN 4 + (g::bigint * 7919 % 9000) / 100.0 END, ${previous('4 + (g::bigint * 7919 % 9000) / 100.0')}`,
  );
  await rowsOf(
    'biblio_price_lookups',
    'price, currency',
    `CASE WHEN ${priced} THEN 3 + (g::bigint * 104729 % 12000) / 100.0 END, CASE WHEN g % 20 = 0 THEN 'EUR' ELSE 'USD' END`,
  );
  await rowsOf(
    'alibris_price_lookups',
    'price, previous_price, previous_currency',
    `CASE WHEN ${priced} THEN 2 + (g::bigint * 1299709 % 15000) / 100.0 END, ${previous('2 + (g::bigint * 1299709 % 15000) / 100.0')}`,
  );
  await rowsOf(
    'pallet_iq_price_lookups',
    'winner_amazon_log_data_mp_decision, winner_amazon_log_data_mm_val',
    `CASE WHEN g % 2 = 0 THEN 'BUY' ELSE 'REJECT' END, (g % 500) / 100.0`,
  );
  await db.execute(
    sql`INSERT INTO job_progress (job_id, source, total, processed)
        SELECT ${job}::int, s, ${isbns}::int, ${isbns - Math.floor(isbns / 6)}::int FROM unnest(ARRAY['abe_books','biblio','alibris','pallet_iq']) s`,
  );
  // Its stored comparison (comparison/stored.ts), as a job created through the API has, stored in
  // steps as the product stores an older job's.
  const [created] = await db.select().from(jobs).where(eq(jobs.id, job));
  await storeComparison(db, created!);
  for (const t of [
    'abe_books_price_lookups',
    'biblio_price_lookups',
    'alibris_price_lookups',
    'pallet_iq_price_lookups',
    'comparison_rows',
  ]) {
    await db.execute(sql`VACUUM ANALYZE ${sql.identifier(t)}`);
  }
  return job;
}

async function latencies(fn: () => Promise<unknown>): Promise<string> {
  await fn(); // warm
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = now();
    await fn();
    times.push(now() - start);
  }
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`;
}

async function benchEngine(engine: 'pg' | 'pglite'): Promise<void> {
  const pgDb = engine === 'pg' ? await benchPostgres() : undefined;
  const database = await openDatabase(pgDb ? { url: pgDb.url, poolSize: 10 } : {});
  const db = database.db;
  try {
    const { ctx, admin } = await benchContext(database, pgDb?.url);
    const seeded = await timed(() => seed(db, admin.id));
    report({ name: `comparison (${engine}): seed ${ISBNS / 1000}k ISBNs × 4 marketplaces`, value: `${(seeded.ms / 1000).toFixed(1)} s` });
    const jobId = seeded.value;
    const app = await buildApp(ctx, { routes: productRoutes });
    await app.ready();
    const token = await ctx.tokens.createAccessToken(admin);
    const headers = { authorization: `Bearer ${token}` };
    const job = await findVisibleJob(db, admin, jobId);
    const fees = await feeSchedulesInForce(db);

    const filter = [{ field: 'best_source', operator: 'equals' as const, value: 'Alibris' }];
    const dropped = [{ field: 'best_price_change', operator: 'lte' as const, value: '-5' }];
    // The page's own size (PAGE_SIZE.lookups), as the browser asks.
    const scenarios: [string, string, () => Promise<unknown>][] = [
      ['page, default sort', '?skip=0&limit=10', () => listComparison(db, job, { filters: [], fees }, { skip: 0, limit: 10 })],
      [
        'page, sorted by spread',
        '?skip=0&limit=10&sort_by=spread&sort_direction=desc',
        () => listComparison(db, job, { filters: [], sort_by: 'spread', sort_direction: 'desc', fees }, { skip: 0, limit: 10 }),
      ],
      ['page, best source = Alibris', '?skip=0&limit=10', () => listComparison(db, job, { filters: filter, fees }, { skip: 0, limit: 10 })],
      [
        'page, sorted by estimated profit',
        '?skip=0&limit=10&sort_by=estimated_profit&sort_direction=desc',
        () => listComparison(db, job, { filters: [], sort_by: 'estimated_profit', sort_direction: 'desc', fees }, { skip: 0, limit: 10 }),
      ],
      [
        'page, best price dropped by $5 or more, biggest drop first',
        '?skip=0&limit=10&sort_by=best_price_change&sort_direction=asc',
        () =>
          listComparison(db, job, { filters: dropped, sort_by: 'best_price_change', sort_direction: 'asc', fees }, { skip: 0, limit: 10 }),
      ],
    ];
    for (const [name, qs, direct] of scenarios) {
      const body = { filters: name.includes('Alibris') ? filter : name.includes('dropped') ? dropped : [] };
      report({ name: `comparison (${engine}): ${name}, direct SQL`, value: await latencies(direct) });
      report({
        name: `comparison (${engine}): ${name}, API`,
        value: await latencies(async () => {
          const res = await app.inject({ method: 'POST', url: `/api/v1/jobs/${jobId}/comparison${qs}`, headers, payload: body });
          if (res.statusCode !== 200) throw new Error(res.body);
        }),
      });
    }
    report({ name: `comparison (${engine}): run summary, direct SQL`, value: await latencies(() => jobSummary(db, job)) });
    report({ name: `comparison (${engine}): price distribution, direct SQL`, value: await latencies(() => priceDistribution(db, job)) });
    for (const [name, sort] of [
      ['', {}],
      [', sorted by spread', { sort_by: 'spread', sort_direction: 'desc' }],
    ] as const) {
      const csv = await timed(async () => {
        const res = await app.inject({
          method: 'POST',
          url: `/api/v1/jobs/${jobId}/comparison/download-csv`,
          headers,
          payload: { filters: [], ...sort },
        });
        return res.body.split('\n').length - 2;
      });
      if (csv.value !== ISBNS) throw new Error(`CSV held ${csv.value} rows, expected ${ISBNS}`);
      report({
        name: `comparison (${engine}): CSV export of ${ISBNS / 1000}k rows${name}`,
        value: `${(csv.ms / 1000).toFixed(2)} s, ${Math.round(ISBNS / (csv.ms / 1000)).toLocaleString('en')} rows/s`,
      });
    }
    await app.close();
  } finally {
    await database.close();
    await pgDb?.cleanup();
  }
}

/** BENCH_COMPARISON_ENGINES: which engines to measure (default both: pg,pglite). */
export async function benchComparison(): Promise<void> {
  const engines = (process.env.BENCH_COMPARISON_ENGINES ?? 'pg,pglite').split(',');
  if (engines.includes('pg')) await benchEngine('pg');
  if (engines.includes('pglite')) await benchEngine('pglite');
}
