// 1M AbeBooks lookup rows in 100 jobs on PostgreSQL:
// - the lookups page (default sort, `contains` on isbn, completed and price > 20 by price desc) and the jobs list, p50/p95 through the
//   API at 10 and 50 concurrent clients, beside the same SQL run directly (target p95 ≤ 2× direct),
//   and the statements the API ran before (an unbounded count, progress recounted from lookups);
// - CSV export of all rows: rows/s beside COPY … TO STDOUT, and the process's peak memory as rows grow
//   (target ≥ 50 % of COPY's speed, memory flat).
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { MARKETPLACES } from '@app/domain/marketplaces';
import { param, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { openDatabase, type Db } from '../src/db/client.ts';
import { buildApp } from '../src/app.ts';
import { productRoutes } from '../src/routes.ts';
import { countLookups, lookupConditions, lookupPageQuery } from '../src/lookups/repository.ts';
import { countUpTo } from '../src/db/bounded-count.ts';
import { countProgress } from '../src/jobs/progress.ts';
import { benchPostgres, loadInProcess, mb, peakRssDuring, percentile, report, runLoadClient, timed } from './lib.ts';
import { benchContext, staffTokens } from './context.ts';

const ROWS = 1_000_000;
const JOBS = 100;
const LOADS = [10, 50];
const REQUESTS = 500;
const m = MARKETPLACES.abe_books;

export async function seed(db: Db, ownerId: string): Promise<void> {
  const { rows: jobs } = await db.execute<{ id: number }>(
    sql`INSERT INTO jobs (name, input_filename, owner_id, abe_books) SELECT 'bench ' || g, 'bench.xlsx', ${ownerId}, true FROM generate_series(1, ${JOBS}::int) g RETURNING id`,
  );
  const firstJob = Math.min(...jobs.map((j) => j.id));
  // 1M rows in 10 statements, spread over the jobs; isbn = 978 + 10 digits; prices and conditions vary.
  for (let start = 0; start < ROWS; start += 100_000) {
    await db.execute(
      sql`INSERT INTO abe_books_price_lookups (isbn_lookup_job_id, isbn, input_filename, lookup_status, listing_price, total_listing_price, quantity,
         listing_condition, item_condition, seller_rating, vendor_price, vendor_id, listing_url, created_at, updated_at)
       SELECT ${firstJob}::int, '978' || lpad(((g::bigint * 7919) % 10000000000)::text, 10, '0'), 'bench.xlsx',
         (ARRAY['completed','no_offers_available','failed','queued'])[1 + g % 4], (g % 5000) / 100.0, (g % 5000) / 100.0 + 4, 1 + g % 3,
         CASE WHEN g % 2 = 0 THEN 'NEW BOOK' ELSE 'NOT NEW BOOK' END, 'Very Good', 1 + g % 5, (g % 4000) / 100.0, (g % 977)::text,
         'https://www.abebooks.com/servlet/ListingDetails?bi=' || g, now() - (g || ' seconds')::interval, now()
       FROM generate_series(${start + 1}::int, ${start + 100_000}::int) AS g`,
    );
  }
  await db.execute(sql`UPDATE abe_books_price_lookups SET isbn_lookup_job_id = ${firstJob}::int + id % ${JOBS}::int`);
  // The counters ingest and the worker keep, as they would stand.
  await db.execute(
    sql`INSERT INTO job_progress (job_id, source, total, processed)
     SELECT isbn_lookup_job_id, 'abe_books', count(*), count(*) FILTER (WHERE lookup_status <> 'queued') FROM abe_books_price_lookups GROUP BY 1`,
  );
  await db.execute(sql`VACUUM ANALYZE abe_books_price_lookups`);
}

const loadTest = (fn: () => Promise<unknown>, concurrency: number) => loadInProcess(fn, concurrency, REQUESTS);

export async function benchLookups(): Promise<void> {
  const pgDb = await benchPostgres();
  // One connection per client and a few spare; PostgreSQL allows 100 in all (psql needs one below).
  const database = await openDatabase({ url: pgDb.url, poolSize: Math.max(...LOADS) + 10 });
  const db = database.db;
  try {
    const { ctx, admin } = await benchContext(database, pgDb.url);
    const seeded = await timed(() => seed(db, admin.id));
    report({ name: 'lookups: seed 1M rows', value: `${(seeded.ms / 1000).toFixed(1)} s` });

    const app = await buildApp(ctx, { routes: productRoutes });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const token = await ctx.tokens.createAccessToken(admin);
    const staff = await staffTokens(ctx, Math.max(...LOADS));
    const filters = [{ field: 'isbn', operator: 'contains', value: '4242' }];
    const priced = [
      { field: 'lookup_status', operator: 'equals', value: 'completed' },
      { field: 'listing_price', operator: 'gt', value: '20' },
    ];
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const apiLoad = (url: string, body: unknown, concurrency: number) => runLoadClient(`${base}${url}`, staff, body, concurrency, REQUESTS);
    const p = (lat: number[]) => ({ p50: percentile(lat, 50), p95: percentile(lat, 95) });
    const ms = (x: { p50: number; p95: number }) => `p50 ${x.p50.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms`;

    // Direct SQL: the statements each endpoint runs now, and those it ran before (an unbounded
    // count; for jobs, progress recounted from the lookups of the page's jobs).
    const page = (filters: unknown[], sort?: { sort_by: string; sort_direction: 'asc' | 'desc' }) => {
      const q = { filters: filters as never, ...sort };
      const rows = () => lookupPageQuery(db, m, admin, q, { skip: 0, limit: 10 });
      const { where } = lookupConditions(m, admin, q);
      return {
        now: () => Promise.all([rows(), countLookups(db, m, admin, q)]),
        before: () =>
          Promise.all([
            rows(),
            db.execute(sql`SELECT count(*)::int AS n FROM abe_books_price_lookups${where ? sql` WHERE ${where}` : sql``}`),
          ]),
      };
    };
    const jobsPage = () => db.execute<{ id: number }>(sql`SELECT * FROM jobs ORDER BY created_at DESC, id DESC OFFSET 0 LIMIT 10`);
    const jobsSql = {
      now: async () => {
        const [rows] = await Promise.all([jobsPage(), countUpTo(db, sql`FROM jobs`)]);
        await countProgress(
          db,
          rows.rows.map((r) => r.id),
        );
      },
      before: async () => {
        const [rows] = await Promise.all([jobsPage(), db.execute(sql`SELECT count(*)::int FROM jobs`)]);
        await db.execute(
          sql`SELECT isbn_lookup_job_id, count(*)::int, count(*) FILTER (WHERE lookup_status = ANY(${param(['completed', 'no_offers_available', 'failed'])}))::int
              FROM abe_books_price_lookups WHERE isbn_lookup_job_id = ANY(${param(rows.rows.map((r) => r.id))}) GROUP BY 1`,
        );
      },
    };
    const scenarios = [
      { name: 'lookups page (default sort)', url: '/api/v1/abe-books/price-lookups?skip=0&limit=10', body: { filters: [] }, sql: page([]) },
      {
        name: 'lookups page (isbn contains, sorted)',
        url: '/api/v1/abe-books/price-lookups?skip=0&limit=10',
        body: { filters },
        sql: page(filters),
      },
      {
        // The issue's measured case (issue 16): a descending sort on a nullable column, read through its index.
        name: 'lookups page (completed, price > 20, by price desc)',
        url: '/api/v1/abe-books/price-lookups?skip=0&limit=10&sort_by=listing_price&sort_direction=desc',
        body: { filters: priced },
        sql: page(priced, { sort_by: 'listing_price', sort_direction: 'desc' }),
      },
      {
        name: 'jobs list (progress of 10 jobs of 10k lookups)',
        url: '/api/v1/jobs/jobs?skip=0&limit=10',
        body: { filters: [] },
        sql: jobsSql,
      },
    ];
    for (const sc of scenarios) {
      for (const concurrency of LOADS) {
        await loadTest(sc.sql.now, concurrency); // warm caches
        const before = p(await loadTest(sc.sql.before, concurrency));
        const direct = p(await loadTest(sc.sql.now, concurrency));
        await apiLoad(sc.url, sc.body, concurrency); // warm the server's code paths
        const api = p(await apiLoad(sc.url, sc.body, concurrency));
        report({ name: `${sc.name}, ${concurrency} clients: direct SQL before (full count / recount)`, value: ms(before) });
        report({ name: `${sc.name}, ${concurrency} clients: direct SQL now`, value: ms(direct) });
        report({
          name: `${sc.name}, ${concurrency} clients: API`,
          value: ms(api),
          ratio: api.p95 / direct.p95,
          target: 'p95 ≤ 2× direct SQL',
          ok: api.p95 <= 2 * direct.p95,
        });
      }
    }

    // CSV export: COPY of the same columns and order first, then the API, over all rows and over a quarter.
    const all = lookupConditions(m, admin, { filters: [] });
    const copySql = new PgDialect().sqlToQuery(
      sql`COPY (SELECT ${sql.join(
        m.fields.filter((f) => f.column).map((f) => sql.identifier(f.name)),
        sql`, `,
      )} FROM abe_books_price_lookups ORDER BY ${all.orderBy}) TO STDOUT WITH CSV HEADER`,
    ).sql;
    const copy = await timed(() => execFileSync('psql', [pgDb.url, '-q', '-c', copySql], { maxBuffer: 1024 * 1024 * 1024 }).length);
    const copyRate = ROWS / (copy.ms / 1000);
    report({
      name: 'csv: COPY … TO STDOUT (1M rows, psql)',
      value: `${(copy.ms / 1000).toFixed(2)} s, ${Math.round(copyRate).toLocaleString('en')} rows/s`,
    });

    const exportRows = async (filter: unknown[]) => {
      const res = await fetch(`${base}/api/v1/abe-books/price-lookups/download-csv`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ filters: filter }),
      });
      let lines = 0;
      const reader = res.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const byte of value) if (byte === 10) lines++;
      }
      return lines - 1;
    };
    const quarter = await peakRssDuring(() => exportRows([{ field: 'id', operator: 'lte', value: String(ROWS / 4) }]));
    const full = await peakRssDuring(() => timed(() => exportRows([])));
    if (full.value.value !== ROWS) throw new Error(`export wrote ${full.value.value} rows, expected ${ROWS}`);
    const apiRate = ROWS / (full.value.ms / 1000);
    report({
      name: 'csv: API export (1M rows, streamed)',
      value: `${(full.value.ms / 1000).toFixed(2)} s, ${Math.round(apiRate).toLocaleString('en')} rows/s`,
      ratio: apiRate / copyRate,
      target: '≥ 0.50 of COPY',
      ok: apiRate >= 0.5 * copyRate,
    });
    const growth = (full.peak - full.base) / Math.max(1, quarter.peak - quarter.base);
    report({
      name: 'csv: peak memory over the baseline, 250k rows → 1M rows',
      value: `${mb(quarter.peak - quarter.base)} → ${mb(full.peak - full.base)} (process RSS peak ${mb(full.peak)})`,
      ratio: growth,
      target: 'flat (≤ 1.5× for 4× the rows)',
      ok: growth <= 1.5 || full.peak - full.base < 64 * 1024 * 1024,
    });
    await app.close();
  } finally {
    await database.close();
    await pgDb.cleanup();
  }
}
